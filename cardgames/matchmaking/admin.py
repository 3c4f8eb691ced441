"""Admin of the matchmaking queue: read-only (the queue services are the only writers)."""

from __future__ import annotations

from django.contrib import admin

from config.readonly_admin import ReadOnly

from .models import QueueEntry


@admin.register(QueueEntry)
class QueueEntryAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["id", "user", "game", "players", "stake", "status", "table", "joined_at", "seated_at"]
    list_filter = ["status", "game", "stake"]
    search_fields = ["user__username"]
    list_select_related = ["user", "table"]
    readonly_fields = [f.name for f in QueueEntry._meta.fields]
