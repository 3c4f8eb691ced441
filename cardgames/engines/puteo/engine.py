"""The El Puteo engine (see the package docstring for the rules summary, options and phases)."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from ..base import JSON, Engine, IllegalAction, check_seat, placements_from_scores
from .cards import BLIND_ROUND, CARD_CODES, CARDS_PER_ROUND, CODE_TO_ID, CODES, ROUNDS, full_deck, shuffled
from .options import BIG_MAX, parse_options
from .state import BID, OVER, PHASE_NAMES, PLAY, REVEAL, State, Table, dump_state, load_state
from .views import all_cards, build_view, forbidden_bid, visible_cards

REVEAL_SECONDS = 10  # PT-33
PAUSE_SECONDS = 6  # PT-45
TABLE_TIMERS = ("reveal", "pause")


class PuteoEngine(Engine):
    name: ClassVar[str] = "puteo"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = BIG_MAX
    card_codes: ClassVar[frozenset[str]] = CARD_CODES

    # -- the contract -----------------------------------------------------
    def new_game(self, num_players: int, seed: int | str = 0, options: JSON | None = None) -> State:
        cfg, start_round, lives, dealer = parse_options(num_players, seed, options)
        st = State.__new__(State)
        st.tab = Table(cfg, start_round, dealer, lives, tuple(-1 if x else 0 for x in lives), ())
        st.last = None
        self._deal(st, start_round, dealer)
        return st

    def to_act(self, state: State) -> list[int]:
        phase = state.phase
        if phase in (BID, PLAY):
            return [state.turn]
        if phase == OVER:
            return []
        ready = state.ready
        return [s for s in state.tab.live if not ready >> s & 1]

    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        if type(seat) is not int or not 0 <= seat < len(state.hands):
            check_seat(len(state.hands), seat)
        phase = state.phase
        if phase == PLAY:
            if seat != state.turn:
                return []
            if state.tab.cfg.mode == "classic":
                return [{"type": "play", "card": CODES[card]} for card in state.hands[seat]]
            out: list[JSON] = []
            last = -1
            for card in state.hands[seat]:
                if card != last:  # two equal cards (big mode) are one action
                    out.append({"type": "play", "card": CODES[card]})
                    last = card
            return out
        if phase == BID:
            if seat != state.turn:
                return []
            forbidden = forbidden_bid(state)
            return [
                {"type": "bid", "k": k} for k in range(CARDS_PER_ROUND[state.tab.round] + 1) if k != forbidden
            ]
        if phase == OVER or not state.tab.lives[seat] or state.ready >> seat & 1:
            return []
        return [{"type": "ready"}]

    def apply(self, state: State, seat: int, action: JSON) -> tuple[State, list[JSON]]:
        if type(action) is not dict:
            raise IllegalAction("bad_action", "An action is an object with a 'type'.")
        kind = action.get("type")
        if kind == "play":
            return self._apply_play(state, seat, action)
        if kind == "bid":
            return self._apply_bid(state, seat, action)
        if kind == "ready":
            return self._apply_ready(state, seat)
        if kind == "timeout":
            return self._apply_timeout(state, seat, action)
        raise IllegalAction("bad_action", f"Unknown action type {kind!r}.")

    def view(self, state: State, seat: int | None) -> JSON:
        if seat is not None:
            check_seat(state.tab.cfg.n, seat)
        view = build_view(state, seat, self.to_act(state))
        if state.phase == OVER:
            view["result"] = self.result(state)
        return view

    def timers(self, state: State) -> list[JSON]:
        if state.last is not None:  # PT-44, PT-45: the pause runs first, the next deadline after it
            timer_id = f"pause:{state.last[0]}"
            return [{"id": timer_id, "name": "pause", "seat": None, "seconds": PAUSE_SECONDS}]
        phase = state.phase
        if phase in (BID, PLAY):
            seconds = state.tab.cfg.turn_seconds
            if seconds is None:
                return []
            # one id per decision: a seat bids once a round and plays once a trick
            timer_id = f"turn:{state.tab.round}:{PHASE_NAMES[phase]}:{len(state.done)}:{state.turn}"
            return [{"id": timer_id, "name": "turn", "seat": state.turn, "seconds": seconds}]
        if phase == REVEAL:
            timer_id = f"reveal:{state.tab.round}"
            return [{"id": timer_id, "name": "reveal", "seat": None, "seconds": REVEAL_SECONDS}]
        return []

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def result(self, state: State) -> JSON:
        """Placements by PT-39, winners = the seats placed first, scores = lives.

        ``no_winner`` is true when the last live players fell together (PT-36): the game has no
        winner, and those players share 1st place for the platform (PT-39), so ``winners`` (the
        first-placed seats, as the engine contract requires) lists them; ``survivors`` is empty.
        """
        if state.phase != OVER:
            raise IllegalAction("not_over", "The game is not over yet.")
        keys: list[tuple[int, int]] = []
        for life, elim in zip(state.tab.lives, state.tab.elim, strict=True):
            keys.append((0, -life) if life > 0 else (1, -elim))
        places = placements_from_scores(keys)
        survivors = [s for s, life in enumerate(state.tab.lives) if life > 0]
        return {
            "placements": places,
            "winners": [s for s, p in enumerate(places) if p == 1],
            "scores": list(state.tab.lives),
            "survivors": survivors,
            "no_winner": not survivors,
            "rounds_played": state.tab.round,
        }

    def dump(self, state: State) -> JSON:
        return dump_state(state)

    def load(self, data: JSON) -> State:
        return load_state(data)

    # -- test hooks --------------------------------------------------------
    def all_cards(self, state: State) -> Counter[str]:
        return all_cards(state)

    def visible_cards(self, state: State, seat: int | None) -> Counter[str]:
        return visible_cards(state, seat)

    # -- actions -----------------------------------------------------------
    def _apply_play(self, state: State, seat: Any, action: JSON) -> tuple[State, list[JSON]]:
        if type(seat) is not int or not 0 <= seat < len(state.hands):
            check_seat(len(state.hands), seat)
        card = action.get("card")
        cid = CODE_TO_ID.get(card) if type(card) is str else None
        if cid is None:
            raise IllegalAction("bad_action", f"PLAY needs a card code like '1O', not {card!r}.")
        if state.phase != PLAY:
            self._wrong_phase(state, "play")
        if seat != state.turn:
            raise IllegalAction("not_your_turn", f"It is seat {state.turn}'s turn to play.")
        if cid not in state.hands[seat]:
            raise IllegalAction("illegal_card", f"{card} is not in your hand.")
        new = state.clone()
        events: list[JSON] = []
        self._play_card(new, seat, cid, events, False)
        return new, events

    def _apply_bid(self, state: State, seat: Any, action: JSON) -> tuple[State, list[JSON]]:
        if type(seat) is not int or not 0 <= seat < len(state.hands):
            check_seat(len(state.hands), seat)
        k = action.get("k")
        if type(k) is not int:
            raise IllegalAction("bad_action", f"BID needs an integer k, not {k!r}.")
        if state.phase != BID:
            self._wrong_phase(state, "bid")
        if seat != state.turn:
            raise IllegalAction("not_your_turn", f"It is seat {state.turn}'s turn to bid.")
        n_r = CARDS_PER_ROUND[state.tab.round]
        if not 0 <= k <= n_r:
            raise IllegalAction("bad_bid", f"A bid is 0..{n_r} this round.")
        if seat == state.tab.dealer and k == forbidden_bid(state):
            raise IllegalAction(
                "forbidden_bid", f"The dealer may not bid {k}: the bids would add up to {n_r}."
            )
        new = state.clone()
        new.last = None  # the first bid of a round ends the pause (PT-44)
        events: list[JSON] = []
        self._bid(new, seat, k, events)
        return new, events

    def _apply_ready(self, state: State, seat: Any) -> tuple[State, list[JSON]]:
        if type(seat) is not int or not 0 <= seat < len(state.hands):
            check_seat(len(state.hands), seat)
        if state.phase != REVEAL:
            self._wrong_phase(state, "ready")
        if not state.tab.lives[seat]:
            raise IllegalAction("not_your_turn", "Eliminated players only watch.")
        if state.ready >> seat & 1:
            raise IllegalAction("already_ready", "You are already ready.")
        new = state.clone()
        new.ready = state.ready | 1 << seat
        events: list[JSON] = [{"type": "ready", "seat": seat}]
        if new.ready == new.tab.live_mask:
            self._open_bidding(new, events)
        return new, events

    def _apply_timeout(self, state: State, seat: Any, action: JSON) -> tuple[State, list[JSON]]:
        timer = action.get("timer")
        if timer not in ("turn", *TABLE_TIMERS):
            raise IllegalAction("bad_action", f"Unknown timer {timer!r}.")
        if state.phase == OVER:
            raise IllegalAction("game_over", "The game is over.")
        pending = self.timers(state)
        if not pending or pending[0]["name"] != timer:
            raise IllegalAction("no_timer", f"No {timer} deadline is running.")
        if timer in TABLE_TIMERS:
            if seat is not None:
                raise IllegalAction("bad_seat", f"The {timer} timer is table-wide: apply it for seat None.")
        else:
            check_seat(state.tab.cfg.n, seat)
            if seat != state.turn:
                raise IllegalAction("not_your_turn", f"The running turn timer is seat {state.turn}'s.")
        new = state.clone()
        events: list[JSON] = [{"type": "timeout", "timer": timer, "seat": seat}]
        if timer == "pause":
            new.last = None  # the next round is already dealt: its own deadlines start now
        elif timer == "reveal":
            self._open_bidding(new, events)
        elif state.phase == BID:  # PT-41: bid 0, or 1 if 0 is forbidden
            self._bid(new, seat, 1 if forbidden_bid(state) == 0 else 0, events)
        else:  # PT-42, PT-43: the first card in hand order, the weakest
            self._play_card(new, seat, state.hands[seat][0], events, True)
        return new, events

    # -- phases (they mutate ``st``, a fresh clone owned by ``apply``) ------
    def _deal(self, st: State, round_no: int, dealer: int) -> None:
        """PT-12: deal round ``round_no`` to the live seats in ascending order, n cards each."""
        tab = st.tab
        cfg = tab.cfg
        n_r = CARDS_PER_ROUND[round_no]
        if cfg.deck is not None:
            order: list[int] | tuple[int, ...] = cfg.deck
        else:
            order = shuffled(full_deck(cfg.mode), cfg.round_bits(round_no), n_r * len(tab.live))
        hands: list[tuple[int, ...]] = [()] * cfg.n
        pos = 0
        for s in tab.live:
            hands[s] = tuple(sorted(order[pos : pos + n_r]))
            pos += n_r
        st.tab = tab = tab.with_round(round_no, dealer, tuple(order[pos:]))
        st.hands = tuple(hands)
        st.bids = (-1,) * cfg.n
        st.won = (0,) * cfg.n
        st.trick = ()
        st.done = ()
        st.ready = 0
        if tab.round == BLIND_ROUND:
            st.phase = REVEAL  # PT-31: the reveal comes before bidding
            st.turn = -1
        else:
            st.phase = BID
            st.turn = tab.nxt[tab.dealer]  # PT-17

    def _open_bidding(self, st: State, events: list[JSON]) -> None:
        """PT-T08: after the reveal, bidding opens with the seat after the dealer."""
        st.ready = 0
        st.last = None
        st.phase = BID
        st.turn = st.tab.nxt[st.tab.dealer]
        events.append({"type": "bidding_opens", "turn": st.turn})

    def _bid(self, st: State, seat: int, k: int, events: list[JSON]) -> None:
        bids = list(st.bids)
        bids[seat] = k
        st.bids = tuple(bids)
        events.append({"type": "bid", "seat": seat, "k": k})
        if seat != st.tab.dealer:
            st.turn = st.tab.nxt[seat]
            return
        st.phase = PLAY
        st.turn = st.tab.nxt[st.tab.nxt[st.tab.dealer]]  # PT-18, PT-19
        if st.tab.round == BLIND_ROUND:  # PT-34: the cards are played automatically in trick order
            while st.phase == PLAY:
                self._play_card(st, st.turn, st.hands[st.turn][0], events, True)

    def _play_card(self, st: State, seat: int, card: int, events: list[JSON], auto: bool) -> None:
        hands = list(st.hands)
        hand = hands[seat]
        i = hand.index(card)
        hands[seat] = hand[:i] + hand[i + 1 :]
        st.hands = tuple(hands)
        trick = st.trick + ((seat, card),)  # noqa: RUF005 (concatenation is faster here)
        events.append({"type": "play", "seat": seat, "card": CODES[card], "auto": auto})
        nxt = st.tab.nxt[seat]
        if nxt != trick[0][0]:
            st.trick = trick
            st.turn = nxt
            return
        # PT-8, PT-28: the strongest card wins; a later equal card does not take the trick
        winner, best = trick[0]
        best >>= 2
        for s, c in trick:
            if c >> 2 > best:
                winner, best = s, c >> 2
        won = list(st.won)
        won[winner] += 1
        st.won = tuple(won)
        st.done = st.done + ((winner, trick),)  # noqa: RUF005
        st.trick = ()
        events.append({"type": "trick", "winner": winner})
        if hands[winner]:
            st.turn = winner  # PT-29
        else:
            self._end_round(st, events)

    def _end_round(self, st: State, events: list[JSON]) -> None:
        """PT-35–PT-38: exact bids are safe, any miss costs one life; elimination; game end."""
        tab = st.tab
        lives = list(tab.lives)
        elim = list(tab.elim)
        lost: list[int] = []
        out: list[int] = []
        for s, life in enumerate(lives):
            if life and st.bids[s] != st.won[s]:
                lives[s] = life - 1
                lost.append(s)
                if life == 1:
                    elim[s] = tab.round
                    out.append(s)
        st.tab = tab = tab.with_lives(tuple(lives), tuple(elim))
        st.turn = -1
        events.append({"type": "round_end", "round": tab.round, "lost_life": lost, "eliminated": out})
        if len(tab.live) <= 1 or tab.round == ROUNDS:
            st.phase = OVER
            events.append({"type": "game_over"})
            return
        # PT-44: the result stays on show during the pause while the next round is dealt;
        # PT-14, PT-16: the deal passes to the next live seat
        last = (tab.round, st.bids, st.won, st.done, tuple(lost))
        self._deal(st, tab.round + 1, tab.nxt[tab.dealer])
        st.last = last
        events.append({"type": "deal", "round": st.tab.round, "dealer": st.tab.dealer})

    # -- helpers -----------------------------------------------------------
    def _wrong_phase(self, state: State, kind: str) -> None:
        if state.phase == OVER:
            raise IllegalAction("game_over", "The game is over.")
        if kind == "play" and state.tab.round == BLIND_ROUND:
            raise IllegalAction("wrong_phase", "Blind-round cards are played automatically (PT-34).")
        raise IllegalAction(
            "wrong_phase", f"No {kind} now: the table is in the {PHASE_NAMES[state.phase]} phase."
        )
