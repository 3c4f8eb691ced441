"""Pika state transitions, for actions the engine has already validated.

Each public function takes a state it must not change and returns ``(new
state, events)``. The helpers whose name ends in ``_into`` work on a fresh copy
that the caller owns. Events are public: they never name a drawn card (PK-52).
"""

from __future__ import annotations

from ..base import JSON, ReadOnlyAction, placements_from_scores, rng_for
from .cards import (
    BLACK,
    CARD_CODES,
    COLOUR_BIT,
    COLOURS,
    DRAW_AMOUNT,
    PLAYABLE,
    VALUE,
)
from .state import AFTER_DRAW, OVER, TURN, PikaState, discard_cards

Events = list[JSON]
Step = tuple[PikaState, Events]


class Play(ReadOnlyAction):
    """A listed ``{"type": "play", "card"[, "colour"]}`` and what a play of it needs to know.

    ``apply`` plays a listed play inline once the turn, the phase and the card are right (and
    ``_play`` and the turn timer's automatic play hand it the listed play once they have
    checked theirs): the new match key, the stack it adds, its effect on the turn and its events
    (per seat, shared read-only) are worked out here once.
    """

    __slots__ = ("amount", "card", "cbit", "colour", "effect", "events", "key")

    card: str
    colour: str  # the chosen colour of a black card, else the card's own
    key: str  # the match key the play leaves (PK-12)
    amount: int  # what it adds to the stack (PK-22, PK-23), 0 for none
    effect: str  # the card's value: SKIP and REVERSE act on the turn
    cbit: int  # the colour's bit for drew_on, 0 for a black card
    events: tuple[JSON, ...]


def _make_play(card: str, colour: str | None) -> Play:
    act = Play(type="play", card=card) if colour is None else Play(type="play", card=card, colour=colour)
    act.card = card
    act.colour = own = card[0] if colour is None else colour
    act.key = own + VALUE[card]
    act.amount = DRAW_AMOUNT.get(card, 0)
    act.effect = VALUE[card]
    act.cbit = 0 if card in BLACK else COLOUR_BIT[own]
    act.events = tuple(
        ReadOnlyAction(type="play", seat=seat, card=card)
        if colour is None
        else ReadOnlyAction(type="play", seat=seat, card=card, colour=colour)
        for seat in range(4)
    )
    return act


#: card code -> its listed plays, a black card once per colour (PK-22)
PLAYS: dict[str, tuple[Play, ...]] = {
    card: tuple(_make_play(card, colour) for colour in COLOURS)
    if card in BLACK
    else (_make_play(card, None),)
    for card in sorted(CARD_CODES)
}
#: (card, chosen colour) -> the listed play of a black card
BLACK_PLAYS: dict[tuple[str, str], Play] = {(act.card, act.colour): act for c in BLACK for act in PLAYS[c]}


def draw(st: PikaState, seat: int) -> Step:
    """PK-13, PK-15, PK-17, PK-18: draw one (reshuffling first if the stock is empty); keep the turn
    only if the card can be played.

    ``apply`` draws inline from a stock that is not empty (every checked draw goes through it);
    it calls this for an empty one: a reshuffle first, or nothing left (a blocked pass).
    """
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
        return end_into(ns, events)
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
        return end_into(ns, events)
    return _next_turn_into(ns, seat, events)


def end_into(ns: PikaState, events: Events) -> Step:
    ns.phase = OVER
    ns.drawn = None
    ns.pika = (0,) * len(ns.hands)  # no countdown outlives the round
    events.append({"type": "round_over", **result(ns)})
    return ns, events


def _take_cards_into(ns: PikaState, seat: int, count: int, events: Events) -> tuple[str, ...]:
    """Move up to ``count`` stock cards to the end of ``seat``'s hand, one at a time (PK-19)."""
    got: tuple[str, ...] = ()
    stock, sp, rngc = ns.pile
    while count:
        avail = len(stock) - sp
        if not avail:
            top = ns.discard
            if top[2] < 2:
                break  # PK-18, PK-19: nothing left anywhere; the shortfall is forgiven
            # PK-17: the discard under the card in play becomes the new stock; the card in
            # play, the active colour and any pending stack stay as they are
            pile = discard_cards(top[1])
            rng_for(ns.cfg[0], rngc).shuffle(pile)
            rngc += 1
            stock = tuple(pile)
            sp = 0
            ns.discard = (top[0], None, 1)
            avail = len(pile)
            events.append({"type": "reshuffle", "count": avail})
        take = min(count, avail)
        got += stock[sp : sp + take]
        sp += take
        count -= take
    ns.pile = (stock, sp, rngc)
    if got:
        hands = list(ns.hands)
        hands[seat] = hands[seat] + got  # PK-46: new cards go to the right end
        ns.hands = tuple(hands)
        if ns.pika[seat]:  # PK-35: a hand that grows ends its countdown
            _set_pika_into(ns, seat, 0)
    return got
