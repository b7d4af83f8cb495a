"""Every page's header: the player's game in progress ("your game") and the words of the
user socket's script (user_socket/static/js/user.js), in the page's language.

The game is read lazily: a page whose template never shows it (an admin page, an error)
reads nothing.
"""

from __future__ import annotations

import math
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from games.live.yours import your_game_of
from games.models import BOT_NAMES


def _your_game(user_id: int) -> dict[str, Any] | None:
    found = your_game_of(user_id)
    if found is None:
        return None
    game, summary = found
    seat = game.seats_of(user_id)[0]
    left = summary["bank"]
    if summary["flag_at"] is not None:  # running: the bank, once the delay is over
        left = min(left, max(0.0, (summary["flag_at"] - summary["server_time"]) / 1000))
    whole = math.ceil(left)
    # The name as the page's language says it ("Ordenador (difícil)" for the computer).
    return {
        **summary,
        "url": reverse("game", kwargs={"game_id": game.pk}),
        "name": game.seat_name(1 - seat),
        "clock": f"{whole // 60}:{whole % 60:02d}",
    }


def user_words() -> dict[str, str]:
    """What user.js writes, translated here so that no page needs the JavaScript catalogue
    for it; `%(name)s` is filled in by the script."""
    return {
        "vs": _("vs %(name)s"),
        "your_turn": _("Your turn"),
        "their_turn": _("Their turn"),
        "waiting": _("Waiting"),
        "challenge": _("%(name)s challenges you"),
        "accept": _("Accept"),
        "decline": _("Decline"),
        "rematch": _("%(name)s offers a rematch"),
        "see": _("See the offer"),
        "ready": _("Your game against %(name)s is ready"),
        "go": _("Go to your game"),
        "close": _("Close"),
        "arena": _("Your arena %(name)s has started"),
        "open": _("Open"),
        **{f"bot_{strength}": str(name) for strength, name in BOT_NAMES.items()},
    }


def user_bar(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {
        "your_game": SimpleLazyObject(lambda: _your_game(user.pk)),
        "user_words": user_words(),
    }
