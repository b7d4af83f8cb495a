"""The lobby's pages: the lobby with its challenge forms, and "Play now".

Plain POST forms with CSRF that work without JavaScript; every change goes through
lobby.challenges, and the outcome is reported with Django messages. The live parts (the
challenge list, the queue) talk over /ws/lobby/ (lobby.consumers).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import ServiceError
from lobby import challenges
from lobby.selectors import lobby_snapshot
from lobby.services import queue_status_of
from ratings.selectors import rating_label, rating_state


def _game_url(game_id: int) -> str:
    return reverse("game", kwargs={"game_id": game_id})


def socket_closed_labels(request: HttpRequest) -> dict[str, str]:
    """What a page says when the lobby socket is closed for good (codes 4401 and 4403).

    Used by lobby.js and play_now.js, which stop reconnecting then.
    """
    login = f"{reverse('login')}?{urlencode({'next': request.get_full_path()})}"
    return {
        "signed_out": _("You are signed out."),
        "sign_in": _("Sign in again"),
        "login_url": login,
        "forbidden": _("This page may not connect to the game server. Reload it to try again."),
    }


def _lobby_labels(request: HttpRequest) -> dict[str, str]:
    """The words lobby.js needs, translated here so the script has no catalogue to load."""
    return {
        **socket_closed_labels(request),
        "you_challenged": _("You challenged %(opponent)s"),
        "your_open": _("Your open challenge"),
        "challenges_you": _("%(challenger)s challenges you"),
        "open_from": _("Open challenge from %(challenger)s"),
        "accept": _("Accept"),
        "decline": _("Decline"),
        "cancel": _("Cancel"),
        "empty": _("No open challenges."),
    }


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    context = {"challenges": lobby_snapshot(request.user), "lobby_labels": _lobby_labels(request)}
    return render(request, "lobby/lobby.html", context)


@login_required
@require_POST
def challenge_create(request: HttpRequest) -> HttpResponse:
    username = request.POST.get("opponent", "")[:150]
    try:
        challenges.challenge_create(challenger=request.user, opponent_username=username)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        if username.strip():
            messages.success(request, _("Challenge sent to %(username)s.") % {"username": username})
        else:
            messages.success(request, _("Open challenge posted."))
    return redirect("lobby")


@login_required
@require_POST
def challenge_accept(request: HttpRequest, challenge_id: int) -> HttpResponse:
    try:
        game = challenges.challenge_accept(challenge_id=challenge_id, user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return HttpResponseRedirect(_game_url(game.pk))


@login_required
@require_POST
def challenge_decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    try:
        challenges.challenge_decline(challenge_id=challenge_id, user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, _("Challenge declined."))
    return redirect("lobby")


@login_required
@require_POST
def challenge_cancel(request: HttpRequest, challenge_id: int) -> HttpResponse:
    try:
        challenges.challenge_cancel(challenge_id=challenge_id, user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, _("Challenge cancelled."))
    return redirect("lobby")


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
        "lobby/play_now.html",
        {
            "rating_label": rating_label(rating_state(user_id=request.user.pk)),
            "active_game_url": (
                reverse("game", kwargs={"game_id": status.game_id}) if status.game_id else None
            ),
            "play_now_labels": labels,
        },
    )
