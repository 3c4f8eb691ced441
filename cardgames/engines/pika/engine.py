"""The Pika engine: the contract, the deal and action validation.

The rules summary is in the package docstring (``__init__.py``); what each
validated action does to the state is in ``moves.py``.
"""

from __future__ import annotations

import random
import struct
from array import array
from collections import Counter
from collections.abc import Callable
from operator import itemgetter
from typing import Any, ClassVar

from ..base import JSON, Engine, IllegalAction, ReadOnlyAction, check_seat, rng_for
from . import moves
from .cards import (
    BLACK,
    CARD_CODES,
    CHAINABLE,
    COLOUR_BIT,
    COLOURS,
    DECK,
    DECK_COUNTS,
    NUMBER_CARDS,
    PLAYABLE,
    REVERSE,
    SKIP,
    most_held_colour,
)
from .moves import BLACK_PLAYS, PLAYS, Play
from .state import (
    AFTER_DRAW,
    OVER,
    PHASE_NAMES,
    TURN,
    PikaState,
    colours_of,
    discard_cards,
    dump_state,
    load_state,
)

HAND_SIZE = 7  # PK-5
PIKA_SECONDS = 5  # PK-33
DEFAULT_TURN_SECONDS = 30  # PK-47
TIMER_NAMES = ("turn", "pika")


