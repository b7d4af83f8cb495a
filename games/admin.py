"""Admin: games and their logs are read-only here; every change goes through the services."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.clock.faults import game_cancel_by_admin
from games.models import ActiveSeat, Bot, DoubleSeat, Game, GameAction, GameReview


class GameActionInline(admin.TabularInline):
    model = GameAction
    extra = 0
    can_delete = False
    ordering = ["seq"]
    fields = ["seq", "seat", "user", "action", "request_id", "received_at", "version", "error"]
    readonly_fields = cast(list[str], fields)  # django-stubs types `fields` as field groups
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "player0",
        "player1",
        "status",
        "rated",
        "same_device",
        "winner_seat",
        "reason",
        "created_at",
        "next_deadline",
    ]
    list_filter = ["status", "rated", "same_device", "bot_strength"]
    search_fields = ["player0__username", "player1__username"]
    list_select_related = ["player0", "player1"]
    date_hierarchy = "created_at"
    inlines = [GameActionInline]
    actions = ["cancel_for_service_fault"]
    public_fields = [
        "player0",
        "player1",
        "status",
        "version",
        "rated",
        "same_device",
        "bot_seat",
        "bot_strength",
        "created_at",
        "started_at",
        "finished_at",
        "winner_seat",
        "reason",
        "next_deadline",
    ]

    # django-stubs returns an invariant list of field groups, which a list of names is not.
    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:  # type: ignore[override]
        # The engine state holds both hands, the boneyard and the deal seed: shown only once
        # the game is over, so that nobody with admin access can read a live game.
        if obj is not None and not obj.is_active:
            return [*self.public_fields, "state", "setup"]
        return self.public_fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return self.get_fields(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(
        description=_("Cancel the selected games (service fault): no result, ratings reversed"),
        permissions=["change"],
    )
    def cancel_for_service_fault(self, request: HttpRequest, queryset: Any) -> None:
        cancelled = [
            game_id
            for game_id in queryset.values_list("pk", flat=True)
            # The admin site lets in only signed-in staff.
            if game_cancel_by_admin(game_id=game_id, admin=cast(User, request.user))
        ]
        self.message_user(
            request,
            ngettext("%(count)d game cancelled.", "%(count)d games cancelled.", len(cancelled))
            % {"count": len(cancelled)},
            messages.WARNING,
        )


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    """The computer players: made by games.computer.accounts.bot_account, one per strength."""

    list_display = ["__str__", "strength", "user", "created_at"]
    list_select_related = ["user"]
    fields = ["strength", "user", "created_at"]
    readonly_fields = cast(list[str], fields)  # django-stubs types `fields` as field groups

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Their games point to their accounts.
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the services keep: shown, never edited here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ActiveSeat)
class ActiveSeatAdmin(ReadOnlyAdmin):
    """Who holds a seat in a game not over yet (a stale row is cleared at the next game)."""

    list_display = ["user", "game", "game__status"]
    list_select_related = ["user", "game"]
    search_fields = ["user__username"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(DoubleSeat)
class DoubleSeatAdmin(ReadOnlyAdmin):
    """Players found in two active games when the one-game rule came into the database."""

    list_display = ["user", "seated_in", "game", "found_at"]
    list_select_related = ["user", "seated_in", "game"]


@admin.register(GameReview)
class GameReviewAdmin(ReadOnlyAdmin):
    """Reviews are made by the review queue's workers; the admin lists and reads them."""

    list_display = [
        "game",
        "version",
        "status",
        "done",
        "total",
        "accuracy0",
        "accuracy1",
        "created_at",
    ]
    list_filter = ["status", "version"]
    search_fields = ["game__id"]
    raw_id_fields = ["game", "requested_by"]
    exclude = ["result"]
