"""Fair play's notice for the pages where a player would start a game (Play now, the lobby,
an arena): `{% leaver_wait_notice %}` says how long a leaver still waits, and why."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

from fairplay.services import play_refusal

register = template.Library()


@register.inclusion_tag("fairplay/_leaver_wait.html", takes_context=True)
def leaver_wait_notice(context: dict[str, Any]) -> dict[str, Any]:
    user = getattr(context.get("request"), "user", None)
    refusal = None
    if user is not None and user.is_authenticated:
        refusal = play_refusal(user_id=user.pk)
    return {"refusal": refusal, "clean_reset": settings.LEAVER_CLEAN_GAMES_RESET}
