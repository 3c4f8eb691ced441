from django.contrib import admin

from .models import ScoreSheet


@admin.register(ScoreSheet)
class ScoreSheetAdmin(admin.ModelAdmin):
    list_display = ("__str__", "owner", "updated_at")
    search_fields = ("owner__username", "title")
    readonly_fields = ("created_at", "updated_at")
