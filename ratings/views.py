"""Pages of the ratings app: the leaderboard (profiles live in accounts). Thin: selectors read."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from ratings.elo import PROVISIONAL_GAMES
from ratings.selectors import LEADERBOARD_ACTIVE_DAYS, game_rating_changes, leaderboard


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "rows": leaderboard(),
            "active_days": LEADERBOARD_ACTIVE_DAYS,
            "provisional_games": PROVISIONAL_GAMES,
        },
    )


@login_required
def game_rating_change(request: HttpRequest, game_id: int) -> JsonResponse:
    """{"seats": [{"before", "after", "delta"}, …] or null}: the game-over card shows it.

    Read by the game page (games imports nothing from ratings); ratings are public on the
    profiles and the leaderboard, so any signed-in user may read a game's.
    """
    return JsonResponse({"seats": game_rating_changes(game_id=game_id)})
