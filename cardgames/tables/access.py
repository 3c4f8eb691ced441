"""Who may see a table (issue 26; PF-24, PF-61): a room is reached by its code, an online table is public.

A room (friends or practice) is private. What lets a person in is one of: a seat at it, being
its host, an invitation to it (pending or accepted: it carries the code), its code (the link
``/mesa/<code>/`` carries it; an API client sends ``code``), or being staff. Nothing by the
table's sequential id alone shows a room's envelope (and so its code), its chat, its replay or
its shuffle check, seats anyone, or opens a spectator socket. Online and buy-in tables are public
to watch — the spectator's view, which shows no hand — as the site's league links to them.

Wrong codes are counted per address (``accounts.throttling``): a 4-letter code has 331,776
values and a 6-digit one 10^6, so unthrottled guessing would find live rooms.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from accounts.identity import Player
from accounts.throttling import code_guess_failed, code_guess_lockout

from .errors import TableError
from .models import Invitation, Seat, Table

PUBLIC_MODES = (Table.Mode.ONLINE, Table.Mode.BUYIN)


def is_public(table: Table) -> bool:
    """Online and buy-in tables: anyone may watch (their spectator's view)."""
    return table.mode in PUBLIC_MODES


def holds_code(table: Table, code: Any) -> bool:
    """Does ``code`` (as typed: any case, spaces around) open this live room?"""
    return bool(table.code) and isinstance(code, str) and code.strip().upper() == table.code


def may_watch(table: Table, player: Player | None, code: Any = None) -> bool:
    """May ``player`` (None: an anonymous visitor) see this table, with ``code`` if they sent one?"""
    if is_public(table) or holds_code(table, code):
        return True
    if player is None:
        return False
    if table.host_key == player.key or Seat.objects.filter(table=table, player_key=player.key).exists():
        return True
    if player.user_id is None:
        return False
    live = Q(status=Invitation.Status.ACCEPTED) | Q(
        status=Invitation.Status.PENDING, expires_at__gt=timezone.now()
    )
    invited = Invitation.objects.filter(live, table=table, recipient_id=player.user_id).exists()
    return invited or is_staff(player)


def is_staff(player: Player | None) -> bool:
    """Staff see every table (the admin does already)."""
    if player is None or player.user_id is None:
        return False
    return get_user_model().objects.filter(pk=player.user_id, is_staff=True, is_active=True).exists()


def require_watch(table: Table, player: Player | None, code: Any = None, *, address: str = "") -> None:
    """Refuse (``private_room``) whoever may not see ``table``; a wrong code counts as a guess
    from ``address`` (``too_many_guesses`` once the address has guessed too often). A seat, an
    invitation or staff never needs the code, so a lockout of a shared address never shuts
    them out."""
    if may_watch(table, player):
        return
    guessed = bool(code) and bool(address)
    if guessed:
        check_guesses(address)
    if holds_code(table, code):
        return
    if guessed:
        code_guess_failed(ip=address)
    raise TableError("private_room")


def check_guesses(address: str) -> None:
    """Refuse a code from an address that has guessed wrong too often, for the wait in force."""
    lockout = code_guess_lockout(ip=address)
    if lockout is not None:
        raise TableError(
            "too_many_guesses",
            TableError.MESSAGES["too_many_guesses"] % {"minutes": lockout.minutes},
        )


def find_room(*, code: Any, address: str, player: Player | None = None) -> Table:
    """The live room with ``code`` for a visitor from ``address``: a miss counts as a guess, and an
    address that guessed too often finds nothing for a while — but ``player``'s own rooms (a seat,
    an invitation) and public tables, whose codes are no secret to them."""
    from .services import find_room as find

    try:
        table: Table | None = find(code=code)
    except TableError:
        table = None
    if table is not None and may_watch(table, player):
        return table
    check_guesses(address)
    if table is None:
        code_guess_failed(ip=address)
        raise TableError("no_such_table")
    return table
