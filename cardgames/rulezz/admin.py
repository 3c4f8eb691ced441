"""Rulezz in the admin: signed-up users' score sheets (registered by ``cardgames/admin.py``).

An edit goes through ``services.validate_sheet``, the same check as every service (issue 13
item 14): a sheet the owner's pages could not show is refused with the reason, never saved.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin

from .messages import rulezz_message
from .models import ScoreSheet
from .scoring import RulezzError
from .services import validate_sheet


class ScoreSheetForm(forms.ModelForm):
    class Meta:
        model = ScoreSheet
        fields = ["owner", "title", "players", "rounds"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        try:
            title, players, rounds = validate_sheet(
                title=data.get("title", ""), players=data.get("players"), rounds=data.get("rounds")
            )
        except RulezzError as err:
            raise forms.ValidationError(rulezz_message(err), code=err.code) from err
        data.update(title=title, players=players, rounds=rounds)
        return data


@admin.register(ScoreSheet)
class ScoreSheetAdmin(admin.ModelAdmin):
    form = ScoreSheetForm
    list_display = ("__str__", "owner", "updated_at")
    search_fields = ("owner__username", "title")
    readonly_fields = ("created_at", "updated_at")
