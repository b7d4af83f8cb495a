"""NUL in any URL, query string, form field or cookie is a 400 or a form error, never a 500.

Generated from the URL conf (every pattern, NUL in each captured parameter in turn) and
from the project's forms (NUL in each field in turn), so a new URL or form is covered by
itself. PostgreSQL refuses NUL in text: run with DATABASE_URL for the test to mean that.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django import forms
from django.test import Client
from django.urls import URLResolver, get_resolver

from accounts.forms import SignupForm
from fairplay.forms import ReportForm
from games.forms import SameDeviceForm
from realtime.characters import holds_refused_character
from tournaments.forms import ArenaForm

pytestmark = pytest.mark.django_db

NUL = "a\x00b"
NUL_IN_URL = "a%00b"
PROJECT = ("accounts", "games", "lobby", "tournaments", "ratings", "pages", "realtime", "fairplay")
PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern).lstrip("^")
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        else:
            yield route.replace("$", "").replace("^", "")


def _urls() -> Iterator[str]:
    """Each pattern's address with NUL in one parameter (the others "1"), or, for a pattern
    without parameters, in its query string."""
    for route in _routes(get_resolver().url_patterns):
        names = [a or b for a, b in PARAMETER.findall(route)]
        if not names:
            yield f"/{route}?next={NUL_IN_URL}"
        for target in names:

            def value(match: re.Match[str], target: str = target) -> str:
                return NUL_IN_URL if (match[1] or match[2]) == target else "1"

            yield "/" + PARAMETER.sub(value, route)


URLS = sorted(set(_urls()))


def test_every_pattern_is_generated() -> None:
    assert "/accounts/a%00b/" in URLS
    assert "/games/a%00b/replay/1/computer/" in URLS and "/games/1/replay/a%00b/computer/" in URLS
    assert "/lobby/challenges/?next=a%00b" in URLS
    assert len(URLS) > 100


@pytest.fixture
def clients(admin_user: Any, client_logged_in: Any) -> list[Client]:
    """Anyone, and an admin, who reaches the admin's pages too."""
    return [Client(), client_logged_in(admin_user)]


@pytest.mark.parametrize("url", URLS)
def test_nul_in_any_url_is_a_400(url: str, clients: list[Client]) -> None:
    for client in clients:
        for method in (client.get, client.post):
            assert method(url).status_code == 400, (method.__name__, url)


@pytest.mark.parametrize("url", ["/lobby/challenges/", "/accounts/signup/", "/accounts/login/"])
def test_nul_in_any_form_field_is_a_400(url: str, clients: list[Client]) -> None:
    for client in clients:
        assert client.post(url, {"opponent": NUL}).status_code == 400
        assert client.post(url, {"username": "x", "password": NUL}).status_code == 400
        assert client.post(url, {NUL: "x"}).status_code == 400


def test_nul_in_a_cookie_is_a_400_not_a_session_read() -> None:
    client = Client()
    client.cookies["sessionid"] = "abcdefgh\x00ijklmnop"
    assert client.get("/").status_code == 400


def test_the_400_page_is_the_sites_in_the_readers_language() -> None:
    client = Client()
    client.cookies["django_language"] = "es"
    response = client.get(f"/accounts/{NUL_IN_URL}/")
    assert response.status_code == 400
    assert '<html lang="es">' in response.content.decode()


def _project_forms() -> list[type[forms.BaseForm]]:
    found: list[type[forms.BaseForm]] = []
    todo = list(forms.BaseForm.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.__module__.split(".")[0] in PROJECT and not cls.__module__.startswith("tests"):
            found.append(cls)
    return sorted(set(found), key=lambda cls: f"{cls.__module__}.{cls.__qualname__}")


FORMS = _project_forms()


def test_every_form_is_found() -> None:
    assert {SignupForm, SameDeviceForm, ArenaForm} <= set(FORMS)


# What a form needs beyond its data to be made (a new form that needs more fails here).
FORM_ARGUMENTS: dict[type[forms.BaseForm], dict[str, Any]] = {ReportForm: {"players": ["bob"]}}


@pytest.mark.parametrize("form_class", FORMS, ids=lambda cls: cls.__qualname__)
def test_nul_in_each_field_of_every_form_is_a_form_error(form_class: type[forms.BaseForm]) -> None:
    """Refused by the field, or not kept (a checkbox reads any value as "on")."""
    for name in form_class.base_fields:
        form = form_class(data={name: NUL}, **FORM_ARGUMENTS.get(form_class, {}))
        assert not form.is_valid()
        kept = str(form.cleaned_data.get(name, ""))
        assert name in form.errors or not holds_refused_character(kept), (form_class, name)


def test_the_check_knows_nul() -> None:
    assert holds_refused_character(NUL) and not holds_refused_character("ab ñ €")
