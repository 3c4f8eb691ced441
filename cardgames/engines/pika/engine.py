"""The Pika engine: the contract, the deal and action validation.

The rules summary is in the package docstring (``__init__.py``); what each
validated action does to the state is in ``moves.py``.
"""

from __future__ import annotations

import random
from array import array
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

from ..base import JSON, Engine, IllegalAction, check_seat, rng_for
from . import moves
from .cards import (
    BLACK,
    CARD_CODES,
    CHAINABLE,
    COLOURS,
    DECK,
    DECK_COUNTS,
    NUMBER_CARDS,
    PLAYABLE,
)
from .state import AFTER_DRAW, OVER, PHASE_NAMES, TURN, PikaState, colours_of, dump_state, load_state

HAND_SIZE = 7  # PK-5
PIKA_SECONDS = 5  # PK-33
DEFAULT_TURN_SECONDS = 30  # PK-47
TIMER_NAMES = ("turn", "pika")


class PikaEngine(Engine):
    """Pika Cartas (rules/pika.md): pure and stateless; every method takes the state it reads."""

    name: ClassVar[str] = "pika"
    min_players: ClassVar[int] = 2  # PK-1, PK-53
    max_players: ClassVar[int] = 4
    card_codes: ClassVar[frozenset[str]] = CARD_CODES

    # -- the contract -----------------------------------------------------
    def new_game(self, num_players: int, seed: int | str = 0, options: JSON | None = None) -> PikaState:
        opts = dict(options or {})
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise ValueError("num_players must be an int")
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"Pika is for 2 to 4 players, not {num_players}")
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise ValueError("seed must be an int or a string")
        n = num_players
        turn_seconds = opts.get("turn_seconds", DEFAULT_TURN_SECONDS)
        if turn_seconds is not None and (
            isinstance(turn_seconds, bool) or not isinstance(turn_seconds, (int, float)) or turn_seconds <= 0
        ):
            raise ValueError("turn_seconds must be a positive number or None")
        rng = rng_for(seed, 0)  # the deal's randomness; later events use counters 1, 2, ...
        cards = _deck_option(opts.get("deck"))
        if cards is None:
            cards = _shuffled_deck(rng)  # PK-5
        first = opts.get("first_player")
        if first is None:
            first = rng.randrange(n)  # PK-7
        elif isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
            raise ValueError("first_player must be a seat number")
        sizes = _hand_sizes(opts.get("hand_size", HAND_SIZE), n)
        hands, pos = [], 0
        for size in sizes:  # dealt in blocks (design.md, "options['deck']")
            hands.append(tuple(cards[pos : pos + size]))
            pos += size
        stock = cards[pos:]
        if pos > len(cards) or not NUMBER_CARDS.intersection(stock):
            raise ValueError("the deck leaves no number card for the starter (PK-6)")
        while True:  # PK-6: the first number card; any other goes back at a random place
            starter = stock.pop(0)
            if starter in NUMBER_CARDS:
                break
            stock.insert(rng.randrange(len(stock) + 1), starter)
        st = PikaState.__new__(PikaState)
        st.seed = seed
        st.turn_seconds = turn_seconds
        st.hands = tuple(hands)
        st.stock = tuple(stock)
        st.sp = 0
        st.discard = (starter,)
        st.match = starter  # a number card is its own match key
        st.stack = 0
        st.direction = 1  # PK-7: ascending seat order
        st.turn = first
        st.phase = TURN
        st.drawn = None
        st.blocked = 0
        st.rngc = 1
        st.tserial = 1
        st.pika = (0,) * n
        st.pserial = 0
        st.drew_on = (0,) * n
        return st

    def to_act(self, state: PikaState) -> list[int]:
        # Seats in a Pika countdown come first: a driver that asks the seats in
        # order then lets them call before the turn player moves on.
        st = state
        if st.phase == OVER:
            return []
        if not any(st.pika):
            return [st.turn]
        seats = [seat for seat, serial in enumerate(st.pika) if serial]
        if st.turn not in seats:
            seats.append(st.turn)
        return seats

    def legal_actions(self, state: PikaState, seat: int) -> list[JSON]:
        st = state
        if st.phase == OVER or type(seat) is not int or not 0 <= seat < len(st.hands):
            return []
        out: list[JSON] = []
        if st.pika[seat]:  # PK-36: only while the countdown runs
            out.append({"type": "call_pika"})
        if seat != st.turn:
            return out
        if st.phase == AFTER_DRAW:  # PK-15, PK-16
            _play_actions(out, st.drawn)  # type: ignore[arg-type]
            out.append({"type": "keep"})
            return out
        ok = CHAINABLE[st.match] if st.stack else PLAYABLE[st.match]
        calls = len(out)
        append = out.append
        seen: set[str] = set()  # one action per code, in hand order (the deck has duplicates)
        for card in st.hands[seat]:
            if card in ok and card not in seen:  # _play_actions, inlined: the hottest loop
                seen.add(card)
                if card in BLACK:
                    append({"type": "play", "card": card, "colour": "R"})
                    append({"type": "play", "card": card, "colour": "Y"})
                    append({"type": "play", "card": card, "colour": "G"})
                    append({"type": "play", "card": card, "colour": "B"})
                else:
                    append({"type": "play", "card": card})
        if len(out) == calls:  # PK-14, PK-29: drawing / taking only without a legal play
            append({"type": "take_stack"} if st.stack else {"type": "draw"})
        return out

    def apply(self, state: PikaState, seat: int, action: JSON) -> tuple[PikaState, list[JSON]]:
        st = state
        if type(seat) is not int or not 0 <= seat < len(st.hands):
            seat = check_seat(len(st.hands), seat)  # raises bad_seat (also for bools and floats)
        kind = action.get("type") if type(action) is dict or isinstance(action, dict) else None
        if kind == "play":  # the common case first, without the table lookup
            return self._play(st, seat, action)
        handler = _HANDLERS.get(kind) if type(kind) is str else None
        if handler is None:
            raise IllegalAction("bad_action", f"Unknown action {action!r}.")
        return handler(self, st, seat, action)

    def view(self, state: PikaState, seat: int | None) -> JSON:
        st = state
        n = len(st.hands)
        if seat is not None:
            seat = check_seat(n, seat)
        over = st.phase == OVER
        hand = list(st.hands[seat]) if seat is not None else None
        drawn_pos = None
        if hand is not None and st.phase == AFTER_DRAW and seat == st.turn:
            drawn_pos = hand.index(st.drawn)  # type: ignore[arg-type]
        return {
            "seat": seat,
            "num_players": n,
            "phase": PHASE_NAMES[st.phase],
            "turn": None if over else st.turn,
            "direction": st.direction,
            "top": st.discard[-1],
            "colour": st.match[0],
            "stack": st.stack,
            "hand": hand,  # PK-50: own hand in own order
            "drawn_pos": drawn_pos,  # PK-15: which own card waits for PLAY or KEEP
            "hand_counts": [len(h) for h in st.hands],  # PK-51
            "stock_count": len(st.stock) - st.sp,
            "discard_count": len(st.discard),
            # PK-51: who is in a countdown (not when it ends)
            "pika": [s for s, serial in enumerate(st.pika) if serial],
            "blocked_passes": st.blocked,
            # PK-51: public memory of the table, the colours each seat drew on (nothing to
            # play) and has not played since, e.g. ["R", "G"]; a player watching knows it too
            "drew_on": [list(colours_of(mask)) for mask in st.drew_on],
            # PK-52: every hand is shown once the round ends (the viewer's own stays in "hand")
            "revealed": [None if s == seat else list(h) for s, h in enumerate(st.hands)] if over else None,
        }

    def timers(self, state: PikaState) -> list[JSON]:
        st = state
        if st.phase == OVER:
            return []
        # PK-33: the countdown is an engine timer, kept when turn_seconds is None
        out: list[JSON] = [
            {"id": f"pika:{serial}", "name": "pika", "seat": seat, "seconds": PIKA_SECONDS}
            for seat, serial in enumerate(st.pika)
            if serial
        ]
        if st.turn_seconds is not None:  # PK-47, PK-48: one id per turn, kept through AFTER_DRAW
            seconds = st.turn_seconds
            out.append({"id": f"turn:{st.tserial}", "name": "turn", "seat": st.turn, "seconds": seconds})
        return out

    def is_over(self, state: PikaState) -> bool:
        return state.phase == OVER

    def result(self, state: PikaState) -> JSON:
        if state.phase != OVER:
            raise IllegalAction("not_over", "The round is still being played.")
        return moves.result(state)

    def dump(self, state: PikaState) -> JSON:
        return dump_state(state)

    def load(self, data: JSON) -> PikaState:
        return load_state(data)

    # -- test hooks -------------------------------------------------------------
    def all_cards(self, state: PikaState) -> Counter[str]:
        found: Counter[str] = Counter(state.stock_left())
        found.update(state.discard)
        for hand in state.hands:
            found.update(hand)
        return found

    def visible_cards(self, state: PikaState, seat: int | None) -> Counter[str]:
        seen: Counter[str] = Counter(state.discard[-1:])  # PK-51: the top card
        if state.phase == OVER:  # PK-52
            for hand in state.hands:
                seen.update(hand)
        elif seat is not None:  # PK-50
            seen.update(state.hands[seat])
        return seen

    # -- validation, one method per action ---------------------------------------
    def _play(self, st: PikaState, seat: int, action: JSON) -> moves.Step:
        card = action.get("card")
        if type(card) is not str or card not in CARD_CODES:
            raise IllegalAction("bad_action", f"{card!r} is not a Pika card.")
        if card in BLACK:
            colour = _colour_arg(action)
            if colour is None:  # PK-22, PK-41: the colour is part of the play
                raise IllegalAction("bad_action", f"{card} needs a colour: R, Y, G or B.")
        elif action.get("colour") is not None or action.get("color") is not None:
            raise IllegalAction("bad_action", "Only black cards take a colour.")
        else:
            colour = card[0]
        if st.phase or seat != st.turn:
            _check_turn(st, seat)  # so AFTER_DRAW from here on
            if card != st.drawn:  # PK-15: only the drawn card
                raise IllegalAction("illegal_card", f"After drawing only {st.drawn} may be played.")
        elif card not in (CHAINABLE[st.match] if st.stack else PLAYABLE[st.match]):
            if card not in st.hands[seat]:
                raise IllegalAction("illegal_card", f"{card} is not in your hand.")
            if st.stack:  # PK-11, PK-24 - PK-27, PK-31
                raise IllegalAction("illegal_card", f"{card} cannot be chained on this stack.")
            raise IllegalAction("illegal_card", f"{card} matches neither colour nor value.")  # PK-8 - PK-10
        try:
            return moves.play(st, seat, card, colour)
        except ValueError:  # hand.index: the card is not in the hand
            raise IllegalAction("illegal_card", f"{card} is not in your hand.") from None

    def _draw(self, st: PikaState, seat: int, action: JSON) -> moves.Step:
        _check_turn(st, seat)
        if st.phase == AFTER_DRAW:
            raise IllegalAction("wrong_phase", "Play the drawn card or keep it.")
        if st.stack:
            raise IllegalAction("stack_pending", "Chain a +2/+4 or take the stack.")
        playable = PLAYABLE[st.match]
        for card in st.hands[seat]:
            if card in playable:  # PK-14
                raise IllegalAction("must_play", "You may draw only when you cannot play.")
        return moves.draw(st, seat)

    def _take_stack(self, st: PikaState, seat: int, action: JSON) -> moves.Step:
        _check_turn(st, seat)
        if not st.stack:
            raise IllegalAction("no_stack", "There is no stack to take.")
        chainable = CHAINABLE[st.match]
        for card in st.hands[seat]:
            if card in chainable:  # PK-29
                raise IllegalAction("must_chain", "You hold a card that chains; you must play it.")
        return moves.take_stack(st, seat)

    def _keep(self, st: PikaState, seat: int, action: JSON) -> moves.Step:
        _check_turn(st, seat)
        if st.phase != AFTER_DRAW:
            raise IllegalAction("wrong_phase", "There is no drawn card to keep.")
        return moves.keep(st, seat)

    def _call_pika(self, st: PikaState, seat: int, action: JSON) -> moves.Step:
        if st.phase == OVER:
            raise IllegalAction("game_over", "The round is over.")
        if not st.pika[seat]:  # PK-36: no pre-call, and none after the countdown
            raise IllegalAction("no_countdown", "Pika can be called only during your countdown.")
        return moves.call_pika(st, seat)

    def _timeout(self, st: PikaState, seat: int, action: JSON) -> moves.Step:
        timer = action.get("timer")
        if type(timer) is not str or timer not in TIMER_NAMES:
            raise IllegalAction("bad_action", f"Unknown timer {timer!r}.")
        if st.phase == OVER:
            raise IllegalAction("game_over", "The round is over.")
        if timer == "pika":
            if not st.pika[seat]:
                raise IllegalAction("bad_timer", f"Seat {seat} has no Pika countdown running.")
            return moves.pika_penalty(st, seat)
        if st.turn_seconds is None or seat != st.turn:
            raise IllegalAction("bad_timer", f"No turn timer runs for seat {seat}.")
        return moves.auto_turn(st, seat)

    def _reorder(self, st: PikaState, seat: int, action: JSON) -> moves.Step:
        """PK-46: the owner's new order of the same cards, at any time while the round runs."""
        if st.phase == OVER:
            raise IllegalAction("game_over", "The round is over.")
        order = action.get("order")
        if order is None:
            order = action.get("permutation")  # the name in the rules' interface table (PK-56)
        hand = st.hands[seat]
        if type(order) is not list or len(order) != len(hand):
            raise IllegalAction("bad_action", "order must list every card of your hand once.")
        if all(type(c) is str for c in order):
            if sorted(order) != sorted(hand):
                raise IllegalAction("bad_action", "order must hold exactly the cards of your hand.")
            new = tuple(order)
        elif all(type(i) is int for i in order):  # also accepted: hand positions
            if sorted(order) != list(range(len(hand))):
                raise IllegalAction("bad_action", "positions must be a permutation of your hand.")
            new = tuple(hand[i] for i in order)
        else:
            raise IllegalAction("bad_action", "order holds card codes or hand positions.")
        return moves.reorder(st, seat, new)


