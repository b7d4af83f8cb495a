"""Fair play's notices on pages it does not own: `{% leaver_wait_notice %}` on the pages
where a player would start a game (Play now, the lobby, an arena) says how long a leaver
still waits, and why; the home page and the profile show a mark and unread warnings."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User

from fairplay.selectors import account_marked, warnings_unread
from fairplay.services import play_refusal

register = template.Library()


@register.inclusion_tag("fairplay/_leaver_wait.html", takes_context=True)
def leaver_wait_notice(context: dict[str, Any]) -> dict[str, Any]:
    user = getattr(context.get("request"), "user", None)
    refusal = None
    if user is not None and user.is_authenticated:
        refusal = play_refusal(user_id=user.pk)
    return {"refusal": refusal, "clean_reset": settings.LEAVER_CLEAN_GAMES_RESET}


def _notices(user: User | AnonymousUser) -> dict[str, Any]:
    if not user.is_authenticated:
        return {"marked": False, "warnings": []}
    return {
        "marked": account_marked(user_id=user.pk),
        "warnings": list(warnings_unread(user_id=user.pk)),
    }


@register.inclusion_tag("fairplay/_notices.html", takes_context=True)
def fairplay_notices(context: dict[str, Any], user: User | AnonymousUser) -> dict[str, Any]:
    """`{% fairplay_notices user %}`: the player's mark and unread warnings, if any."""
    return {
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        **_notices(user),
    }


@register.inclusion_tag("fairplay/_profile.html", takes_context=True)
def profile_fairplay_section(context: dict[str, Any], player: User) -> dict[str, Any]:
    """`{% profile_fairplay_section player %}`: the owner's notices, else a report link."""
    request = context.get("request")
    viewer = getattr(request, "user", None)
    is_own = viewer is not None and viewer.is_authenticated and viewer.pk == player.pk
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "player": player,
        "is_own": is_own,
        "can_report": viewer is not None and viewer.is_authenticated and not is_own,
        **(_notices(player) if is_own else {}),
    }
