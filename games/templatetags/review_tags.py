"""`{% profile_accuracy_section player %}`: the player's accuracy over their last reviewed
games, a chart drawn on the server; nothing when fewer than two games were reviewed."""

from __future__ import annotations

from typing import Any

from django import template

from games.review.selectors import accuracy_chart, accuracy_history

register = template.Library()


@register.inclusion_tag("games/_profile_accuracy.html")
def profile_accuracy_section(player: Any) -> dict[str, Any]:
    return {"chart": accuracy_chart(accuracy_history(user_id=player.pk))}
