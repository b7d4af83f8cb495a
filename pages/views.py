"""Public pages: home, how to play, the rule book (the game page links to both from its
how-to panel), the page a form whose CSRF token no longer holds gets, and the 400 handler."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views import defaults

from pages.database_away import caused_by_database, database_away_response
from pages.howto import MODULES, examples, pictures
from pages.rules import rules_html


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/home.html")


def rules(request: HttpRequest) -> HttpResponse:
    body, toc = rules_html()
    return render(request, "pages/rules.html", {"rules_body": body, "rules_toc": toc})


def how_to_play(request: HttpRequest) -> HttpResponse:
    """The game taught by worked examples, each played by the engine (pages.howto)."""
    ex = examples()
    context = {
        "ex": ex,
        "transfer_pair": (ex["transfer"]["before"], ex["transfer"]["after"]),
        "auction_pair": (ex["auction"]["before"], ex["auction"]["after"]),
        "pictures": pictures(),
        "modules": MODULES,
    }
    return render(request, "pages/how_to_play.html", context)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent with a stale token (signed in or out in another tab since): the site's
    own page in the reader's language, not Django's bare one (CSRF_FAILURE_VIEW)."""
    return render(request, "403_csrf.html", status=403)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400 page (handler400), except for a session that could not be saved because
    the database is away, which SessionMiddleware reports as a 400: that is the 503 page."""
    if caused_by_database(exception):
        return database_away_response(request)
    return defaults.bad_request(request, exception)
