"""Admin of fair play: how players ended their games (read-only; the games write it), and
the moderators' queue: open reports and automatic flags, with their actions, and the log.

Each action calls one service of fairplay.services, which logs it (ModerationLog, read-only
here) and closes the report or flag it was taken from. Nothing here is edited by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from fairplay.errors import FairPlayError
from fairplay.models import Flag, GameConduct, ModerationLog, PlayerWarning, Report
from fairplay.services import (
    FLAG_REASONS,
    account_close,
    account_mark,
    account_refund_opponents,
    account_unmark,
    account_warn,
    source_dismiss,
)
from ratings.models import MarkedPlayer

if TYPE_CHECKING:
    from django.contrib.admin.filters import _ListFilterChoices


@admin.register(GameConduct)
class GameConductAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "at", "left"]
    list_filter = ["left"]
    search_fields = ["user__username"]
    list_select_related = ["user", "game"]
    readonly_fields = ["user", "game", "at", "left"]
    date_hierarchy = "at"


def _user_link(user: User) -> str:
    url = reverse("admin:auth_user_change", args=[user.pk])
    return format_html('<a href="{}">{}</a>', url, user.get_username())


class QueueFilter(admin.SimpleListFilter):
    """Open items by default: the changelist is the moderators' queue."""

    title = _("status")
    parameter_name = "queue"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("open", _("open")), ("handled", _("handled")), ("all", _("all"))]

    def choices(self, changelist: ChangeList) -> Iterator[_ListFilterChoices]:
        current = self.value() or "open"
        for lookup, title in self.lookup_choices:
            yield {
                "selected": current == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        current = self.value() or "open"
        return queryset if current == "all" else queryset.filter(status=current)


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class QueueAdmin(ReadOnly):
    """The actions a moderator takes on the player a report or flag is about."""

    actions = ["warn", "mark", "refund", "close", "dismiss"]
    list_filter = [QueueFilter]
    list_select_related = ["player"]
    search_fields = ["player__username"]
    date_hierarchy = "created_at"

    def warning_reason(self, source: Any) -> str:
        raise NotImplementedError

    @admin.display(description=_("player"), ordering="player__username")
    def player_link(self, obj: Any) -> str:
        return _user_link(obj.player)

    def _each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Any],
        act: Callable[[User, Any], object],
        done: Callable[[int], str],
    ) -> None:
        actor = request.user
        assert isinstance(actor, User)  # the admin site lets in only staff users
        count = 0
        for source in queryset.select_related("player").order_by("pk"):
            try:
                act(actor, source)
            except FairPlayError as error:
                self.message_user(request, f"{source.player}: {error.message}", messages.ERROR)
            else:
                count += 1
        if count:
            self.message_user(request, done(count), messages.SUCCESS)

    @admin.action(description=_("Warn the player"))
    def warn(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._each(
            request,
            queryset,
            lambda actor, source: account_warn(
                actor=actor, player=source.player, reason=self.warning_reason(source), source=source
            ),
            lambda n: ngettext("%(n)d player warned.", "%(n)d players warned.", n) % {"n": n},
        )

    @admin.action(description=_("Mark the account (off the leaderboard, the queue and arenas)"))
    def mark(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._each(
            request,
            queryset,
            lambda actor, source: account_mark(actor=actor, player=source.player, source=source),
            lambda n: ngettext("%(n)d account marked.", "%(n)d accounts marked.", n) % {"n": n},
        )

    @admin.action(description=_("Refund the opponents of a marked account"))
    def refund(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        entries: list[int] = []

        def act(actor: User, source: Any) -> None:
            created = account_refund_opponents(actor=actor, player=source.player, source=source)
            entries.extend(entry.delta for entry in created)

        self._each(
            request,
            queryset,
            act,
            lambda n: (
                ngettext(
                    "%(n)d account's opponents refunded: %(entries)d entries, %(points)d points.",
                    "%(n)d accounts' opponents refunded: %(entries)d entries, %(points)d points.",
                    n,
                )
                % {"n": n, "entries": len(entries), "points": sum(entries)}
            ),
        )

    @admin.action(description=_("Close the account"))
    def close(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._each(
            request,
            queryset,
            lambda actor, source: account_close(actor=actor, player=source.player, source=source),
            lambda n: ngettext("%(n)d account closed.", "%(n)d accounts closed.", n) % {"n": n},
        )

    @admin.action(description=_("Dismiss (no action against the player)"))
    def dismiss(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._each(
            request,
            queryset,
            lambda actor, source: source_dismiss(actor=actor, source=source),
            lambda n: ngettext("%(n)d item dismissed.", "%(n)d items dismissed.", n) % {"n": n},
        )


@admin.register(Report)
class ReportAdmin(QueueAdmin):
    list_display = [
        "id",
        "created_at",
        "player_link",
        "reason",
        "reporter",
        "game_link",
        "text",
        "status",
        "handled_by",
    ]
    list_select_related = ["player", "reporter", "handled_by"]
    search_fields = ["player__username", "reporter__username", "text"]

    def warning_reason(self, source: Any) -> str:
        return str(source.reason)

    @admin.display(description=_("game"), ordering="game_id")
    def game_link(self, obj: Report) -> str:
        if obj.game_id is None:
            return "—"
        url = reverse("admin:games_game_change", args=[obj.game_id])
        return format_html('<a href="{}">#{}</a>', url, obj.game_id)


@admin.register(Flag)
class FlagAdmin(QueueAdmin):
    list_display = [
        "id",
        "created_at",
        "player_link",
        "kind",
        "opponent",
        "games",
        "detail",
        "status",
        "handled_by",
    ]
    list_select_related = ["player", "opponent", "handled_by"]

    def warning_reason(self, source: Any) -> str:
        return str(FLAG_REASONS[source.kind])


@admin.register(ModerationLog)
class ModerationLogAdmin(ReadOnly):
    """Who did what to whom, when: written by the services only, never edited."""

    list_display = ["created_at", "actor", "action", "player", "report", "flag", "note"]
    list_filter = ["action", "created_at"]
    list_select_related = ["actor", "player"]
    search_fields = ["player__username", "actor__username", "note"]
    date_hierarchy = "created_at"


@admin.register(PlayerWarning)
class PlayerWarningAdmin(ReadOnly):
    list_display = ["created_at", "player", "reason", "created_by", "seen_at"]
    list_select_related = ["player", "created_by"]
    search_fields = ["player__username"]


@admin.register(MarkedPlayer)
class MarkedPlayerAdmin(ReadOnly):
    """The marked accounts (kept by the ratings app for its leaderboard); a mark is lifted
    here, and the lifting is logged like any other action."""

    list_display = ["player", "marked_at"]
    list_select_related = ["player"]
    search_fields = ["player__username"]
    actions = ["unmark"]

    @admin.action(description=_("Lift the mark"))
    def unmark(self, request: HttpRequest, queryset: QuerySet[MarkedPlayer]) -> None:
        actor = request.user
        assert isinstance(actor, User)
        count = sum(
            account_unmark(actor=actor, player=marked.player)
            for marked in queryset.select_related("player")
        )
        self.message_user(
            request,
            ngettext("%(n)d mark lifted.", "%(n)d marks lifted.", count) % {"n": count},
        )
