"""The admin's view-only pages: rows that only the services write (ledger, tables, league, queue)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


class ReadOnly:
    """Mixed into a ModelAdmin or an inline: view only, no add, change or delete from the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