class PikaEngine(Engine):
    """Pika Cartas (rules/pika.md): pure and stateless; every method takes the state it reads."""

    __slots__ = ()  # stateless: no instance dict (see ``Engine``)

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
        if pos > len(cards) or NUMBER_CARDS.isdisjoint(stock):
            raise ValueError("the deck leaves no number card for the starter (PK-6)")
        while True:  # PK-6: the first number card; any other goes back at a random place
            starter = stock.pop(0)
            if starter in NUMBER_CARDS:
                break
            stock.insert(rng.randrange(len(stock) + 1), starter)
        st = PikaState()
        st.cfg = (seed, turn_seconds)
        st.hands = tuple(hands)
        st.pile = (tuple(stock), 0, 1)
        st.discard = (starter, None, 1)
        st.match = starter  # a number card is its own match key
        st.stack = 0
        st.direction = 1  # PK-7: ascending seat order
        st.turn = first
        st.phase = TURN
        st.drawn = None
        st.blocked = 0
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
        # no countdown runs: none ever started (serials count from 1; until a player is down to
        # one card, most of a round), or none left
        if not st.pserial or not any(st.pika):
            return [st.turn]
        seats = [seat for seat, serial in enumerate(st.pika) if serial]
        if st.turn not in seats:
            seats.append(st.turn)
        return seats

    def legal_actions(self, state: PikaState, seat: int) -> list[JSON]:
        st = state
        # The listed actions are shared read-only dicts (base.ReadOnlyAction, docs/engines.md).
        out: list[JSON]
        if seat == st.turn and type(seat) is int and not st.phase:  # the common case: a turn to play
            ok = CHAINABLE[st.match] if st.stack else PLAYABLE[st.match]
            out = []
            # one action per code, in hand order (the deck has duplicates); a list, not a set: it
            # holds the few playable codes met so far, and [] costs less to make than set()
            seen: list[str] = []
            for card in st.hands[seat]:
                if card in ok and card not in seen:
                    seen.append(card)
                    out += PLAYS[card]  # a black card once per colour (PK-22)
            if not out:  # PK-14, PK-29: drawing / taking only without a legal play
                out = [_TAKE_STACK if st.stack else _DRAW]
            if st.pika[seat]:  # PK-36: only while the countdown runs
                out.insert(0, _CALL_PIKA)
            return out
        if st.phase == OVER or type(seat) is not int or not 0 <= seat < len(st.hands):
            return []
        out = [_CALL_PIKA] if st.pika[seat] else []
        if seat == st.turn:  # so AFTER_DRAW: PK-15, PK-16
            out += PLAYS[st.drawn]  # type: ignore[index]
            out.append(_KEEP)
        return out

    def apply(self, state: PikaState, seat: int, action: JSON) -> tuple[PikaState, list[JSON]]:
        st = state
        if type(seat) is int and seat == st.turn:  # the turn player: a seat, no range check needed
            if type(action) is Play:  # a listed play: checked here and played inline (PK-57)
                card = action.card
                if st.phase:  # PK-15: after a draw only the drawn card (playable, or it was kept)
                    if st.phase != AFTER_DRAW or card != st.drawn:
                        return self._play(st, seat, action)  # refused with _play's code
                elif card not in (CHAINABLE[st.match] if st.stack else PLAYABLE[st.match]):
                    return self._play(st, seat, action)  # refused with _play's code
                hand = st.hands[seat]
                try:  # one scan of the hand ("in" and then "index" were two)
                    i = hand.index(card)
                except ValueError:
                    return self._play(st, seat, action)  # not in the hand: refused by _play
                # PK-57, in its order: hand, discard, colour, effect, going out, Pika countdown,
                # turn. Every play takes this path: _play and the turn timer's automatic play
                # (PK-49) come back here with the listed play once they have checked it.
                ns = PikaState()  # built field by field: no copy to overwrite
                ns.cfg = st.cfg
                ns.pile = st.pile
                rest = hand[:i] + hand[i + 1 :]
                hands = [*st.hands]  # (a display: cheaper than a call of list)
                hands[seat] = rest
                ns.hands = tuple(hands)
                below = st.discard
                ns.discard = (card, below, below[2] + 1)  # one cell pushed, nothing copied
                ns.match = action.key  # PK-12
                ns.blocked = 0  # PK-42: a card was played
                ns.phase = TURN
                ns.drawn = None
                drew_on = st.drew_on
                cbit = action.cbit
                if drew_on[seat] & cbit:  # the seat shows the colour it lacked once
                    lacking = [*drew_on]
                    lacking[seat] &= ~cbit
                    drew_on = tuple(lacking)
                ns.drew_on = drew_on
                events = [action.events[seat]]
                n = len(hands)
                step = direction = st.direction
                amount = action.amount
                if amount:  # PK-22, PK-23: the next player owes the stack
                    ns.stack = st.stack + amount
                else:
                    ns.stack = st.stack
                    effect = action.effect
                    if effect == SKIP:  # PK-20: with 2 players the same seat plays again
                        step = 2 * step
                    elif effect == REVERSE:  # PK-21: with 2 players it acts as a Skip
                        step = direction = -step
                        if n == 2:
                            step = 0
                ns.direction = direction
                pika = st.pika
                left = len(rest)
                if left == 0 and not amount:  # PK-38, PK-41: any other last card ends the round
                    ns.turn = st.turn
                    ns.tserial = st.tserial
                    ns.pserial = st.pserial
                    ns.pika = pika
                    return moves.end_into(ns, events)
                if left == 1:  # PK-32, PK-33, PK-35: a play down to one card (re)starts the countdown
                    ns.pserial = serial = st.pserial + 1
                    ns.pika = (*pika[:seat], serial, *pika[seat + 1 :])
                else:
                    ns.pserial = st.pserial
                    # PK-35: the size changed
                    ns.pika = (*pika[:seat], 0, *pika[seat + 1 :]) if pika[seat] else pika
                ns.turn = (seat + step) % n
                ns.tserial = st.tserial + 1
                return ns, events
            if action is _DRAW:  # allowed in the turn phase, with no stack and nothing to play (PK-14)
                if st.phase or st.stack or not PLAYABLE[st.match].isdisjoint(st.hands[seat]):
                    return self._draw(st, seat, action)  # refused with _draw's code
                stock, sp, rngc = st.pile
                if sp == len(stock):  # PK-17, PK-18: a reshuffle first, or nothing left to draw
                    return moves.draw(st, seat)
                # PK-13: one card from the stock, inline (_draw and the turn timer's automatic
                # draw come back here once they have checked theirs); built field by field
                card = stock[sp]
                ns = PikaState()
                ns.cfg = st.cfg
                ns.pile = (stock, sp + 1, rngc)
                hands = [*st.hands]
                hands[seat] += (card,)  # PK-46: new cards go to the right end
                ns.hands = tuple(hands)
                ns.discard = st.discard
                match = ns.match = st.match
                ns.stack = 0
                ns.direction = st.direction
                ns.blocked = 0
                ns.pserial = st.pserial
                pika = st.pika
                ns.pika = (*pika[:seat], 0, *pika[seat + 1 :]) if pika[seat] else pika  # PK-35: the hand grew
                # PK-51: everybody sees that the seat had nothing to play on this colour
                known = st.drew_on
                cbit = COLOUR_BIT[match[0]]
                if not known[seat] & cbit:  # often known already: a seat draws again on the same colour
                    lacking = [*known]
                    lacking[seat] |= cbit
                    known = tuple(lacking)
                ns.drew_on = known
                if card in PLAYABLE[match]:  # PK-15, PK-48: same turn, same timer
                    ns.phase = AFTER_DRAW
                    ns.drawn = card
                    ns.turn = st.turn
                    ns.tserial = st.tserial
                else:
                    ns.phase = TURN
                    ns.drawn = None
                    ns.turn = (seat + st.direction) % len(hands)
                    ns.tserial = st.tserial + 1
                return ns, [_DRAW_EVENTS[seat]]
        elif type(seat) is not int or not 0 <= seat < len(st.hands):
            seat = check_seat(len(st.hands), seat)  # raises bad_seat (also for bools and floats)
        if type(action) is Play:
            return self._play(st, seat, action)
        # the other listed actions by identity, without reading their "type"
        if action is _DRAW:
            return self._draw(st, seat, action)
        if action is _TAKE_STACK:
            return self._take_stack(st, seat, action)
        if action is _CALL_PIKA:
            return self._call_pika(st, seat, action)
        if action is _KEEP:
            return self._keep(st, seat, action)
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
            "top": st.discard[0],
            "colour": st.match[0],
            "stack": st.stack,
            "hand": hand,  # PK-50: own hand in own order
            "drawn_pos": drawn_pos,  # PK-15: which own card waits for PLAY or KEEP
            "hand_counts": [len(h) for h in st.hands],  # PK-51
            "stock_count": len(st.pile[0]) - st.pile[1],
            "discard_count": st.discard[2],
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
        seconds = st.cfg[1]
        if seconds is not None:  # PK-47, PK-48: one id per turn, kept through AFTER_DRAW
            out.append({"id": f"turn:{st.tserial}", "name": "turn", "seat": st.turn, "seconds": seconds})
        return out

    def is_over(self, state: PikaState) -> bool:
        return state.phase == OVER

    def result(self, state: PikaState) -> JSON:
        if state.phase != OVER:
            raise IllegalAction("not_over", "The round is still being played.")
        return moves.result(state)

    def dump(self, state: PikaState) -> JSON:
        return self.with_format(dump_state(state))

    def load(self, data: JSON) -> PikaState:
        self.dump_format(data)  # formats 0 and 1 hold the same fields
        return load_state(data)

    # -- test hooks -------------------------------------------------------------
    def all_cards(self, state: PikaState) -> Counter[str]:
        found: Counter[str] = Counter(state.stock_left())
        found.update(discard_cards(state.discard))
        for hand in state.hands:
            found.update(hand)
        return found

    def visible_cards(self, state: PikaState, seat: int | None) -> Counter[str]:
        seen: Counter[str] = Counter((state.discard[0],))  # PK-51: the top card
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
        if card not in st.hands[seat]:
            raise IllegalAction("illegal_card", f"{card} is not in your hand.")
        # checked: apply plays it (seat is the turn's, as an exact int so apply takes its turn path)
        return self.apply(st, int(seat), BLACK_PLAYS[card, colour] if card in BLACK else PLAYS[card][0])

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
        return self.apply(st, int(seat), _DRAW)  # checked: apply draws it (on its turn path)

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
        if st.cfg[1] is None or seat != st.turn:
            raise IllegalAction("bad_timer", f"No turn timer runs for seat {seat}.")
        return self._auto_turn(st, seat)

    def _auto_turn(self, st: PikaState, seat: int) -> moves.Step:
        """PK-49: chain / play the first legal card in hand order, else take / draw and keep.

        The play and the draw go through ``apply`` (its checks pass: it is this seat's turn and
        the action is legal), so that their effects are written once.
        """
        events: list[JSON] = [{"type": "timeout", "timer": "turn", "seat": seat}]
        if st.phase == AFTER_DRAW:
            ns, more = moves.keep(st, seat)
            return ns, events + more
        hand = st.hands[seat]
        ok = CHAINABLE[st.match] if st.stack else PLAYABLE[st.match]
        for card in hand:
            if card in ok:
                act = BLACK_PLAYS[card, most_held_colour(hand)] if card in BLACK else PLAYS[card][0]
                ns, more = self.apply(st, int(seat), act)
                return ns, events + more
        if st.stack:
            ns, more = moves.take_stack(st, seat)
            return ns, events + more
        ns, more = self.apply(st, int(seat), _DRAW)
        if ns.phase == AFTER_DRAW:  # the drawn card is kept, not played
            ns, kept = moves.keep(ns, seat)
            more += kept
        return ns, events + more

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
# The legal actions, built once and handed to every caller read-only (a dict per action and
# call was a third of legal_actions; docs/engines.md says listed actions may be shared).
_CALL_PIKA: JSON = ReadOnlyAction(type="call_pika")
_KEEP: JSON = ReadOnlyAction(type="keep")
_DRAW: JSON = ReadOnlyAction(type="draw")
_TAKE_STACK: JSON = ReadOnlyAction(type="take_stack")
#: per seat, the event of a draw of one card (shared read-only)
_DRAW_EVENTS: tuple[JSON, ...] = tuple(ReadOnlyAction(type="draw", seat=seat, count=1) for seat in range(4))


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
    """A uniformly shuffled deck: the deck's cards ordered by random 64-bit keys.

    The same distribution as ``rng.shuffle`` (a tie among 108 keys has probability below 1e-15)
    at under half its cost: one C call makes every key, where ``shuffle`` calls ``randbelow`` 107
    times in Python. Card i's key is the i-th 64-bit word (little-endian) of
    ``rng.getrandbits(64 * 108)`` (what ``rng.randbytes(8 * 108)`` returns as bytes), and the order
    is a stable argsort of the keys: by key, equal keys by card position. A playout is ~70
    actions, so the deal is a visible part of the engine's speed.
    """
    x = rng.getrandbits(64 * _DECK_SIZE)
    # Sorting 108 ints of 64 bits (three digits each, compared in general) or argsorting them with
    # a key function is dear; sorting floats is not. Each card becomes a double in [1, 2) whose
    # mantissa holds its key's top 44 bits above its position (a byte): big-int operations lay out
    # all 108 at once, and their order is (top 44 bits, position).
    doubles = array(
        "d", (((x >> 12) & _TOP44) | _ONE_AND_POSITION).to_bytes(8 * _DECK_SIZE, "little")
    ).tolist()
    doubles.sort()
    packed = _PACK_DOUBLES(*doubles)
    # That order is the keys' own unless two keys share their top 44 bits (probability about
    # 3e-10): then neighbours in it have equal bits 8-62. XOR of each neighbour pair with those
    # bits kept (the last lane keeps its own exponent: never zero); a lane that is zero borrows
    # into its top bit (always 0 otherwise) when 1 is taken from every lane.
    v = int.from_bytes(packed, "little")
    if not ((((v >> 64) ^ v) & _ABOVE_POSITION) - _LANE_ONES) & _LANE_TOPS:
        return list(itemgetter(*packed[::8])(DECK))  # byte 0 of each double: the card's position
    keys = array("Q", x.to_bytes(8 * _DECK_SIZE, "little")).tolist()  # shared top bits: the exact argsort
    return list(itemgetter(*sorted(range(_DECK_SIZE), key=keys.__getitem__))(DECK))


