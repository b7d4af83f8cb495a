"""Public pages: home and the rule book (the game page links to it from its how-to panel)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from pages.rules import rules_html


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/home.html")


def rules(request: HttpRequest) -> HttpResponse:
    body, toc = rules_html()
    return render(request, "pages/rules.html", {"rules_body": body, "rules_toc": toc})
