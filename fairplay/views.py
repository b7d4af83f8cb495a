"""Fair play's pages: the report form and its confirmation, and reading a warning. Thin:
services write, selectors read."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from fairplay.errors import FairPlayError
from fairplay.forms import ReportForm
from fairplay.services import report_create, warning_read
from games.http import AuthenticatedHttpRequest
from games.models import Game


def _same_site(path: str) -> str:
    """`path` if it is a path on this site, else the home page."""
    if path.startswith("/") and not path.startswith("//") and "\\" not in path:
        return path if path.isprintable() else reverse("home")
    return reverse("home")


def _int_or_404(value: str | None) -> int | None:
    if not value:
        return None
    if not value.isascii() or not value.isdigit() or len(value) > 18:
        raise Http404
    return int(value)


def _subject(request: AuthenticatedHttpRequest) -> tuple[list[str], Game | None, str]:
    """Whom the page may report (the usernames offered), the game, and where "Back" goes."""
    params = request.POST if request.method == "POST" else request.GET
    game_id = _int_or_404(params.get("game"))
    if game_id is not None:
        game = Game.objects.select_related("player0", "player1").filter(pk=game_id).first()
        if game is None:
            raise Http404
        if game.same_device or game.against_computer:
            return [], game, reverse("game", kwargs={"game_id": game.pk})
        players = [
            p.get_username() for p in (game.player0, game.player1) if p.pk != request.user.pk
        ]
        return players, game, reverse("game", kwargs={"game_id": game.pk})
    username = params.get("player", "")
    if "\x00" in username or len(username) > 150:
        raise Http404
    player = get_user_model().objects.filter(username=username, is_active=True).first()
    if player is None:
        raise Http404
    back = reverse("profile", kwargs={"username": player.get_username()})
    return ([] if player.pk == request.user.pk else [player.get_username()]), None, back


@login_required
def report(request: AuthenticatedHttpRequest) -> HttpResponse:
    """GET ?player=NAME or ?game=ID: the form; POST: the report, then its confirmation."""
    players, game, back = _subject(request)
    form = ReportForm(request.POST if request.method == "POST" else None, players=players)
    status = 200 if players else 400
    if request.method == "POST" and players and form.is_valid():
        try:
            sent = report_create(
                reporter=request.user,
                username=form.cleaned_data["player"],
                reason=form.cleaned_data["reason"],
                text=form.cleaned_data["text"],
                game_id=game.pk if game else None,
            )
        except FairPlayError as error:
            form.add_error(None, error.message)
            status = 429 if error.code == "report_limit" else 400
        else:
            query = urlencode({"player": sent.player.get_username(), "back": back})
            return redirect(f"{reverse('fairplay-report-sent')}?{query}")
    elif form.is_bound:
        status = 400
    context = {"form": form, "players": players, "game": game, "back": back}
    return render(request, "fairplay/report.html", context, status=status)


@login_required
def report_sent(request: AuthenticatedHttpRequest) -> HttpResponse:
    back = _same_site(request.GET.get("back", ""))
    player = request.GET.get("player", "").replace("\x00", "")[:150]
    return render(request, "fairplay/report_sent.html", {"player": player, "back": back})


@login_required
@require_POST
def warning_read_view(request: AuthenticatedHttpRequest, warning_id: int) -> HttpResponse:
    warning_read(user=request.user, warning_id=warning_id)
    return redirect(_same_site(request.POST.get("back", "")))
