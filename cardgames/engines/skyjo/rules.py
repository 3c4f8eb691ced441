"""Pure helpers of the Skyjo engine: column removal, draw availability, input checks (SK-12, SK-14 to SK-17).

Kept apart from ``engine.py`` so that the engine class reads as the contract plus
one private method per phase (design.md, "Conventions").
"""

from __future__ import annotations

from typing import Any

from ..base import JSON, IllegalAction
from .state import CODE_OF, COLUMN_POSITIONS, GRID, VALUE_OF, SkyjoState


# -- helpers ------------------------------------------------------------------------------------
def can_draw(state: SkyjoState) -> bool:
    """SK-12: a card can be drawn if the pile has one or the discards below the top can be reshuffled."""
    return bool(state.draw) or len(state.discard) >= 2


def remove_column(state: SkyjoState, seat: int, column: int, events: list[JSON]) -> None:
    """SK-14 to SK-17: three face-up equal values in a column leave the grid for the discard pile."""
    base = GRID * seat
    idx = [base + p for p in COLUMN_POSITIONS[column]]
    a, b, c = (state.cards[i] for i in idx)
    if a is None or a != b or b != c or not all(state.up[i] for i in idx):
        return
    for i in idx:
        state.cards[i] = None
        state.up[i] = False
        state.discard.append(a)
    events.append({"type": "column_removed", "seat": seat, "column": column, "card": CODE_OF[a]})


def parse_pos(action: JSON) -> int:
    pos = action.get("pos")
    if isinstance(pos, bool) or not isinstance(pos, int):
        raise IllegalAction("bad_action", "This action needs an integer 'pos' (0-11).")
    if not 0 <= pos < GRID:
        raise IllegalAction("bad_position", f"Position {pos} is not on the grid (0-11).")
    return pos


def check_occupied(state: SkyjoState, seat: int, pos: int) -> int:
    if state.cards[GRID * seat + pos] is None:
        raise IllegalAction("bad_position", f"Position {pos} was removed with its column (SK-16).")
    return pos


def check_face_down(state: SkyjoState, seat: int, pos: int) -> int:
    index = GRID * seat + pos
    if state.cards[index] is None:
        raise IllegalAction("bad_position", f"Position {pos} was removed with its column (SK-16).")
    if state.up[index]:
        raise IllegalAction("not_face_down", f"Position {pos} is already face up.")
    return pos


def parse_turn_seconds(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise IllegalAction("bad_option", "turn_seconds is a positive integer or None.")
    return value


def parse_deck(deck: Any, players: int) -> list[int]:
    """A fixed deck, top first; needs 12 cards a seat plus the discard starter."""
    if not isinstance(deck, (list, tuple)) or not all(isinstance(c, str) and c in VALUE_OF for c in deck):
        raise IllegalAction("bad_option", "A deck is a list of Skyjo card codes '-2' .. '12'.")
    if len(deck) < GRID * players + 1:
        raise IllegalAction(
            "bad_option", f"A deck for {players} players needs at least {GRID * players + 1} cards."
        )
    return [VALUE_OF[c] for c in deck]
