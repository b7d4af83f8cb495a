"""The arenas' pages: the list (with a player's own arena form), an arena with its standings,
and the join / pause / withdraw buttons (plain POST forms with CSRF that work without
JavaScript; the standings then update over /ws/arenas/<id>/)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from games.errors import ServiceError
from games.http import AuthenticatedHttpRequest
from tournaments import services
from tournaments.errors import ArenaError
from tournaments.forms import ArenaForm
from tournaments.models import Arena
from tournaments.selectors import arena_game_result, arenas_listed, entry_of, standings_message

# A player's arena starts within this long from now.
OWN_ARENA_WITHIN = timedelta(days=1)


@require_http_methods(["GET", "POST"])
def arena_list(request: HttpRequest) -> HttpResponse:
    form = ArenaForm(initial={"starts_at": timezone.now() + timedelta(minutes=5)})
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect("login")
        form = ArenaForm(request.POST)
        if form.is_valid():
            starts_at = form.cleaned_data["starts_at"]
            if starts_at > timezone.now() + OWN_ARENA_WITHIN:
                form.add_error("starts_at", ArenaError("arena_too_far").message)
            else:
                try:
                    arena = services.arena_create(user=request.user, **form.cleaned_data)
                except ServiceError as error:  # an arena's code, or a leaver's wait
                    messages.error(request, error.message)
                else:
                    return redirect("arena", arena_id=arena.pk)
    return render(request, "tournaments/arena_list.html", {"lists": arenas_listed(), "form": form})


def arena_page(request: HttpRequest, arena_id: int) -> HttpResponse:
    arena = get_object_or_404(Arena, pk=arena_id)
    entry = entry_of(arena, request.user)
    context = {
        "arena": arena,
        "entry": entry,
        "standings": standings_message(arena),
        "min_decisions": settings.ARENA_MIN_DECISIONS,
    }
    return render(request, "tournaments/arena.html", context)


def _answer(request: AuthenticatedHttpRequest, arena_id: int, do: str) -> HttpResponse:
    action = {
        "join": services.arena_join,
        "pause": services.arena_pause,
        "withdraw": services.arena_withdraw,
    }[do]
    try:
        action(user=request.user, arena_id=arena_id)
    except ServiceError as error:  # an arena's code, or a leaver's wait (fairplay)
        messages.error(request, error.message)
    return redirect("arena", arena_id=arena_id)


@login_required
@require_POST
def arena_join(request: AuthenticatedHttpRequest, arena_id: int) -> HttpResponse:
    return _answer(request, arena_id, "join")


@login_required
@require_POST
def arena_pause(request: AuthenticatedHttpRequest, arena_id: int) -> HttpResponse:
    return _answer(request, arena_id, "pause")


@login_required
@require_POST
def arena_withdraw(request: AuthenticatedHttpRequest, arena_id: int) -> HttpResponse:
    return _answer(request, arena_id, "withdraw")


@login_required
def arena_game(request: AuthenticatedHttpRequest, game_id: int) -> JsonResponse:
    """{"arena": {...} or null}: the arena of a game the reader played, for its game-over
    card (games imports nothing from tournaments); read once, when the game is over."""
    return JsonResponse({"arena": arena_game_result(game_id=game_id, user=request.user)})