_HANDLERS: dict[str, Callable[[PikaEngine, PikaState, int, JSON], moves.Step]] = {
    "play": PikaEngine._play,
    "draw": PikaEngine._draw,
    "keep": PikaEngine._keep,
    "take_stack": PikaEngine._take_stack,
    "call_pika": PikaEngine._call_pika,
    "reorder": PikaEngine._reorder,
    "timeout": PikaEngine._timeout,
}


# -- pure helpers --------------------------------------------------------------
def _play_actions(out: list[JSON], card: str) -> None:
    """The PLAY actions of one card code; black cards once per colour (PK-22)."""
    if card in BLACK:
        for colour in COLOURS:
            out.append({"type": "play", "card": card, "colour": colour})
    else:
        out.append({"type": "play", "card": card})


def _colour_arg(action: JSON) -> str | None:
    """The chosen colour: the rules' ``colour``; ``color`` is accepted as an alias."""
    colour = action.get("colour")
    alias = action.get("color")
    if alias is not None:
        if colour is not None and colour != alias:
            raise IllegalAction("bad_action", "colour and color disagree.")
        colour = alias
    if colour is not None and (type(colour) is not str or colour not in COLOURS):
        raise IllegalAction("bad_action", f"{colour!r} is not a colour: R, Y, G or B.")
    return colour


