"""The El Puteo engine (see the package docstring for the rules summary, options and phases)."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from ..base import JSON, Engine, IllegalAction, ReadOnlyAction, check_seat, placements_from_scores
from .cards import BLIND_ROUND, CARD_CODES, CARDS_PER_ROUND, CODE_TO_ID, CODES
from .options import BIG_MAX, parse_options
from .rounds import PLAYED, bid, close_trick, deal, open_bidding, play_card, start_play
from .state import (
    BID,
    OVER,
    PHASE_NAMES,
    PLAY,
    REVEAL,
    State,
    Table,
    dump_state,
    load_state,
)
from .views import all_cards, build_view, forbidden_bid, visible_cards

REVEAL_SECONDS = 10  # PT-33
PAUSE_SECONDS = 6  # PT-45
TABLE_TIMERS = ("reveal", "pause")

# Speed (docs/performance.md): the legal actions are built once, read-only, and shared by every
# caller (no copy per call); events are fresh copies of templates; a trick grows by a shared
# one-play tuple.
# a list, not a tuple: ``list.__getitem__`` is a plain builtin method, cheaper to map than a slot
_PLAY_ACTIONS: list[JSON] = [ReadOnlyAction(type="play", card=code) for code in CODES]
_play_action = _PLAY_ACTIONS.__getitem__
_card_id = CODE_TO_ID.get
_BID_ACTIONS: tuple[tuple[JSON, ...], ...] = tuple(
    tuple(ReadOnlyAction(type="bid", k=k) for k in range(n + 1)) for n in range(max(CARDS_PER_ROUND) + 1)
)
_READY_ACTION: JSON = ReadOnlyAction(type="ready")
#: templates of the hot events, copied: _PLAY_EVENTS[seat][card], _BID_EVENTS[seat][k]
_PLAY_EVENTS: tuple[tuple[JSON, ...], ...] = tuple(
    tuple({"type": "play", "seat": seat, "card": code, "auto": False} for code in CODES)
    for seat in range(BIG_MAX)
)
_BID_EVENTS: tuple[tuple[JSON, ...], ...] = tuple(
    tuple({"type": "bid", "seat": seat, "k": k} for k in range(max(CARDS_PER_ROUND) + 1))
    for seat in range(BIG_MAX)
)


class PuteoEngine(Engine):
    name: ClassVar[str] = "puteo"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = BIG_MAX
    card_codes: ClassVar[frozenset[str]] = CARD_CODES

    # -- the contract -----------------------------------------------------
    def new_game(self, num_players: int, seed: int | str = 0, options: JSON | None = None) -> State:
        cfg, start_round, lives, dealer = parse_options(num_players, seed, options)
        st = State()
        deal(st, Table(cfg, start_round, dealer, lives, tuple(-1 if x else 0 for x in lives), ()))
        return st

    def to_act(self, state: State) -> list[int]:
        phase = state.phase
        if phase < REVEAL:  # BID or PLAY
            return [state.turn]
        if phase == OVER:
            return []
        ready = state.tab.ready
        return [s for s in state.tab.live if not ready >> s & 1]

    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        phase = state.phase
        # the hot path: the one seat to decide. ``is`` (a small int is one object) also rules out
        # True, 1.0 and int subclasses, as ``check_seat`` does; any other seat takes the long way
        if seat is state.turn and phase < REVEAL:
            if phase == PLAY:
                hand = state.hands[seat]
                if state.tab.big:  # two equal cards (big mode) are one action; hands are sorted
                    return [*map(_play_action, dict.fromkeys(hand))]
                return [*map(_play_action, hand)]
            tab = state.tab
            out = [*_BID_ACTIONS[tab.n_r]]
            if seat == tab.dealer:
                forbidden = forbidden_bid(state)
                if forbidden is not None:
                    del out[forbidden]
            return out
        if type(seat) is not int or not 0 <= seat < len(state.hands):
            check_seat(len(state.hands), seat)
        if phase != REVEAL or not state.tab.lives[seat] or state.tab.ready >> seat & 1:
            return []  # another seat's turn, or the game is over
        return [_READY_ACTION]

    def apply(self, state: State, seat: int, action: JSON) -> tuple[State, list[JSON]]:
        if not isinstance(action, dict):
            raise IllegalAction("bad_action", "An action is an object with a 'type'.")
        kind = action.get("type")
        if kind == "play":
            # the hot path, inlined: every check of _apply_play passes (else it raises in order)
            card = action.get("card")
            if seat is state.turn and state.phase == PLAY and type(card) is str:
                cid = _card_id(card, -1)
                if cid in state.hands[seat]:  # the seat to act: its hand is hands[seat]
                    tab = state.tab
                    trick = state.trick + PLAYED[seat][cid]
                    events: list[JSON] = [_PLAY_EVENTS[seat][cid].copy()]
                    new = State()
                    new.tab = tab
                    new.phase = PLAY
                    new.hands = state.hands  # the trick's cards leave them when it closes
                    new.bids = state.bids
                    new.done = state.done
                    nxt = tab.nxt[seat]
                    if nxt != trick[0][0]:
                        new.turn = nxt
                        new.trick = trick
                    else:
                        close_trick(new, trick, events)
                    return new, events
            return self._apply_play(state, seat, action)
        if kind == "bid":
            # the hot path, inlined: every check of _apply_bid passes (else it raises in order)
            k = action.get("k")
            tab = state.tab
            if seat is state.turn and state.phase == BID and type(k) is int and 0 <= k <= tab.n_r:
                if tab.last is not None:  # the first bid of a round ends the pause (PT-44)
                    tab = tab.copy()
                    tab.last = None
                bids = list(state.bids)
                bids[seat] = k
                new = State()
                new.tab = tab
                new.hands = state.hands
                new.bids = tuple(bids)
                new.trick = state.trick
                new.done = state.done
                events = [_BID_EVENTS[seat][k].copy()]
                if seat != tab.dealer:
                    new.phase = BID
                    new.turn = tab.nxt[seat]
                    return new, events
                if k != forbidden_bid(state):  # the dealer bids last, then the play starts
                    start_play(new, events)
                    return new, events
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
        last = state.tab.last
        if last is not None:  # PT-44, PT-45: the pause runs first, the next deadline after it
            timer_id = f"pause:{last[0]}"
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
        play_card(new, seat, cid, events, False)
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
        if state.tab.last is not None:  # the first bid of a round ends the pause (PT-44)
            new.tab = state.tab.copy()
            new.tab.last = None
        events: list[JSON] = []
        bid(new, seat, k, events)
        return new, events

    def _apply_ready(self, state: State, seat: Any) -> tuple[State, list[JSON]]:
        if type(seat) is not int or not 0 <= seat < len(state.hands):
            check_seat(len(state.hands), seat)
        if state.phase != REVEAL:
            self._wrong_phase(state, "ready")
        if not state.tab.lives[seat]:
            raise IllegalAction("not_your_turn", "Eliminated players only watch.")
        if state.tab.ready >> seat & 1:
            raise IllegalAction("already_ready", "You are already ready.")
        new = state.clone()
        new.tab = state.tab.copy()
        new.tab.ready |= 1 << seat
        events: list[JSON] = [{"type": "ready", "seat": seat}]
        if new.tab.ready == new.tab.live_mask:
            open_bidding(new, events)
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
            new.tab = state.tab.copy()
            new.tab.last = None  # the next round is already dealt: its own deadlines start now
        elif timer == "reveal":
            open_bidding(new, events)
        elif state.phase == BID:  # PT-41: bid 0, or 1 if 0 is forbidden
            bid(new, seat, 1 if forbidden_bid(state) == 0 else 0, events)
        else:  # PT-42, PT-43: the first card in hand order, the weakest
            play_card(new, seat, state.hands[seat][0], events, True)
        return new, events

    # -- helpers -----------------------------------------------------------
    def _wrong_phase(self, state: State, kind: str) -> None:
        if state.phase == OVER:
            raise IllegalAction("game_over", "The game is over.")
        if kind == "play" and state.tab.round == BLIND_ROUND:
            raise IllegalAction("wrong_phase", "Blind-round cards are played automatically (PT-34).")
        raise IllegalAction(
            "wrong_phase", f"No {kind} now: the table is in the {PHASE_NAMES[state.phase]} phase."
        )
