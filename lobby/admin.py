"""Admin of the lobby: challenges, and the matchmaking queue (read-only)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lobby import matchmaking
from lobby.models import Challenge, QueueEntry


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ["id", "challenger", "opponent", "status", "created_at", "expires_at", "game"]
    list_filter = ["status"]
    search_fields = ["challenger__username", "opponent__username"]
    list_select_related = ["challenger", "opponent", "game"]
    raw_id_fields = ["challenger", "opponent", "game"]


@admin.register(QueueEntry)
class QueueEntryAdmin(admin.ModelAdmin):
    list_display = ["user", "rating", "joined_at", "waited", "accepted_range", "seen_at"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    readonly_fields = ["user", "rating", "joined_at", "seen_at"]
    ordering = ["joined_at"]

    @admin.display(description=_("waiting"))
    def waited(self, obj: QueueEntry) -> str:
        return f"{(timezone.now() - obj.joined_at).total_seconds():.0f} s"

    @admin.display(description=_("accepted difference"))
    def accepted_range(self, obj: QueueEntry) -> str:
        waited = (timezone.now() - obj.joined_at).total_seconds()
        return f"±{matchmaking.accepted_range(waited)}"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
