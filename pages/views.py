"""Public pages: home and the rule book (full page and a fragment for the game panel)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

from pages.rules import rules_html, rules_language


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/home.html")


def rules(request: HttpRequest) -> HttpResponse:
    body, toc = rules_html()
    return render(request, "pages/rules.html", {"rules_body": body, "rules_toc": toc})


def rules_fragment(request: HttpRequest) -> HttpResponse:
    """Just the rules' HTML, for the game page's side panel (no base template).

    Reading it changes nothing in a game (R8.3): the clock keeps running.
    """
    body, _toc = rules_html()
    lang = rules_language(get_language())
    return HttpResponse(
        f'<article class="rules rules--fragment" lang="{lang}">{body}</article>',
        content_type="text/html; charset=utf-8",
    )
