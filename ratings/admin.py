"""Admin for the rating ledger (read-only), and the ledger's entries on each game's page."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from games.admin import GameAdmin
from games.models import Game
from ratings.models import RatingEntry


def _game_link(game_id: int) -> str:
    url = reverse("admin:games_game_change", args=[game_id])
    return format_html('<a href="{}">#{}</a>', url, game_id)


@admin.register(RatingEntry)
class RatingEntryAdmin(admin.ModelAdmin):
    """Append-only: entries are written by ratings.services and never edited or deleted."""

    list_display = [
        "id",
        "player",
        "game_link",
        "reason",
        "rating_before",
        "delta",
        "rating_after",
        "created_at",
    ]
    list_filter = ["reason", "created_at"]
    search_fields = ["player__username", "=game__id", "note"]
    list_select_related = ["player"]
    date_hierarchy = "created_at"
    ordering = ["-created_at", "-id"]

    @admin.display(description=_("game"), ordering="game_id")
    def game_link(self, obj: RatingEntry) -> str:
        return _game_link(obj.game_id)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RatingEntryInline(admin.TabularInline):
    """The ledger entries of one game, for the game's admin page."""

    model = RatingEntry
    extra = 0
    can_delete = False
    fields = ["player", "reason", "rating_before", "delta", "rating_after", "note", "created_at"]
    readonly_fields = cast(list[str], fields)  # django-stubs types `fields` as field groups
    ordering = ["created_at", "id"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RatedGameAdmin(GameAdmin):
    """games' own Game admin, plus the game's ledger entries: games knows nothing of ratings,
    so the ratings app adds its inline by registering this subclass in games' place."""

    inlines = [*GameAdmin.inlines, RatingEntryInline]


admin.site.unregister(Game)
admin.site.register(Game, RatedGameAdmin)
