"""The El Puteo engine (see the package docstring for the rules summary, options and phases)."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from ..base import JSON, Engine, IllegalAction, ReadOnlyAction, check_seat, placements_from_scores
from .cards import BLIND_ROUND, CARD_CODES, CARDS_PER_ROUND, CODE_TO_ID, CODES
from .options import BIG_MAX, parse_options
from .rounds import (
    BID_EVENTS,
    PLAY_EVENTS,
    PLAYED,
    READY_EVENTS,
    bid,
    close_trick,
    deal,
    open_bidding,
    play_card,
    start_play,
)
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
# caller (no copy per call); each knows its card or bid (``_Play.cid``, ``_Bid.k``), so ``apply``
# reads a listed action without parsing it; events are shared read-only dicts (``rounds``); a
# trick grows by a shared one-play tuple.


class _Play(ReadOnlyAction):
    """A listed ``{"type": "play", "card": code}``; ``cid`` is the card's internal number."""

    __slots__ = ("cid",)
    cid: int


class _Bid(ReadOnlyAction):
    """A listed ``{"type": "bid", "k": k}``; ``k`` is the bid."""

    __slots__ = ("k",)
    k: int


class _Ready(ReadOnlyAction):
    """The listed ``{"type": "ready"}``."""

    __slots__ = ()


def _listed_play(cid: int) -> _Play:
    action = _Play(type="play", card=CODES[cid])
    action.cid = cid
    return action


def _listed_bid(k: int) -> _Bid:
    action = _Bid(type="bid", k=k)
    action.k = k
    return action


