"""Template hooks of fair play for pages it does not own (the home page, the profile)."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser, User

from fairplay.selectors import account_marked, warnings_unread

register = template.Library()


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
