"""What a Guandan bot reads from its view and legal actions, and shared move helpers.

A bot sees ``view(state, seat)`` and ``legal_actions`` only (cardgames/bots). The
view gives its hand, the level (GD-7), the current trick with interpretations,
earlier tricks' cards (``discards``), counts of ≤ 10 cards (GD-60) and places.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardgames.engines.guandan.cards import INDEX, RANK_INDEX, card_power
from cardgames.engines.guandan.combos import BOMB, Interp, interp_from_wire, main_power

from .planner import hand_cost

JSON = dict[str, Any]


@dataclass
class Move:
    """A legal play, parsed: its action dict, card indices and interpretation."""

    action: JSON
    cards: tuple[int, ...]
    interp: Interp

    @property
    def bomb(self) -> bool:
        return self.interp[0] >= BOMB


@dataclass
class Ctx:
    """One decision: the bot's seat, hand and table, parsed from the view."""

    view: JSON
    seat: int
    level: int
    hand: list[int]
    table: Interp | None
    table_seat: int | None
    counts: list[int | None]
    finished: list[int]
    moves: list[Move]
    can_pass: bool

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    def opponents(self) -> list[int]:
        return [s for s in ((self.seat + 1) % 4, (self.seat + 3) % 4) if s not in self.finished]

    def min_opponent_count(self) -> int:
        """Fewest cards an active opponent holds (11 when only "more than 10" is known)."""
        counts = [self.counts[s] for s in self.opponents()]
        return min((c if c is not None else 11 for c in counts), default=99)

    def after(self, move: Move) -> list[int]:
        rest = list(self.hand)
        for c in move.cards:
            rest[c] -= 1
        return rest

    def cost_after(self, move: Move) -> float:
        return hand_cost(self.after(move), self.level)

    def power(self, move: Move) -> int:
        return main_power(move.interp, self.level)


def parse(view: JSON, legal: list[JSON]) -> Ctx:
    seat = view["seat"]
    level = RANK_INDEX[view["level"]]
    hand = [0] * 54
    for code in view["hand"] or []:
        hand[INDEX[code]] += 1
    table: Interp | None = None
    table_seat = view.get("table")
    if table_seat is not None:
        for entry in reversed(view["trick"]):
            if "cards" in entry:
                table = interp_from_wire(entry["interp"])
                break
    moves = []
    can_pass = False
    for action in legal:
        if action["type"] == "play":
            interp = interp_from_wire(action["interp"])
            if interp is not None:
                moves.append(Move(action, tuple(sorted(INDEX[c] for c in action["cards"])), interp))
        elif action["type"] == "pass":
            can_pass = True
    return Ctx(view, seat, level, hand, table, table_seat, view["counts"], view["finished"], moves, can_pass)


def signature(move: Move, level: int) -> tuple[Interp, tuple[int, ...], int]:
    """A move up to suits: interpretation, ranks of the natural cards, wildcards used."""
    wc = level * 4 + 1
    return move.interp, tuple(sorted(c >> 2 for c in move.cards if c != wc)), move.cards.count(wc)


def distinct(moves: list[Move], level: int) -> list[Move]:
    """One move per signature (suit variants rarely matter to the planner)."""
    seen: dict[tuple[Interp, tuple[int, ...], int], Move] = {}
    for m in moves:
        seen.setdefault(signature(m, level), m)
    return list(seen.values())


def lowest_single(ctx: Ctx) -> Move | None:
    singles = [m for m in ctx.moves if len(m.cards) == 1]
    wc = ctx.level * 4 + 1
    plain = [m for m in singles if m.cards[0] != wc] or singles
    return min(plain, key=lambda m: (card_power(m.cards[0], ctx.level), m.cards), default=None)


def choose_return(view: JSON, legal: list[JSON]) -> JSON:
    """Return the eligible card whose loss hurts the hand least, then confirm (GD-53, GD-54)."""
    if any(a["type"] == "confirm" for a in legal):
        return {"type": "confirm"}
    level = RANK_INDEX[view["level"]]
    hand = [0] * 54
    for code in view["hand"]:
        hand[INDEX[code]] += 1

    def loss(action: JSON) -> tuple[float, int]:
        rest = list(hand)
        rest[INDEX[action["card"]]] -= 1
        return hand_cost(rest, level), INDEX[action["card"]]

    return min((a for a in legal if a["type"] == "return"), key=loss)
