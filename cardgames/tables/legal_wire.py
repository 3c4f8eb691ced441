"""The viewer's legal actions as the envelope carries them (docs/protocol.md, "Guandan's plays").

Pure (no Django): the envelope code calls ``pack`` on the server, offline practice (PF-62) may
call it in the browser's Pyodide, and Python clients (tests, benchmarks) call ``actions``.

The engines list every legal action (design.md, the engine contract); most lists are short, but a
Guandan hand makes thousands of plays (a straight can be made of many suits, a wildcard can stand
anywhere): a seat's snapshot reached 287 KB. So a Guandan envelope's ``legal`` lists every action
but the plays, and ``plays`` names each legal *reading* once (an interpretation, GD-23) instead of
each card set that makes it. A reading stands for every sub-multiset of the viewer's hand
(``view.hand``, at the deal's level ``view.level``) that reads as it (GD-13 … GD-22) — exactly the
plays the engine lists for it (movegen's contract, tests/engines/test_guandan_combos.py), so the
client rebuilds the list from the reading and its own hand: ``unpack_plays`` here, and
``frontend/static/frontend/games/guandan_legal.js`` in the page, both checked against the engine
over many real deals (tests/tables/test_legal_wire.py, tests/browser/test_guandan_legal_browser.py).

``plays`` maps each combination kind with a legal reading to its readings, each the list of the
interpretation's values after ``kind``: ``[rank]``; a bomb ``[rank, size]``; a straight flush
``[rank, suit]``; the joker bomb ``[]``::

    {"single": [["3"], ["7"], ["red_joker"]], "pair": [["7"]], "straight": [["9"]],
     "bomb": [["7", 4]], "straight_flush": [["9", "H"]], "joker_bomb": [[]]}

Unpacked, every play is ``{"type": "play", "cards": [...], "interp": {...}}`` with its cards in the
canonical order (rank 2 … A, within a rank ♠ ♥ ♣ ♦, then BJ, RJ), as the engine lists them; the
order of the plays is the unpacker's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any

from cardgames.engines.guandan.cards import BJ, CODES, INDEX, RANK_INDEX, RANK_NAMES, RJ, SUITS, wild_code
from cardgames.engines.guandan.combos import SEQUENCES, STRAIGHT, window_ranks

JSON = dict[str, Any]
#: the games whose plays travel packed
PACKED = frozenset({"guandan"})
#: cards per rank of the kinds of one rank (a bomb's size is its reading's)
GROUP_SIZES = {"single": 1, "pair": 2, "triple": 3}
#: sequence kinds: (ranks in the window, cards on each rank)
WINDOWS = {"straight": SEQUENCES[STRAIGHT], "tube": (3, 2), "plate": (2, 3)}

Cards = tuple[int, ...]


def pack(game: str, legal: list[JSON]) -> tuple[list[JSON], JSON | None]:
    """``legal`` (the engine's list) as the envelope's ``legal`` and ``plays``: unchanged and None
    for a game whose plays travel whole."""
    if game not in PACKED:
        return legal, None
    listed: list[JSON] = []
    plays: dict[str, list[list[Any]]] = {}
    seen: set[tuple[Any, ...]] = set()
    last: Any = None
    for action in legal:
        if action.get("type") != "play":
            listed.append(action)
            continue
        interp = action["interp"]
        if interp is last:  # the engine shares one interp dict per reading, listed together
            continue
        last = interp
        values = reading_values(interp)
        key = (interp["kind"], *values)
        if key not in seen:
            seen.add(key)
            plays.setdefault(interp["kind"], []).append(values)
    return listed, plays or None


def reading_values(interp: Mapping[str, Any]) -> list[Any]:
    """An interpretation's values after its kind (module docstring)."""
    kind = interp["kind"]
    if kind == "joker_bomb":
        return []
    if kind == "bomb":
        return [interp["rank"], interp["size"]]
    if kind == "straight_flush":
        return [interp["rank"], interp["suit"]]
    return [interp["rank"]]


def reading_interp(kind: str, values: Sequence[Any]) -> JSON:
    """The interpretation of a packed reading (``interp_to_wire``'s dict)."""
    interp: JSON = {"kind": kind}
    if kind == "joker_bomb":
        return interp
    interp["rank"] = values[0]
    if kind == "bomb":
        interp["size"] = values[1]
    elif kind == "straight_flush":
        interp["suit"] = values[1]
    return interp


def actions(envelope: Mapping[str, Any]) -> list[JSON]:
    """Every legal action of an envelope: ``legal``, then its ``plays`` unpacked (a Python client's
    view of what the page gets from ``guandan_legal.js``'s ``unpackLegal``)."""
    listed = list(envelope.get("legal") or [])
    plays = envelope.get("plays")
    view = envelope.get("view") or {}
    if not plays or not isinstance(view, Mapping):
        return listed
    return listed + unpack_plays(plays, view.get("hand") or [], view["level"])


def unpack_plays(plays: Mapping[str, Sequence[Sequence[Any]]], hand: Sequence[str], level: str) -> list[JSON]:
    """Every play of the packed ``plays`` from ``hand`` (card codes) at the deal's ``level``."""
    held = _Held(hand, RANK_INDEX[level])
    out: list[JSON] = []
    for kind, readings in plays.items():
        for values in readings:
            interp = reading_interp(kind, values)
            for cards in held.plays(kind, values):
                codes = [CODES[c] for c in sorted(cards)]
                out.append({"type": "play", "cards": codes, "interp": dict(interp)})
    return out


class _Held:
    """A hand as the unpacking reads it: its counts, its wildcards and its natural cards by rank."""

    def __init__(self, hand: Sequence[str], level: int) -> None:
        self.counts = counts = [0] * len(CODES)
        for code in hand:
            counts[INDEX[code]] += 1
        self.level = level
        self.wc = wc = wild_code(level)
        self.wilds = counts[wc]
        #: rank -> its natural codes held, each as often as held (the wildcards are not naturals)
        self.naturals = [
            [c for c in range(r * 4, r * 4 + 4) if c != wc for _ in range(counts[c])] for r in range(13)
        ]

    def plays(self, kind: str, values: Sequence[Any]) -> list[Cards]:
        """The card sets of one reading (GD-13 … GD-22)."""
        if kind == "joker_bomb":
            return [(BJ, BJ, RJ, RJ)] if self.counts[BJ] == 2 and self.counts[RJ] == 2 else []
        rank = RANK_INDEX[values[0]]
        if kind in GROUP_SIZES or kind == "bomb":
            k = values[1] if kind == "bomb" else GROUP_SIZES[kind]
            if rank > 12:  # a joker single or pair: identical jokers only (GD-14)
                joker = BJ if RANK_NAMES[rank] == "black_joker" else RJ
                return [(joker,) * k] if self.counts[joker] >= k else []
            # a wildcard alone reads as the level rank only (GD-11)
            return list(self.groups(rank, k, all_wild=kind != "bomb" and rank == self.level))
        if kind == "full_house":
            return self.full_houses(rank)
        if kind == "straight_flush":
            return self.straight_flushes(rank, SUITS.index(values[1]))
        length, per = WINDOWS[kind]
        window = window_ranks(rank + 2, length)  # the reading's rank is the top's (ace low: "5")
        options: list[list[Cards]]
        if kind == "straight":  # one card a rank: a natural code of it, or a wildcard
            options = [[*[(c,) for c in sorted(set(self.naturals[r]))], (self.wc,)] for r in window]
        else:
            options = [self.groups(r, per, all_wild=True) for r in window]
        return self.within_wilds(options)

    def groups(self, rank: int, k: int, *, all_wild: bool) -> list[Cards]:
        """Every way to hold ``k`` cards of ``rank``: naturals plus wildcards (wildcards alone only
        if ``all_wild``)."""
        naturals = self.naturals[rank]
        out: set[Cards] = set()
        for j in range(min(self.wilds, k) + 1):
            m = k - j
            if m > len(naturals) or (m == 0 and not all_wild):
                continue
            for picked in _choose(naturals, m):
                out.add(tuple(sorted(picked + (self.wc,) * j)))
        return sorted(out)

    def full_houses(self, rank: int) -> list[Cards]:
        """A triple of ``rank`` and a pair of another rank or of two identical jokers (GD-16)."""
        pairs = [p for r in range(13) if r != rank for p in self.groups(r, 2, all_wild=r == self.level)]
        pairs += [(j, j) for j in (BJ, RJ) if self.counts[j] == 2]
        return self.within_wilds([self.groups(rank, 3, all_wild=False), pairs])

    def straight_flushes(self, rank: int, suit: int) -> list[Cards]:
        """Five ranks of one suit (GD-21): each its natural card if held, or a wildcard."""
        options: list[list[Cards]] = []
        for r in window_ranks(rank + 2, 5):
            card = r * 4 + suit
            held = card != self.wc and self.counts[card] > 0
            options.append([(card,), (self.wc,)] if held else [(self.wc,)])
        return self.within_wilds(options)

    def within_wilds(self, options: list[list[Cards]]) -> list[Cards]:
        """One option of each position, as long as the hand's wildcards last."""
        out: list[Cards] = []
        for combo in product(*options):
            cards = tuple(c for part in combo for c in part)
            if cards.count(self.wc) <= self.wilds:
                out.append(cards)
        return out


def _choose(cards: list[int], m: int) -> list[Cards]:
    """The distinct sub-multisets of ``m`` cards of ``cards`` (sorted, repeats allowed)."""
    out: set[Cards] = set()

    def walk(start: int, picked: Cards) -> None:
        if len(picked) == m:
            out.add(picked)
            return
        for i in range(start, len(cards)):
            walk(i + 1, (*picked, cards[i]))

    walk(0, ())
    return sorted(out)
