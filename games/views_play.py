"""Play pages: the lobby, challenge forms, same-device games, and the game page shell.

Plain POST forms with CSRF that work without JavaScript; every change goes through
games.challenges / games.services, and the outcome is reported with Django messages.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import challenges, engine
from games.errors import ServiceError
from games.selectors import game_audience, game_get, lobby_snapshot
from games.services import same_device_game_create


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
    return render(request, "games/lobby.html", context)


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
@require_http_methods(["GET", "POST"])
def same_device_new(request: HttpRequest) -> HttpResponse:
    """GET explains and shows the button (links are GETs); only the POST creates a game."""
    if request.method == "POST":
        game = same_device_game_create(user=request.user)
        return HttpResponseRedirect(_game_url(game.pk))
    return render(request, "games/same_device_new.html")


@login_required
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_get(game_id)
    if game is None:
        raise Http404
    audience = game_audience(game, request.user)
    context = {
        "game": game,
        "audience": audience,
        "ws_path": f"/ws/games/{game.pk}/",
        "players": [game.player0.get_username(), game.player1.get_username()],
        # The request vocabulary, for the page to send only the fields a request may carry.
        "action_keys": {do: list(fields) for do, fields in engine.ACTION_KEYS.items()},
        # Until the first state arrives (which carries them in `view.rules`).
        "rules": dict(engine.RULES),
    }
    return render(request, "games/game.html", context)
