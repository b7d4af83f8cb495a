"""Template hooks of the ratings app for pages it does not own (the profile)."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import User

from ratings.chart import rating_chart
from ratings.elo import PROVISIONAL_GAMES
from ratings.selectors import (
    profile_games,
    rating_history,
    rating_label,
    rating_state,
    results_summary,
)

register = template.Library()


@register.inclusion_tag("ratings/_profile_games.html", takes_context=True)
def profile_games_section(context: dict[str, Any], player: User) -> dict[str, Any]:
    """The profile's rating and games section: `{% profile_games_section player %}`."""
    state = rating_state(user_id=player.pk)
    history = rating_history(user=player)
    games = profile_games(user=player)
    computer_games = profile_games(user=player, against_computer=True)
    return {
        "player": player,
        "request": context.get("request"),
        "rating": state,
        "rating_label": rating_label(state),
        "provisional_games": PROVISIONAL_GAMES,
        "history": history,
        "chart": rating_chart(
            [entry.rating_after for entry in history],
            dates=[entry.created_at for entry in history],
        )
        if history
        else None,
        "summary": results_summary(user=player),
        "games": games,
        "computer_games": computer_games,
        "has_anything": bool(history or games or computer_games),
    }