# a list, not a tuple: ``list.__getitem__`` is a plain builtin method, cheaper to map than a slot
_PLAY_ACTIONS: list[JSON] = [_listed_play(cid) for cid in range(len(CODES))]
_play_action = _PLAY_ACTIONS.__getitem__
_card_id = CODE_TO_ID.get
_BIDS = tuple(_listed_bid(k) for k in range(max(CARDS_PER_ROUND) + 1))
_BID_ACTIONS: tuple[tuple[JSON, ...], ...] = tuple(_BIDS[: n + 1] for n in range(max(CARDS_PER_ROUND) + 1))
_READY_ACTION: JSON = _Ready(type="ready")
_PLAY_EVENTS = PLAY_EVENTS[False]


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
        if phase < REVEAL:  # BID or PLAY: one seat decides, unless the pause runs (PT-44)
            if phase == PLAY or state.tab.last is None:
                return [state.turn]
        elif phase == OVER:
            return []
        # the pause or the reveal: the live seats that have not pressed ready, ascending
        waiting = state.tab.live_mask & ~state.ready
        seats = _SEATS_OF.get(waiting)
        if seats is None:
            seats = _seats_of(waiting)
        return [*seats]

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
            if tab.last is None:  # no bids during the pause (PT-44)
                out = [*_BID_ACTIONS[tab.n_r]]
                if seat == tab.dealer:
                    forbidden = forbidden_bid(state)
                    if forbidden is not None:
                        del out[forbidden]
                return out
        if type(seat) is not int or not 0 <= seat < len(state.hands):
            check_seat(len(state.hands), seat)
        tab = state.tab
        if (phase != REVEAL and tab.last is None) or not tab.lives[seat] or state.ready >> seat & 1:
            return []  # another seat's turn, or the game is over
        return [_READY_ACTION]  # the pause (PT-44) or the reveal (PT-T08)

    def apply(self, state: State, seat: int, action: JSON) -> tuple[State, list[JSON]]:
        cls = type(action)
        if cls is _Play:  # a listed play: its card is known
            cid = action.cid  # type: ignore[attr-defined]
        else:
            if cls is _Bid:  # the other listed actions
                kind: Any = "bid"
            elif cls is _Ready:
                kind = "ready"
            elif isinstance(action, dict):
                kind = action.get("type")
            else:
                raise IllegalAction("bad_action", "An action is an object with a 'type'.")
            if kind != "play":
                if kind == "bid":
                    # the hot path, inlined: every check of _apply_bid passes (else it raises in order)
                    k = action.k if cls is _Bid else action.get("k")  # type: ignore[attr-defined]
                    tab = state.tab
                    if (
                        seat is state.turn
                        and state.phase == BID
                        and type(k) is int
                        and 0 <= k <= tab.n_r
                        and tab.last is None  # no bids during the pause (PT-44)
                    ):
                        old = state.bids
                        bids = [*old]
                        bids[seat] = k
                        new = State()
                        new.tab = tab
                        new.hands = state.hands
                        new.bids = tuple(bids)
                        new.trick = state.trick
                        new.done = state.done
                        new.ready = state.ready
                        events: list[JSON] = [BID_EVENTS[seat][k]]
                        if seat != tab.dealer:
                            new.phase = BID
                            new.turn = tab.nxt[seat]
                            return new, events
                        # the dealer bids last, then the play starts; the forbidden bid (PT-22, as
                        # views.forbidden_bid) is n minus the others' bids, none in the blind round
                        if tab.round == BLIND_ROUND:
                            start_play(new, events)
                            return new, events
                        made = 0
                        for b in old:
                            if b > 0:
                                made += b
                        if k != tab.n_r - made:
                            start_play(new, events)
                            return new, events
                    return self._apply_bid(state, seat, action)
                if kind == "ready":
                    # the hot path, inlined: every check of _apply_ready passes (else it raises in order)
                    tab = state.tab
                    ready = state.ready
                    if (
                        type(seat) is int
                        and 0 <= seat < len(state.hands)
                        and (tab.live_mask & ~ready) >> seat & 1  # a live seat, not ready yet
                        and (state.phase == REVEAL or tab.last is not None)
                    ):
                        new = State()
                        new.tab = tab
                        new.phase = state.phase
                        new.turn = state.turn
                        new.hands = state.hands
                        new.bids = state.bids
                        new.trick = state.trick
                        new.done = state.done
                        new.ready = ready = ready | 1 << seat
                        events = [READY_EVENTS[seat]]
                        if ready == tab.live_mask:  # the last vote: the pause ends, or the bidding opens
                            if tab.last is not None:
                                _end_pause(new)
                            else:
                                open_bidding(new, events)
                        return new, events
                    return self._apply_ready(state, seat)
                if kind == "timeout":
                    return self._apply_timeout(state, seat, action)
                raise IllegalAction("bad_action", f"Unknown action type {kind!r}.")
            card = action.get("card")
            cid = _card_id(card, -1) if type(card) is str else -1
        # a play: the hot path, inlined: every check of _apply_play passes (else it raises in order)
        # the seat to act: its hand is hands[seat]; -1 is in no hand
        if seat is state.turn and state.phase == PLAY and cid in state.hands[seat]:
            tab = state.tab
            trick = state.trick + PLAYED[seat][cid]
            events = [_PLAY_EVENTS[seat][cid]]
            new = State()
            new.tab = tab
            new.phase = PLAY
            new.hands = state.hands  # the trick's cards leave them when it closes
            new.bids = state.bids
            new.done = state.done
            new.ready = state.ready
            nxt = tab.nxt[seat]
            if nxt != trick[0][0]:
                new.turn = nxt
                new.trick = trick
            else:
                close_trick(new, trick, events)
            return new, events
        return self._apply_play(state, seat, action)

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
        return self.with_format(dump_state(state))

    def load(self, data: JSON) -> State:
        self.dump_format(data)  # formats 0 and 1 hold the same fields
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
        if state.tab.last is not None:
            raise IllegalAction(
                "wrong_phase", "No bids during the pause after a round (PT-44): bidding opens after it."
            )
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
        events: list[JSON] = []
        bid(new, seat, k, events)
        return new, events

    def _apply_ready(self, state: State, seat: Any) -> tuple[State, list[JSON]]:
        """A ready vote in the pause (PT-44) or the reveal (PT-T08); the last live seat's ends it."""
        if type(seat) is not int or not 0 <= seat < len(state.hands):
            check_seat(len(state.hands), seat)
        paused = state.tab.last is not None
        if state.phase != REVEAL and not paused:
            self._wrong_phase(state, "ready")
        if not state.tab.lives[seat]:
            raise IllegalAction("not_your_turn", "Eliminated players only watch.")
        if state.ready >> seat & 1:
            raise IllegalAction("already_ready", "You are already ready.")
        new = state.clone()
        new.ready |= 1 << seat
        events: list[JSON] = [READY_EVENTS[seat]]
        if new.ready == new.tab.live_mask:
            if paused:
                _end_pause(new)
            else:
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
            _end_pause(new)
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


#: a bit mask of seats -> those seats, ascending (``to_act`` in the pause and the reveal)
_SEATS_OF: dict[int, tuple[int, ...]] = {}


def _seats_of(mask: int) -> tuple[int, ...]:
    seats = _SEATS_OF[mask] = tuple(s for s in range(mask.bit_length()) if mask >> s & 1)
    return seats


def _end_pause(st: State) -> None:
    """PT-44: the result screen closes; the next round, already dealt, starts (its own deadlines
    start now, and the reveal of round 5 counts its own ready votes)."""
    st.tab = st.tab.copy()
    st.tab.last = None
    st.ready = 0