# _shuffled_deck's constants: 64-bit lanes, one a card, little-endian, over the whole deck
_DECK_SIZE = len(DECK)  # < 256: a position fits in a byte
_LANES = range(0, 64 * _DECK_SIZE, 64)
_TOP44 = sum(((1 << 44) - 1) << (lane + 8) for lane in _LANES)  # a key's bits 20-63, at bits 8-51
#: 1.0's exponent at bits 52-62 and the card's position at bits 0-7
_ONE_AND_POSITION = sum((0x3FF << (lane + 52)) | (i << lane) for i, lane in enumerate(_LANES))
_ABOVE_POSITION = sum((((1 << 63) - 1) >> 8 << 8) << lane for lane in _LANES)  # bits 8-62
_LANE_ONES = sum(1 << lane for lane in _LANES)
_LANE_TOPS = sum(1 << (lane + 63) for lane in _LANES)
_PACK_DOUBLES = struct.Struct(f"<{_DECK_SIZE}d").pack


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
    if type(size) is int and size >= 0:  # the common case (an int, so not a bool): no checks left
        return [size] * n
    sizes = size if isinstance(size, list) else [size] * n
    if len(sizes) != n or any(isinstance(k, bool) or not isinstance(k, int) or k < 0 for k in sizes):
        raise ValueError("hand_size must be a non-negative int or a list of one per seat")
    return list(sizes)
