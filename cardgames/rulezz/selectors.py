"""Rulezz reads: an owner's sheets (``stores.SheetOwner``: a signed-in user's ``Player`` or a
guest's session mapping). Totals, doubling and the end come from ``SheetData.result()``."""

from __future__ import annotations

from .stores import SheetData, SheetOwner, sheets_of


def sheet_list(*, owner: SheetOwner) -> list[SheetData]:
    """The owner's sheets, most recently changed first."""
    return sheets_of(owner).all()


def sheet_get(*, owner: SheetOwner, sheet_id: str) -> SheetData:
    """One of the owner's sheets; raises ``SheetNotFound`` for an unknown id or another owner's sheet."""
    return sheets_of(owner).get(sheet_id)
