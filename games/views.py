"""Pages of the games app: same-device games, the game page shell and the replay.

The lobby, its challenge forms and "Play now" are the lobby app's (lobby.views).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import engine
from games.computer.suggestions import computer_suggestion, suggestion_text
from games.errors import ServiceError
from games.forms import SameDeviceForm
from games.http import AuthenticatedHttpRequest
from games.live.audiences import game_audience, game_get
from games.replay.page import replay_page
from games.review.page import review_page
from games.review.services import review_request
from games.services import game_rematch, same_device_game_create

# The game page's ES modules, preloaded together by the page (<link rel="modulepreload">):
# without it the browser finds main.js's imports only once main.js has arrived.
GAME_MODULES = [
    f"games/game/{name}.js"
    for name in (
        "main",
        "next",
        "auction",
        "balances",
        "board",
        "board-layout",
        "clocks",
        "dom",
        "feed",
        "hand",
        "protocol",
        "sameDevice",
        "sounds",
        "summary",
    )
] + ["realtime/socket.js"]


def _game_url(game_id: int) -> str:
    return reverse("game", kwargs={"game_id": game_id})


@login_required
@require_http_methods(["GET", "POST"])
def same_device_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """GET explains and asks the two names (links are GETs); only the POST creates a game."""
    form = SameDeviceForm(request.POST or None, owner=request.user)
    if request.method == "POST" and form.is_valid():
        names = (form.cleaned_data["first"], form.cleaned_data["second"])
        game = same_device_game_create(user=request.user, names=names)
        return HttpResponseRedirect(_game_url(game.pk))
    return render(request, "games/same_device_new.html", {"form": form})


@login_required
def game_page(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    game = game_get(game_id)
    if game is None:
        raise Http404
    audience = game_audience(game, request.user)
    context = {
        "game": game,
        "audience": audience,
        "ws_path": f"/ws/games/{game.pk}/",
        "players": game.display_names(),
        # The request vocabulary, for the page to send only the fields a request may carry.
        "action_keys": {do: list(fields) for do, fields in engine.ACTION_KEYS.items()},
        # Until the first state arrives (which carries them in `view.rules`).
        "rules": dict(engine.RULES),
        "modules": GAME_MODULES,
    }
    return render(request, "games/game.html", context)


@login_required
@require_POST
def rematch(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """A rematch answered from another page (the offer's notice, static/js/user.js): the
    new game once both want it, else the finished game's page, which says where it stands."""
    result = game_rematch(game_id=game_id, user=request.user, answer=request.POST.get("answer"))
    if result.game_id is not None:
        return HttpResponseRedirect(_game_url(result.game_id))
    if not result.ok:
        messages.error(request, str(result.message))
    if result.code == "not_found":
        raise Http404
    return HttpResponseRedirect(_game_url(game_id))


def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a game's log: ?step=N shows the table after the N-th change."""
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    page = replay_page(game_id=game_id, step=step)
    if page is None:
        raise Http404(_("No such game."))
    return render(request, "games/replay.html", {"replay": page})


SUGGESTION_STATUS = {"not_found": 404, "login_required": 403, "rate_limited": 429}


@require_GET
def replay_suggestion(request: HttpRequest, game_id: int, index: int) -> JsonResponse:
    """JSON: what the hard computer would have done at the replay's step `index`.

    For signed-in players only: an answer not cached yet costs a second of thinking.
    """
    try:
        if not request.user.is_authenticated:
            raise ServiceError("login_required")
        result = computer_suggestion(game_id=game_id, index=index, user_id=request.user.pk)
    except ServiceError as error:
        status = SUGGESTION_STATUS.get(error.code, 400)
        return JsonResponse({"error": error.code, "message": str(error.message)}, status=status)
    return JsonResponse({**result, **suggestion_text(result)})


def review(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game's review: its win-chance graph, its graded decisions, and for the
    signed-in player "learn from your mistakes". Players and spectators alike."""
    user_id = request.user.pk if request.user.is_authenticated else None
    page = review_page(game_id=game_id, user_id=user_id)
    if page is None:
        raise Http404(_("No such game."))
    return render(request, "games/review.html", {"page": page})


@login_required
@require_POST
def review_ask(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Ask for a finished game's review (REVIEW_REQUESTS_PER_DAY a player)."""
    try:
        review_request(game_id=game_id, user_id=request.user.pk)
    except ServiceError as error:
        if error.code == "not_found":
            raise Http404 from None
        messages.error(request, str(error.message))
    return HttpResponseRedirect(reverse("game-review", kwargs={"game_id": game_id}))
