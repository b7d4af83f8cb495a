"""Public pages: home and the rule book (the game page links to it from its how-to panel),
and the page a form whose CSRF token no longer holds gets."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

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
