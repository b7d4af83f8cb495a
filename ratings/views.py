"""Pages of the ratings app: the leaderboard (profiles live in accounts). Thin: selectors read."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ratings.elo import PROVISIONAL_GAMES
from ratings.selectors import LEADERBOARD_ACTIVE_DAYS, leaderboard


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
