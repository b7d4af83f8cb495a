"""Admin: games and their logs are read-only here; every change goes through the services."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.db.models import Count, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.clock.faults import fault_process, game_cancel_by_admin
from games.models import ActiveSeat, Bot, DoubleSeat, Game, GameAction, GameReview, ServiceFault

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


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


@admin.register(ServiceFault)
class ServiceFaultAdmin(admin.ModelAdmin):
    """Recording a fault here cancels every game whose clock ran in its window (R7.10)."""

    list_display = ["id", "kind", "start", "end", "duration", "games_count", "created_by", "note"]
    list_filter = ["kind", "created"]
    search_fields = ["note", "=games__id"]
    date_hierarchy = "start"
    # `games` is filled by the service, never by the form: saving the form's (empty) m2m
    # value after processing would otherwise unlink the games just cancelled.
    fields = ["kind", "start", "end", "note", "created", "created_by", "processed_at", "games_list"]
    readonly_fields = ["created", "created_by", "processed_at", "games_list"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ServiceFault]:
        return (
            super()
            .get_queryset(request)
            .select_related("created_by")
            .annotate(games_total=Count("games"))
        )

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        now = timezone.now()
        return {"kind": ServiceFault.Kind.ADMIN, "start": now, "end": now}

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # An automatic fault's kind and window are what was measured: not editable.
        if obj is not None and obj.kind != ServiceFault.Kind.ADMIN:
            return [*self.readonly_fields, "kind", "start", "end"]
        return list(self.readonly_fields)

    @admin.display(description=_("duration"))
    def duration(self, obj: ServiceFault) -> str:
        return f"{(obj.end - obj.start).total_seconds():.1f} s"

    @admin.display(description=_("cancelled games"), ordering="games_total")
    def games_count(self, obj: ServiceFault) -> int:
        return int(getattr(obj, "games_total", obj.games.count()))

    @admin.display(description=_("cancelled games"))
    def games_list(self, obj: ServiceFault) -> StrOrPromise:
        if obj.pk is None:
            # django-stubs types pk as never None, but the add form's new fault has none yet.
            return "—"  # type: ignore[unreachable]
        games = obj.games.select_related("player0", "player1").order_by("pk")
        if not games:
            return _("none")
        return format_html_join(
            mark_safe("<br>"),
            '<a href="{}">#{}</a> {} vs {}',
            (
                (
                    reverse("admin:games_game_change", args=[g.pk]),
                    g.pk,
                    g.player0.get_username(),
                    g.player1.get_username(),
                )
                for g in games
            ),
        )

    def save_model(
        self, request: HttpRequest, obj: ServiceFault, form: ModelForm, change: bool
    ) -> None:
        if not change:
            obj.created_by = cast(User, request.user)  # the admin site lets in only staff
        super().save_model(request, obj, form, change)

    def save_related(
        self, request: HttpRequest, form: ModelForm, formsets: Any, change: bool
    ) -> None:
        super().save_related(request, form, formsets, change)
        # Processing is idempotent, so an edited (e.g. widened) window is simply re-applied.
        cancelled = fault_process(fault=form.instance)
        self.message_user(
            request,
            ngettext(
                "%(count)d game was cancelled by this fault.",
                "%(count)d games were cancelled by this fault.",
                len(cancelled),
            )
            % {"count": len(cancelled)},
            messages.WARNING if cancelled else messages.INFO,
        )

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A fault is the record of why games were voided: it stays.
        return False


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
