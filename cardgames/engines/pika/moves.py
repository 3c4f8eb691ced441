"""Pika state transitions, for actions the engine has already validated.

Each public function takes a state it must not change and returns ``(new
state, events)``. The helpers whose name ends in ``_into`` work on a fresh copy
that the caller owns. Events are public: they never name a drawn card (PK-52).
"""

from __future__ import annotations

from ..base import JSON, placements_from_scores, rng_for
from .cards import BLACK, CHAINABLE, COLOUR_BIT, DRAW_AMOUNT, PLAYABLE, REVERSE, SKIP, VALUE, most_held_colour
from .state import AFTER_DRAW, OVER, TURN, PikaState

Events = list[JSON]
Step = tuple[PikaState, Events]


def play(st: PikaState, seat: int, card: str, colour: str) -> Step:
    """PK-57, in its order: hand, discard, colour, effect, going out, Pika countdown, turn.

    ``colour`` is the chosen colour for a black card and the card's own colour
    otherwise. Raises ValueError if the card is not in the hand.
    """
    hand = st.hands[seat]
    i = hand.index(card)
    ns = st.copy()
    hand = hand[:i] + hand[i + 1 :]
    hands = list(st.hands)
    hands[seat] = hand
    ns.hands = tuple(hands)
    ns.discard = st.discard + (card,)  # noqa: RUF005 (concatenation is the faster form)
    value = VALUE[card]
    ns.match = colour + value  # PK-12
    ns.blocked = 0  # PK-42: a card was played
    ns.phase = TURN
    ns.drawn = None
    event: JSON = {"type": "play", "seat": seat, "card": card}
    if card in BLACK:
        event["colour"] = colour
    elif st.drew_on[seat] & COLOUR_BIT[colour]:  # the seat shows the colour it lacked once
        drew_on = list(st.drew_on)
        drew_on[seat] &= ~COLOUR_BIT[colour]
        ns.drew_on = tuple(drew_on)
    events = [event]
    n = len(hands)
    step = st.direction
    amount = DRAW_AMOUNT.get(card)
    if amount:  # PK-22, PK-23: the next player owes the stack
        ns.stack = st.stack + amount
    elif value == SKIP:  # PK-20: with 2 players the same seat plays again
        step = 2 * step
    elif value == REVERSE:  # PK-21: with 2 players it acts as a Skip
        step = ns.direction = -step
        if n == 2:
            step = 0
    left = len(hand)
    if left == 0 and not amount:  # PK-38, PK-41: any other last card ends the round
        return _end_into(ns, events)
    if left == 1:  # PK-32, PK-33, PK-35: every play down to one card (re)starts the countdown
        ns.pserial = st.pserial + 1
        _set_pika_into(ns, seat, ns.pserial)
    elif st.pika[seat]:  # PK-35: the hand size changed
        _set_pika_into(ns, seat, 0)
    ns.turn = (seat + step) % n
    ns.tserial = st.tserial + 1
    return ns, events


def draw(st: PikaState, seat: int) -> Step:
    """PK-13, PK-15, PK-18: draw one; keep the turn only if the card can be played."""
    ns = st.copy()
    # PK-51: everybody sees that the seat had nothing to play on this colour
    drew_on = list(st.drew_on)
    drew_on[seat] |= COLOUR_BIT[st.match[0]]
    ns.drew_on = tuple(drew_on)
    events: Events = []
    got = _take_cards_into(ns, seat, 1, events)
    events.insert(0, {"type": "draw", "seat": seat, "count": len(got)})
    if not got:  # PK-18: a blocked pass
        return _blocked_pass_into(ns, seat, events)
    ns.blocked = 0
    if got[0] in PLAYABLE[ns.match]:  # PK-15, PK-48: same turn, same timer
        ns.phase = AFTER_DRAW
        ns.drawn = got[0]
        return ns, events
    return _next_turn_into(ns, seat, events)


def take_stack(st: PikaState, seat: int) -> Step:
    """PK-28, PK-30, PK-39 - PK-41: take it all, end the turn, maybe end the round."""
    ns = st.copy()
    ns.stack = 0  # PK-30: the top +2/+4 is an ordinary card from now on
    events: Events = []
    got = _take_cards_into(ns, seat, st.stack, events)
    events.insert(0, {"type": "take_stack", "seat": seat, "count": len(got), "stack": st.stack})
    if not all(ns.hands):  # PK-41: somebody is out once a stack is taken
        return _end_into(ns, events)
    if not got:  # PK-42: taking nothing is a blocked pass
        return _blocked_pass_into(ns, seat, events)
    ns.blocked = 0
    return _next_turn_into(ns, seat, events)


def keep(st: PikaState, seat: int) -> Step:
    """PK-16: keep the playable drawn card; the turn passes."""
    ns = st.copy()
    ns.phase = TURN
    ns.drawn = None
    return _next_turn_into(ns, seat, [{"type": "keep", "seat": seat}])


