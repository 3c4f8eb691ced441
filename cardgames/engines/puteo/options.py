"""El Puteo options (see the package docstring): validation and defaults, PT-2–PT-5, PT-50–PT-53."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..base import JSON, IllegalAction
from .cards import CARD_CODES, CARDS_PER_ROUND, CODE_TO_ID, ROUNDS
from .state import Config

CLASSIC_MAX = 8  # PT-2
BIG_MAX = 12  # PT-3
DEFAULT_TURN_SECONDS = 30  # PT-40


def parse_options(
    num_players: Any, seed: Any, options: JSON | None
) -> tuple[Config, int, tuple[int, ...], int]:
    """(config, start round, lives per seat, first dealer) or IllegalAction("bad_options", …)."""
    opts = dict(options or {})
    n = num_players
    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= BIG_MAX:
        raise IllegalAction("bad_players", f"El Puteo seats 2 to {BIG_MAX} players, not {n!r}.")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise IllegalAction("bad_options", f"seed must be an int or a str, not {seed!r}.")
    mode = opts.get("mode")
    if mode is None:
        mode = "classic" if n <= CLASSIC_MAX else "big"
    if mode not in ("classic", "big"):
        raise IllegalAction("bad_options", f"mode must be 'classic' or 'big', not {mode!r}.")
    if mode == "classic" and n > CLASSIC_MAX:
        raise IllegalAction(
            "too_many_players",
            f"Classic mode seats 2 to {CLASSIC_MAX} players; use mode 'big' for up to {BIG_MAX}.",
        )
    lives = opts.get("lives", 5)
    if lives not in (3, 5) or isinstance(lives, bool):
        raise IllegalAction("bad_options", f"lives must be 5 or 3, not {lives!r}.")
    turn_seconds = opts.get("turn_seconds", DEFAULT_TURN_SECONDS)
    if turn_seconds is not None and (
        isinstance(turn_seconds, bool) or not isinstance(turn_seconds, (int, float)) or turn_seconds <= 0
    ):
        raise IllegalAction("bad_options", f"turn_seconds must be > 0 or None, not {turn_seconds!r}.")
    start_round = opts.get("start_round", 1)
    if isinstance(start_round, bool) or start_round not in range(1, ROUNDS + 1):
        raise IllegalAction("bad_options", f"start_round must be 1..9, not {start_round!r}.")
    start_lives = opts.get("start_lives")
    if start_lives is None:
        lives_t = (lives,) * n
    elif (
        not isinstance(start_lives, (list, tuple))
        or len(start_lives) != n
        or any(isinstance(x, bool) or x not in range(lives + 1) for x in start_lives)
        or sum(1 for x in start_lives if x) < 2
    ):
        raise IllegalAction("bad_options", f"start_lives: 0..{lives} lives for each of {n} seats, two alive.")
    else:
        lives_t = tuple(start_lives)
    deck = _deck_option(opts.get("deck"), mode, n, start_round)
    cfg = Config(n, seed, mode, lives, turn_seconds, deck)
    live = [s for s in range(n) if lives_t[s]]
    dealer = opts.get("first_dealer")
    if dealer is None:
        dealer = live[cfg.round_bits(0) % len(live)]  # PT-15: a uniformly random live seat
    elif isinstance(dealer, bool) or dealer not in live:
        raise IllegalAction("bad_options", f"first_dealer must be a live seat, not {dealer!r}.")
    return cfg, start_round, lives_t, dealer


def _deck_option(deck: Any, mode: str, n: int, start_round: int) -> tuple[int, ...] | None:
    """PT-12 with a fixed order: every round deals again from the top of ``deck``."""
    if deck is None:
        return None
    if not isinstance(deck, (list, tuple)) or any(type(c) is not str or c not in CARD_CODES for c in deck):
        raise IllegalAction("bad_options", "deck must be a list of card codes like '1O', '12E'.")
    cards = tuple(CODE_TO_ID[c] for c in deck)
    copies = 2 if mode == "big" else 1
    if any(count > copies for count in Counter(cards).values()):
        raise IllegalAction("bad_options", f"deck holds a card over {copies} time(s) in {mode} mode.")
    need = n * max(CARDS_PER_ROUND[start_round:])
    if len(cards) < need:
        raise IllegalAction("bad_options", f"deck needs at least {need} cards for {n} players.")
    return cards
