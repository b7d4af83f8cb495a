"""Pages of the ratings app: leaderboard and game replays. Thin: selectors read."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from ratings import replay as replay_pages
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


def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a game's log: ?step=N shows the table after the N-th change."""
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    page = replay_pages.replay_page(game_id=game_id, step=step)
    if page is None:
        raise Http404(_("No such game."))
    return render(request, "ratings/replay.html", {"replay": page})
