"""The lobby's pages: the lobby with its challenge forms, and "Play now".

Plain POST forms with CSRF that work without JavaScript; every change goes through
lobby.challenges, and the outcome is reported with Django messages. The live parts (the
challenge list, the queue) talk over the user socket (/ws/user/, lobby.user_part); their
scripts take their words from the JavaScript catalogue of the page's language
(static/jsi18n/).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.computer.moves import (
    computer_game_create,
    computer_game_in_progress,
    computer_games_wait,
)
from games.errors import ServiceError
from games.http import AuthenticatedHttpRequest
from games.models import Bot
from games.selectors import active_game_id, live_games
from lobby import challenges
from lobby.selectors import lobby_snapshot
from lobby.services import queue_hold, queue_leave, queue_status_of
from ratings.selectors import players_snapshot, rating_label, rating_state

# The lobby shows the newest few games in progress; the live games page lists them all.
LOBBY_LIVE_GAMES = 5


def _game_url(game_id: int) -> str:
    return reverse("game", kwargs={"game_id": game_id})


@login_required
def lobby(request: AuthenticatedHttpRequest) -> HttpResponse:
    context = {
        "challenges": lobby_snapshot(request.user),
        "live_games": live_games(viewer=request.user, limit=LOBBY_LIVE_GAMES),
        "live_limit": LOBBY_LIVE_GAMES,
    }
    return render(request, "lobby/lobby.html", context)


@login_required
def live_games_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Games in progress; anyone signed in may open one as a spectator."""
    return render(request, "lobby/live.html", {"games": live_games(viewer=request.user)})


@login_required
@require_POST
def challenge_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    username = request.POST.get("opponent", "")[:150]
    try:
        challenge = challenges.challenge_create(challenger=request.user, opponent_username=username)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        if challenge.opponent is not None:  # named as the account spells it, not as typed
            name = challenge.opponent.get_username()
            messages.success(request, _("Challenge sent to %(username)s.") % {"username": name})
        else:
            messages.success(request, _("Open challenge posted."))
    return redirect("lobby")


@login_required
@require_POST
def challenge_accept(request: AuthenticatedHttpRequest, challenge_id: int) -> HttpResponse:
    try:
        game = challenges.challenge_accept(challenge_id=challenge_id, user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return HttpResponseRedirect(_game_url(game.pk))


def _challenge_close(
    request: AuthenticatedHttpRequest, close: Callable[..., object], challenge_id: int, done: str
) -> HttpResponse:
    try:
        close(challenge_id=challenge_id, user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, done)
    return redirect("lobby")


@login_required
@require_POST
def challenge_decline(request: AuthenticatedHttpRequest, challenge_id: int) -> HttpResponse:
    closed = _("Challenge declined.")
    return _challenge_close(request, challenges.challenge_decline, challenge_id, closed)


@login_required
@require_POST
def challenge_cancel(request: AuthenticatedHttpRequest, challenge_id: int) -> HttpResponse:
    closed = _("Challenge cancelled.")
    return _challenge_close(request, challenges.challenge_cancel, challenge_id, closed)


@login_required
def play_now(request: AuthenticatedHttpRequest) -> HttpResponse:
    status = queue_status_of(user=request.user)
    return render(
        request,
        "lobby/play_now.html",
        {
            "rating_label": rating_label(rating_state(user_id=request.user.pk)),
            "active_game_url": (
                reverse("game", kwargs={"game_id": status.game_id}) if status.game_id else None
            ),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def computer_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Play the computer: GET shows the strengths; a POST with one starts the game at once
    (with practice=1: a practice game, whose page shows a hint at each decision).

    One game against the computer at a time: its moves cost the server real thinking, and
    a player who asks again is most likely looking for the game they already have.
    """
    current = computer_game_in_progress(user=request.user)
    if current is not None:
        messages.info(request, _("You are already playing the computer: here is your game."))
        return HttpResponseRedirect(_game_url(current.pk))
    # Nor beside a game against a person, whose clock would run while the computer plays.
    other = active_game_id(request.user.pk)
    if other is not None:
        messages.info(request, _("You are in a game already: here it is."))
        return HttpResponseRedirect(_game_url(other))
    if request.method == "POST":
        strength = request.POST.get("strength", "")
        if strength in Bot.Strength.values:
            (snapshot,) = players_snapshot([request.user])
            try:
                with transaction.atomic():
                    _queue_meanwhile(request)
                    game = computer_game_create(
                        user=request.user,
                        strength=strength,
                        snapshot=snapshot,
                        practice=request.POST.get("practice") == "1",
                    )
            except ServiceError as error:
                if error.code == "computer_games_limit":
                    return _computer_games_limited(request)
                messages.info(request, error.message)  # a game made meanwhile in another tab
                return redirect("lobby")
            return HttpResponseRedirect(_game_url(game.pk))
        context = {"error": _("Choose how strongly the computer plays.")}
        return render(request, "lobby/computer_new.html", context, status=400)
    return render(request, "lobby/computer_new.html")


def _queue_meanwhile(request: AuthenticatedHttpRequest) -> None:
    """From "Play now", while nobody is waiting: the player keeps their place in the queue
    (held, never paired during the game) or leaves it; with the game, or not at all."""
    if request.POST.get("queue") == "keep":
        queue_hold(user=request.user)
    elif request.POST.get("queue") == "leave":
        queue_leave(user=request.user)


def _computer_games_limited(request: AuthenticatedHttpRequest) -> HttpResponse:
    """COMPUTER_GAMES_PER_HOUR reached: when the player may start another, to the minute."""
    wait = computer_games_wait(user=request.user)
    seconds = max(1, math.ceil(wait.total_seconds())) if wait is not None else 60
    context = {"limit": settings.COMPUTER_GAMES_PER_HOUR, "minutes": math.ceil(seconds / 60)}
    response = render(request, "lobby/computer_limited.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response
