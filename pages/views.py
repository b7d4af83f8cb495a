"""Public pages: home and the rule book (the game page links to it from its how-to panel),
the page a form whose CSRF token no longer holds gets, and the 400 handler."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views import defaults

from pages.database_away import caused_by_database, database_away_response
from pages.rules import rules_html


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/home.html")


def rules(request: HttpRequest) -> HttpResponse:
    body, toc = rules_html()
    return render(request, "pages/rules.html", {"rules_body": body, "rules_toc": toc})


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
