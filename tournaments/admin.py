from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments import services
from tournaments.models import Arena, ArenaGame, ArenaPlayer, ArenaSchedule


@admin.register(ArenaSchedule)
class ArenaScheduleAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "every_hours",
        "at_minute",
        "minutes",
        "bank_seconds",
        "rated",
        "active",
    ]
    list_filter = ["active", "rated"]


class ArenaPlayerInline(admin.TabularInline):
    model = ArenaPlayer
    extra = 0
    can_delete = False
    fields = readonly_fields = (
        "user",
        "state",
        "score",
        "streak",
        "wins",
        "losses",
        "performance",
        "joined_at",
    )
    ordering = ["-score"]

    def has_add_permission(self, request: HttpRequest, obj: Arena | None = None) -> bool:
        return False


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    """Arenas with their status, players and games; cancel an arena or remove a player.

    A cancelled arena pairs no one more and its standings stay as they were; its games in
    progress finish as ordinary games (rated if the arena was), because voiding a game
    two players are playing in good faith would punish them for the organiser's choice."""

    list_display = [
        "name",
        "starts_at",
        "minutes",
        "bank_seconds",
        "rated",
        "status",
        "entrants",
        "played",
    ]
    list_filter = ["status", "rated"]
    search_fields = ["name"]
    readonly_fields = ["status", "created_by", "schedule", "created_at", "waved_at"]
    exclude = ["standings_dirty", "standings_pushed_at"]
    inlines = [ArenaPlayerInline]
    actions = ["cancel"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Arena]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                entrants=Count("players", distinct=True), played=Count("games", distinct=True)
            )
        )

    @admin.display(description=_("players"), ordering="entrants")
    def entrants(self, arena: Arena) -> int:
        return arena.entrants  # type: ignore[attr-defined]

    @admin.display(description=_("games"), ordering="played")
    def played(self, arena: Arena) -> int:
        return arena.played  # type: ignore[attr-defined]

    @admin.action(description=_("Cancel the selected arenas"))
    def cancel(self, request: HttpRequest, queryset: QuerySet[Arena]) -> None:
        done = sum(services.arena_cancel(arena_id=arena.pk) for arena in queryset)
        said = ngettext("%(count)d arena cancelled.", "%(count)d arenas cancelled.", done)
        self.message_user(request, said % {"count": done}, messages.SUCCESS)


@admin.register(ArenaPlayer)
class ArenaPlayerAdmin(admin.ModelAdmin):
    list_display = ["user", "arena", "state", "score", "wins", "losses", "performance"]
    list_filter = ["state"]
    search_fields = ["user__username", "arena__name"]
    readonly_fields = [f.name for f in ArenaPlayer._meta.fields]
    actions = ["remove"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Remove the selected players from their arena"))
    def remove(self, request: HttpRequest, queryset: QuerySet[ArenaPlayer]) -> None:
        done = sum(services.arena_remove_player(entry_id=entry.pk) for entry in queryset)
        said = ngettext("%(count)d player removed.", "%(count)d players removed.", done)
        self.message_user(request, said % {"count": done}, messages.SUCCESS)


@admin.register(ArenaGame)
class ArenaGameAdmin(admin.ModelAdmin):
    list_display = [
        "game",
        "arena",
        "player0",
        "player1",
        "outcome0",
        "outcome1",
        "points0",
        "points1",
        "ended_at",
    ]
    list_filter = ["arena"]
    readonly_fields = [f.name for f in ArenaGame._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
