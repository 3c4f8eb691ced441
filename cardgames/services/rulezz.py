"""Rulezz score sheets: stored for signed-up users, kept in the session for guests.

Every change is scored by ``cardgames.rulezz.scoring`` *before* it is saved, so
bad input (SK-39) raises ``RulezzError`` and leaves the stored sheet unchanged.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from cardgames.models import ScoreSheet
from cardgames.rulezz.scoring import RoundEntry, RulezzError, Sheet, SheetResult, score_sheet

SESSION_KEY = "rulezz_sheets"
MAX_GUEST_SHEETS = 20
MAX_TITLE = 80
MAX_NAME = 20


@dataclass
class SheetData:
    id: str
    title: str
    players: list[str]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    updated_at: str = ""

    def result(self) -> SheetResult:
        return score_sheet(self.players, self.rounds)


class SheetStore(Protocol):
    def all(self) -> list[SheetData]: ...
    def get(self, sheet_id: str) -> SheetData: ...
    def save(self, sheet: SheetData) -> None: ...
    def delete(self, sheet_id: str) -> None: ...


class SheetNotFound(LookupError):
    pass


class DatabaseStore:
    """A signed-up user's sheets; writes lock the row so two tabs cannot interleave edits."""

    def __init__(self, user: Any) -> None:
        self.user = user

    def all(self) -> list[SheetData]:
        return [self._data(s) for s in ScoreSheet.objects.filter(owner=self.user)]

    def get(self, sheet_id: str) -> SheetData:
        try:
            return self._data(ScoreSheet.objects.get(pk=uuid.UUID(str(sheet_id)), owner=self.user))
        except (ValueError, ScoreSheet.DoesNotExist) as err:
            raise SheetNotFound(sheet_id) from err

    def save(self, sheet: SheetData) -> None:
        with transaction.atomic():
            row = ScoreSheet.objects.select_for_update().filter(pk=sheet.id, owner=self.user).first()
            if row is None:
                row = ScoreSheet(id=uuid.UUID(sheet.id), owner=self.user)
            row.title, row.players, row.rounds = sheet.title, sheet.players, sheet.rounds
            row.save()

    def delete(self, sheet_id: str) -> None:
        self.get(sheet_id)
        ScoreSheet.objects.filter(pk=sheet_id, owner=self.user).delete()

    @staticmethod
    def _data(row: ScoreSheet) -> SheetData:
        return SheetData(
            str(row.id), row.title, list(row.players), list(row.rounds), row.updated_at.isoformat()
        )


class SessionStore:
    """A guest's sheets, in their session (PF-61: guests keep nothing on the server)."""

    def __init__(self, session: SessionBase) -> None:
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
        self.session[SESSION_KEY] = sheets
        self.session.modified = True

    def delete(self, sheet_id: str) -> None:
        sheets = self._sheets()
        if str(sheet_id) not in sheets:
            raise SheetNotFound(sheet_id)
        del sheets[str(sheet_id)]
        self.session[SESSION_KEY] = sheets


def store_for(request: HttpRequest) -> SheetStore:
    if request.user.is_authenticated:
        return DatabaseStore(request.user)
    return SessionStore(request.session)


# -- operations (each validates by scoring first; nothing is saved on error) --------------------------
def sheet_create(*, store: SheetStore, players: list[Any], title: str = "") -> SheetData:
    names = [name.strip() if isinstance(name, str) else name for name in players]
    names = [name for name in names if name != ""]
    for name in names:
        if isinstance(name, str) and len(name) > MAX_NAME:
            raise RulezzError("bad_player_name", f"{name[:MAX_NAME]}… is longer than {MAX_NAME} characters.")
    if not isinstance(title, str) or len(title) > MAX_TITLE:
        raise RulezzError("bad_title", f"A title has at most {MAX_TITLE} characters.")
    sheet = SheetData(str(uuid.uuid4()), title.strip(), names)
    sheet.result()
    store.save(sheet)
    return sheet


def _as_sheet(data: SheetData) -> Sheet:
    return Sheet(tuple(data.players), tuple(RoundEntry(r["points"], r["closer"]) for r in data.rounds))


def _save(store: SheetStore, data: SheetData, sheet: Sheet) -> SheetData:
    """Store ``sheet`` (already scored by the ``Sheet`` method that made it) under ``data``'s id."""
    # Store the rounds as scoring understood them (e.g. a closer sent as ["Ana"] is kept as "Ana").
    rounds = [{"points": r.points, "closer": r.closer} for r in sheet.result().rounds]
    saved = SheetData(data.id, data.title, data.players, rounds, data.updated_at)
    store.save(saved)
    return saved


def round_add(*, store: SheetStore, sheet_id: str, points: Any, closer: Any) -> SheetData:
    data = store.get(sheet_id)
    return _save(store, data, _as_sheet(data).add_round(points, closer))


def round_replace(*, store: SheetStore, sheet_id: str, number: Any, points: Any, closer: Any) -> SheetData:
    data = store.get(sheet_id)
    return _save(store, data, _as_sheet(data).replace_round(number, points, closer))


def round_delete(*, store: SheetStore, sheet_id: str, number: Any) -> SheetData:
    data = store.get(sheet_id)
    return _save(store, data, _as_sheet(data).remove_round(number))


def sheet_delete(*, store: SheetStore, sheet_id: str) -> None:
    store.delete(sheet_id)
