"""Admin of ratings: read-only (ratings change only through ``rate_game``)."""

from __future__ import annotations

from django.contrib import admin

from cardgames.tables.admin import ReadOnly

from .models import PlayerRating, RatingChange


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["user", "game", "mu", "sigma", "games"]
    list_filter = ["game"]
    search_fields = ["user__username"]
    readonly_fields = [f.name for f in PlayerRating._meta.fields]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["user", "game", "game_result"]
    list_filter = ["game"]
    readonly_fields = [f.name for f in RatingChange._meta.fields]
