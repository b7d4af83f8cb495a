"""Pages of the ratings app: leaderboard, "Play now" and game replays. Thin: selectors read."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from games.views_play import socket_closed_labels
from ratings import replay as replay_pages
from ratings.elo import PROVISIONAL_GAMES
from ratings.selectors import LEADERBOARD_ACTIVE_DAYS, leaderboard, rating_label, rating_state
from ratings.services import queue_status_of


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
def play_now(request: HttpRequest) -> HttpResponse:
    status = queue_status_of(user=request.user)
    labels = {
        **socket_closed_labels(request),
        "joining": _("Joining the queue…"),
        "waiting": _("Waiting for an opponent…"),
        "found": _("Opponent found! Opening your game…"),
        "left": _("You left the queue."),
        "reconnecting": _("Connection lost, reconnecting…"),
        "error": _("Something went wrong."),
    }
    return render(
        request,
        "ratings/play_now.html",
        {
            "rating_label": rating_label(rating_state(user_id=request.user.pk)),
            "active_game_url": (
                reverse("game", kwargs={"game_id": status.game_id}) if status.game_id else None
            ),
            "play_now_labels": labels,
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
