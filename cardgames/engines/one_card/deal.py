"""Setting up a One Card game: options, the deal (OC-6), the starter (OC-7, OC-8), the first player (OC-9)."""

from __future__ import annotations

from itertools import repeat, starmap
from operator import itemgetter
from typing import Any

from ..base import JSON, IllegalAction, rng_for
from .actions import BIT, situation
from .cards import CARD_CODES, DECK, HAND_SIZE, NORMAL_RANKS, TURN_SECONDS
from .state import State, twos_of


def deal(num_players: int, seed: int | str = 0, options: JSON | None = None) -> State:
    """A new game; see the package docstring for the options."""
    opts = dict(options or {})
    if isinstance(num_players, bool) or not isinstance(num_players, int):
        raise IllegalAction("bad_option", "num_players must be an integer")
    if not 2 <= num_players <= 4:
        raise IllegalAction("bad_option", f"One Card takes 2 to 4 players (OC-1), not {num_players}")
    hand_size = opts.get("hand_size", HAND_SIZE)
    if isinstance(hand_size, bool) or not isinstance(hand_size, int) or not 1 <= hand_size <= 13:
        raise IllegalAction("bad_option", "hand_size must be an integer from 1 to 13")
    turn_seconds = opts.get("turn_seconds", TURN_SECONDS)
    if turn_seconds is not None and (
        isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int | float) or turn_seconds <= 0
    ):
        raise IllegalAction("bad_option", "turn_seconds must be a positive number or None")

    # One generator for the whole deal: shuffle, starter reinsertion, first player.
    rng = rng_for(seed, 0)
    if opts.get("deck") is not None:
        deck = _checked_deck(opts["deck"], num_players * hand_size + 1)
    else:
        # Sorting by random keys is a uniform shuffle, and 3x faster than random.shuffle.
        # (the keys drawn in C by starmap; an argsort of the deck's positions keeps ties in deck order)
        keys = list(starmap(rng.random, repeat((), len(DECK))))
        deck = list(itemgetter(*sorted(range(len(DECK)), key=keys.__getitem__))(DECK))
    hands = [deck[i * hand_size : (i + 1) * hand_size] for i in range(num_players)]
    stock = deck[num_players * hand_size :]
    # (the top card usually is one: then the scan of the whole stock is not needed)
    if not stock or (stock[0][0] not in NORMAL_RANKS and not any(c[0] in NORMAL_RANKS for c in stock)):
        raise IllegalAction("bad_option", "the stock holds no normal number card for the starter (OC-7)")
    # OC-8: a special card on top goes back at a uniformly random position until a normal one shows.
    while stock[0][0] not in NORMAL_RANKS:
        card = stock.pop(0)
        stock.insert(rng.randint(0, len(stock)), card)
    top = stock.pop(0)

    first = opts.get("first_player")
    if first is None:
        first = rng.randrange(num_players)
    elif isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < num_players:
        raise IllegalAction("bad_option", "first_player must be a seat number")

    s = State()
    s.n = num_players
    s.cfg = (seed, turn_seconds)
    # a hand's mask is the sum of its cards' bits (each card once), summed in C
    s.hands = tuple([sum(map(BIT.__getitem__, hand)) for hand in hands])
    s.stock = (tuple(stock), 0, 1)
    s.discard = None
    s.sit = situation(top, top[1], 0)  # OC-10: the starter's suit, no attack
    s.direction = 1  # OC-9: ascending seats
    s.turn = first
    s.turn_no = 1
    s.called = 0
    s.win = ((), 0)
    s.idle = 0
    s.lacks = ("",) * num_players
    s.over = False
    s.last = ({"type": "deal", "first": first},)
    s.twos = twos_of(s)
    s.set_busy()
    return s


def _checked_deck(deck: Any, minimum: int) -> list[str]:
    if not isinstance(deck, list | tuple) or not all(isinstance(c, str) and c in CARD_CODES for c in deck):
        raise IllegalAction("bad_option", "deck must be a list of card codes")
    if len(set(deck)) != len(deck):
        raise IllegalAction("bad_option", "deck holds a card twice")
    if len(deck) < minimum:
        raise IllegalAction("bad_option", f"deck needs at least {minimum} cards")
    return list(deck)
