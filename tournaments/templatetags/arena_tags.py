"""Template hooks of the arenas for pages they do not own (the profile, the home page)."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser, User

from tournaments.selectors import arenas_played, arenas_to_join

register = template.Library()


@register.inclusion_tag("tournaments/_profile_arenas.html")
def profile_arenas_section(player: User) -> dict[str, Any]:
    """The arenas a player played, with their rank: `{% profile_arenas_section player %}`."""
    return {"played": arenas_played(player)}


@register.inclusion_tag("tournaments/_arenas_to_join.html", takes_context=True)
def arenas_to_join_section(context: dict[str, Any], user: User | AnonymousUser) -> dict[str, Any]:
    """The running and next arenas, each with its one-tap Join (home page, lobby)."""
    return {"arenas": arenas_to_join(user), "user": user, "csrf_token": context.get("csrf_token")}
