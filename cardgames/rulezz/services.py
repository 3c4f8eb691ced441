"""Rulezz writes: create and delete sheets, add, replace and delete rounds.

Every service takes an ``owner`` (``stores.SheetOwner``): a signed-in user's ``Player`` or a
guest's sheet mapping (the session, passed in by the view) — never an ``HttpRequest``. Every
change is scored by ``cardgames.rulezz.scoring`` *before* it is saved, so bad input (SK-39)
raises ``RulezzError`` and leaves the stored sheet unchanged; an unknown sheet raises
``SheetNotFound``. A signed-up user's save locks the sheet's row (``stores.UserSheets.save``).
A sheet holds at most ``MAX_ROUNDS`` rounds and an owner at most ``stores.MAX_USER_SHEETS`` (a
guest ``stores.MAX_GUEST_SHEETS``) sheets (issue 13 item 13). ``validate_sheet`` is the one check
of a whole sheet, also used by the admin's form (item 14).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.exceptions import ValidationError

from accounts.names import clean_display_name, clean_text

from .scoring import RoundEntry, RulezzError, Sheet, score_sheet
from .stores import SheetData, SheetOwner, SheetStore, sheets_of

MAX_TITLE = 80
MAX_NAME = 20
#: a Skyjo game ends at 100 points, in a handful of rounds; 100 rounds is far past any real game
MAX_ROUNDS = 100


def sheet_create(*, owner: SheetOwner, players: list[Any], title: str = "") -> SheetData:
    """A new sheet. Names and title get the site's cleaning (``accounts.names``, issue 13): NFKC,
    spaces collapsed, invisible and bidi characters refused, one script per name; two names that
    differ only in case (after NFKC) are the same player (``duplicate_player``)."""
    title, names, _ = validate_sheet(title=title, players=players, rounds=[])
    sheet = SheetData(str(uuid.uuid4()), title, names)
    sheets_of(owner).save(sheet)
    return sheet


def validate_sheet(*, title: Any, players: Any, rounds: Any) -> tuple[str, list[str], list[dict[str, Any]]]:
    """A whole sheet checked as the services check it: the cleaned title and names, and the rounds
    as scoring understood them; ``RulezzError`` for anything a page could not show."""
    if not isinstance(players, (list, tuple)):
        raise RulezzError("too_few_players", "Players are a list of names.")
    if not isinstance(rounds, list) or not all(
        isinstance(r, dict) and set(r) == {"points", "closer"} for r in rounds
    ):
        raise RulezzError("bad_rounds", "Rounds are a list of {points, closer} objects.")
    if len(rounds) > MAX_ROUNDS:
        raise RulezzError("too_many_rounds", f"A sheet holds at most {MAX_ROUNDS} rounds.")
    names = [_clean_name(name) if isinstance(name, str) else name for name in players]
    names = [name for name in names if name != ""]
    seen: dict[str, str] = {}
    for name in names:
        if isinstance(name, str):
            key = name.casefold()
            if key in seen:
                raise RulezzError("duplicate_player", f"{name!r} appears twice.", player=name)
            seen[key] = name
    if not isinstance(title, str):
        raise RulezzError("bad_title", f"A title has at most {MAX_TITLE} characters.")
    try:
        title = clean_text(title, max_length=MAX_TITLE, field="title")
    except ValidationError as err:
        raise RulezzError(_CODES.get(err.code or "", "bad_title"), str(err.messages[0])) from err
    scored = score_sheet(names, rounds)
    return title, names, [{"points": r.points, "closer": r.closer} for r in scored.rounds]


def round_add(*, owner: SheetOwner, sheet_id: str, points: Any, closer: Any) -> SheetData:
    store = sheets_of(owner)
    data = store.get(sheet_id)
    return _save(store, data, _as_sheet(data).add_round(points, closer))


def round_replace(*, owner: SheetOwner, sheet_id: str, number: Any, points: Any, closer: Any) -> SheetData:
    store = sheets_of(owner)
    data = store.get(sheet_id)
    return _save(store, data, _as_sheet(data).replace_round(number, points, closer))


def round_delete(*, owner: SheetOwner, sheet_id: str, number: Any) -> SheetData:
    store = sheets_of(owner)
    data = store.get(sheet_id)
    return _save(store, data, _as_sheet(data).remove_round(number))


def sheet_delete(*, owner: SheetOwner, sheet_id: str) -> None:
    sheets_of(owner).delete(sheet_id)


_CODES = {"invisible_characters": "invisible_characters", "mixed_script": "mixed_script"}


def _clean_name(name: str) -> str:
    try:
        return clean_display_name(name, max_length=MAX_NAME)
    except ValidationError as err:
        raise RulezzError(_CODES.get(err.code or "", "bad_player_name"), str(err.messages[0])) from err


def _as_sheet(data: SheetData) -> Sheet:
    return Sheet(tuple(data.players), tuple(RoundEntry(r["points"], r["closer"]) for r in data.rounds))


def _save(store: SheetStore, data: SheetData, sheet: Sheet) -> SheetData:
    """Store ``sheet`` (already scored by the ``Sheet`` method that made it) under ``data``'s id."""
    # Store the rounds as scoring understood them (e.g. a closer sent as ["Ana"] is kept as "Ana").
    rounds = [{"points": r.points, "closer": r.closer} for r in sheet.result().rounds]
    if len(rounds) > MAX_ROUNDS:
        raise RulezzError("too_many_rounds", f"A sheet holds at most {MAX_ROUNDS} rounds.")
    saved = SheetData(data.id, data.title, data.players, rounds, data.updated_at)
    store.save(saved)
    return saved