def call_pika(st: PikaState, seat: int) -> Step:
    """PK-32: the call in time stops the countdown without penalty."""
    ns = st.copy()
    _set_pika_into(ns, seat, 0)
    return ns, [{"type": "call_pika", "seat": seat}]


def pika_penalty(st: PikaState, seat: int) -> Step:
    """PK-32, PK-34, PK-37: two cards, automatically; whose turn it is does not change."""
    ns = st.copy()
    _set_pika_into(ns, seat, 0)
    events: Events = []
    got = _take_cards_into(ns, seat, 2, events)
    events.insert(0, {"type": "pika_penalty", "seat": seat, "count": len(got)})
    if got:
        ns.blocked = 0  # PK-42: penalty draws are drawn cards too
    return ns, events


def auto_turn(st: PikaState, seat: int) -> Step:
    """PK-49: chain / play the first legal card in hand order, else take / draw and keep."""
    events: Events = [{"type": "timeout", "timer": "turn", "seat": seat}]
    if st.phase == AFTER_DRAW:
        ns, more = keep(st, seat)
        return ns, events + more
    hand = st.hands[seat]
    ok = CHAINABLE[st.match] if st.stack else PLAYABLE[st.match]
    for card in hand:
        if card in ok:
            colour = most_held_colour(hand) if card in BLACK else card[0]
            ns, more = play(st, seat, card, colour)
            return ns, events + more
    if st.stack:
        ns, more = take_stack(st, seat)
        return ns, events + more
    ns, more = draw(st, seat)
    if ns.phase == AFTER_DRAW:  # the drawn card is kept, not played
        ns, kept = keep(ns, seat)
        more += kept
    return ns, events + more


def reorder(st: PikaState, seat: int, hand: tuple[str, ...]) -> Step:
    """PK-46: the same cards in the owner's new order; nothing else changes."""
    ns = st.copy()
    hands = list(st.hands)
    hands[seat] = hand
    ns.hands = tuple(hands)
    return ns, [{"type": "reorder", "seat": seat}]


def result(st: PikaState) -> JSON:
    """PK-43: places by cards left, fewest first, competition ranking; scores are the counts."""
    scores = [len(hand) for hand in st.hands]
    places = placements_from_scores(scores)
    return {
        "placements": places,
        "winners": [seat for seat, place in enumerate(places) if place == 1],
        "scores": scores,
    }


# -- steps on a fresh copy ---------------------------------------------------------
def _set_pika_into(ns: PikaState, seat: int, serial: int) -> None:
    pika = list(ns.pika)
    pika[seat] = serial
    ns.pika = tuple(pika)


def _next_turn_into(ns: PikaState, seat: int, events: Events) -> Step:
    ns.turn = (seat + ns.direction) % len(ns.hands)
    ns.tserial += 1
    return ns, events


def _blocked_pass_into(ns: PikaState, seat: int, events: Events) -> Step:
    """PK-18, PK-42: a full lap of consecutive blocked passes closes the round."""
    ns.blocked += 1
    if ns.blocked >= len(ns.hands):
        return _end_into(ns, events)
    return _next_turn_into(ns, seat, events)


def _end_into(ns: PikaState, events: Events) -> Step:
    ns.phase = OVER
    ns.drawn = None
    ns.pika = (0,) * len(ns.hands)  # no countdown outlives the round
    events.append({"type": "round_over", **result(ns)})
    return ns, events


def _take_cards_into(ns: PikaState, seat: int, count: int, events: Events) -> tuple[str, ...]:
    """Move up to ``count`` stock cards to the end of ``seat``'s hand, one at a time (PK-19)."""
    got: tuple[str, ...] = ()
    while count:
        stock, sp = ns.stock, ns.sp
        avail = len(stock) - sp
        if not avail:
            if len(ns.discard) < 2:
                break  # PK-18, PK-19: nothing left anywhere; the shortfall is forgiven
            # PK-17: the discard under the card in play becomes the new stock; the card in
            # play, the active colour and any pending stack stay as they are
            pile = list(ns.discard[:-1])
            rng_for(ns.seed, ns.rngc).shuffle(pile)
            ns.rngc += 1
            ns.stock = stock = tuple(pile)
            ns.sp = sp = 0
            ns.discard = ns.discard[-1:]
            avail = len(pile)
            events.append({"type": "reshuffle", "count": avail})
        take = min(count, avail)
        got += stock[sp : sp + take]
        ns.sp = sp + take
        count -= take
    if got:
        hands = list(ns.hands)
        hands[seat] = hands[seat] + got  # PK-46: new cards go to the right end
        ns.hands = tuple(hands)
        if ns.pika[seat]:  # PK-35: a hand that grows ends its countdown
            _set_pika_into(ns, seat, 0)
    return got