def _check_turn(st: PikaState, seat: int) -> None:
    if st.phase == OVER:
        raise IllegalAction("game_over", "The round is over.")
    if seat != st.turn:
        raise IllegalAction("not_your_turn", f"It is seat {st.turn}'s turn.")


def _shuffled_deck(rng: random.Random) -> list[str]:
    """A uniformly shuffled deck, sorting by random 64-bit keys.

    The same distribution as ``rng.shuffle`` (a tie among 108 keys has
    probability below 1e-15) at under half its cost: one C call makes every key,
    where ``shuffle`` calls ``randbelow`` 107 times in Python. A playout is ~70
    actions, so the deal is a visible part of the engine's speed.
    """
    keys = array("Q", rng.randbytes(8 * len(DECK)))
    return [DECK[i] for i in sorted(range(len(DECK)), key=keys.__getitem__)]


def _deck_option(deck: Any) -> list[str] | None:
    """options["deck"]: top card first, any ordered part of the real deck (PK-3)."""
    if deck is None:
        return None
    if not isinstance(deck, list) or not all(isinstance(c, str) and c in CARD_CODES for c in deck):
        raise ValueError("options['deck'] must be a list of Pika card codes")
    extra = Counter(deck) - DECK_COUNTS
    if extra:
        raise ValueError(f"options['deck'] has more copies than the deck holds: {dict(extra)}")
    return list(deck)


def _hand_sizes(size: Any, n: int) -> list[int]:
    """options["hand_size"] (tests): one size for every seat, or a list of one size per seat."""
    sizes = size if isinstance(size, list) else [size] * n
    if len(sizes) != n or any(isinstance(k, bool) or not isinstance(k, int) or k < 0 for k in sizes):
        raise ValueError("hand_size must be a non-negative int or a list of one per seat")
    return list(sizes)
