"""Admin for the rating ledger (read-only) and service faults.

ServiceFault lives in games.models; it is registered here, next to the ledger its
processing reverses entries in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.db.models import Count, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.admin import GameAdmin
from games.clock.faults import fault_process
from games.models import Game, ServiceFault
from ratings.models import RatingEntry

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


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
