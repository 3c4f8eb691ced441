"""Where Rulezz sheets live: a signed-up user's in the database, a guest's in their session.

An *owner* is either a signed-in user's ``Player`` (``accounts.identity``) or a guest's sheet
mapping — the session object a view passes in (any mutable mapping will do: no request, no
session machinery is needed here). ``sheets_of(owner)`` gives the store that both
``selectors`` (reads) and ``services`` (writes) go through.
"""

from __future__ import annotations

import uuid
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.utils import timezone

from accounts.identity import Player

from .models import ScoreSheet
from .scoring import RulezzError, SheetResult, score_sheet

SESSION_KEY = "rulezz_sheets"
MAX_GUEST_SHEETS = 20
#: a signed-up user's sheets (issue 13 item 13: every list a user grows has a bound)
MAX_USER_SHEETS = 200

GuestSheets: TypeAlias = MutableMapping[str, Any] | SessionBase
SheetOwner: TypeAlias = Player | GuestSheets


@dataclass
class SheetData:
    id: str
    title: str
    players: list[str]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    updated_at: str = ""

    def result(self) -> SheetResult:
        return score_sheet(self.players, self.rounds)


class SheetNotFound(LookupError):
    pass


class SheetStore(Protocol):
    def all(self) -> list[SheetData]: ...
    def get(self, sheet_id: str) -> SheetData: ...
    def save(self, sheet: SheetData) -> None: ...
    def delete(self, sheet_id: str) -> None: ...


class UserSheets:
    """A signed-up user's sheets; writes lock the row so two tabs cannot interleave edits."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id

    def all(self) -> list[SheetData]:
        return [self._data(s) for s in ScoreSheet.objects.filter(owner_id=self.user_id)]

    def get(self, sheet_id: str) -> SheetData:
        try:
            return self._data(ScoreSheet.objects.get(pk=uuid.UUID(str(sheet_id)), owner_id=self.user_id))
        except (ValueError, ScoreSheet.DoesNotExist) as err:
            raise SheetNotFound(sheet_id) from err

    def save(self, sheet: SheetData) -> None:
        with transaction.atomic():
            row = ScoreSheet.objects.select_for_update().filter(pk=sheet.id, owner_id=self.user_id).first()
            if row is None:
                if ScoreSheet.objects.filter(owner_id=self.user_id).count() >= MAX_USER_SHEETS:
                    raise RulezzError("too_many_sheets", f"A user keeps at most {MAX_USER_SHEETS} sheets.")
                row = ScoreSheet(id=uuid.UUID(sheet.id), owner_id=self.user_id)
            row.title, row.players, row.rounds = sheet.title, sheet.players, sheet.rounds
            row.save()

    def delete(self, sheet_id: str) -> None:
        self.get(sheet_id)
        ScoreSheet.objects.filter(pk=sheet_id, owner_id=self.user_id).delete()

    @staticmethod
    def _data(row: ScoreSheet) -> SheetData:
        return SheetData(
            str(row.id), row.title, list(row.players), list(row.rounds), row.updated_at.isoformat()
        )


class SessionSheets:
    """A guest's sheets, in their session (PF-61: guests keep nothing on the server), at most 20."""

    def __init__(self, session: GuestSheets) -> None:
        self.session = session

    def _sheets(self) -> dict[str, dict[str, Any]]:
        sheets: dict[str, dict[str, Any]] = self.session.get(SESSION_KEY, {})
        return sheets

    def all(self) -> list[SheetData]:
        sheets = [SheetData(**data) for data in self._sheets().values()]
        return sorted(sheets, key=lambda s: s.updated_at, reverse=True)

    def get(self, sheet_id: str) -> SheetData:
        data = self._sheets().get(str(sheet_id))
        if data is None:
            raise SheetNotFound(sheet_id)
        return SheetData(**data)

    def save(self, sheet: SheetData) -> None:
        sheets = self._sheets()
        if sheet.id not in sheets and len(sheets) >= MAX_GUEST_SHEETS:
            raise RulezzError("too_many_sheets", f"A guest keeps at most {MAX_GUEST_SHEETS} sheets.")
        sheet.updated_at = timezone.now().isoformat()
        sheets[sheet.id] = sheet.__dict__.copy()
        # Assigning the key again (not only mutating the dict in place) marks a Django session modified.
        self.session[SESSION_KEY] = sheets

    def delete(self, sheet_id: str) -> None:
        sheets = self._sheets()
        if str(sheet_id) not in sheets:
            raise SheetNotFound(sheet_id)
        del sheets[str(sheet_id)]
        self.session[SESSION_KEY] = sheets


def sheets_of(owner: SheetOwner) -> SheetStore:
    """The store of ``owner``: a signed-in user's ``Player``, or a guest's sheet mapping (their session)."""
    if isinstance(owner, Player):
        if owner.user_id is None:
            raise TypeError("a guest's Rulezz sheets live in their session: pass the session, not the Player")
        return UserSheets(owner.user_id)
    return SessionSheets(owner)
