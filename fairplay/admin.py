"""Admin of fair play: how players ended their games (read-only; the games write it)."""

from __future__ import annotations

from django.contrib import admin

from fairplay.models import GameConduct


@admin.register(GameConduct)
class GameConductAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "at", "left"]
    list_filter = ["left"]
    search_fields = ["user__username"]
    list_select_related = ["user", "game"]
    readonly_fields = ["user", "game", "at", "left"]
    date_hierarchy = "at"
