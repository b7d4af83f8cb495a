"""The pages that say "too many" (429) and "the database is away" (503), on a phone and a
desktop, in English and Spanish: nothing scrolls sideways and axe-core finds nothing
serious (pagecheck); screenshots in var/screenshots/. The 503 page asks again by itself
and shows the page once the server answers.

Each page is made in this process, where the limit or the outage is easy to arrange, and
handed to Chromium as the live server's answer at its own address, with its headers (the
CSP among them), so that the site's stylesheets load as they would.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts import limits
from games.computer.moves import computer_game_create
from games.models import Game
from pages.database_away import database_away_response
from tests.e2e.pagecheck import check_page
from tests.live import LivePlatform

pytestmark = [pytest.mark.e2e, pytest.mark.live]

SIZES = [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]
LANGUAGES = ["en", "es"]


def signup_limited(language: str, settings: Any) -> Any:
    settings.SIGNUP_RATE_LIMIT_PER_HOUR = 1
    # Written as the platform writes addresses (realtime.addresses): "::0" would be "::".
    address = f"2001:db8:e2e::{LANGUAGES.index(language) + 1}"
    limits.signup_take(address)
    client = Client(REMOTE_ADDR=address)
    client.cookies["django_language"] = language
    return client.get(reverse("signup"))


def computer_limited(language: str, settings: Any, make_user: Any) -> Any:
    settings.COMPUTER_GAMES_PER_HOUR = 1
    player = make_user(f"busy-{language}")
    game = computer_game_create(user=player, strength="easy")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    client = Client()
    client.force_login(player)
    client.cookies["django_language"] = language
    return client.post(reverse("computer-new"), {"strength": "easy"})


def database_away(language: str) -> Any:
    request = RequestFactory().get("/lobby/", HTTP_ACCEPT_LANGUAGE=language)
    response = database_away_response(request)
    response["Content-Security-Policy"] = Client().get(reverse("rules"))["Content-Security-Policy"]
    return response


def answering(answer: Any) -> Any:
    """A Playwright route handler that gives Django's `answer`, status and headers too."""
    headers = dict(answer.items())

    def fulfil(route: Any) -> None:
        route.fulfill(status=answer.status_code, headers=headers, body=answer.content)

    return fulfil


@pytest.mark.django_db(transaction=True)
def test_the_limit_and_outage_pages(browser: Any, live: LivePlatform, settings: Any) -> None:
    from django.contrib.auth import get_user_model

    def make_user(name: str) -> Any:
        return get_user_model().objects.create_user(username=name, password="felt-green-42x")

    pages = {
        language: {
            "signup-limited": signup_limited(language, settings),
            "computer-limited": computer_limited(language, settings, make_user),
            "database-away": database_away(language),
        }
        for language in LANGUAGES
    }
    for language, answers in pages.items():
        for name, answer in answers.items():
            assert answer.status_code in (429, 503), (name, answer.status_code)
            assert f'<html lang="{language}">' in answer.content.decode()
    for size in SIZES:
        for language, answers in pages.items():
            context = browser.new_context(viewport=size, locale=language)
            page = context.new_page()
            for name, answer in answers.items():
                url = f"{live.url()}/e2e-{name}/"
                page.route(url, answering(answer))
                page.goto(url)
                check_page(page, name, language)
            context.close()


@pytest.mark.django_db(transaction=True)
def test_the_outage_page_goes_back_once_the_server_answers(
    browser: Any, live: LivePlatform
) -> None:
    answer = database_away("en")
    url = f"{live.url()}/e2e-outage/"
    context = browser.new_context(viewport=SIZES[0])
    page = context.new_page()
    asked: list[str] = []

    def outage_then_back(route: Any) -> None:
        asked.append(route.request.url)
        if len(asked) < 3:  # the page itself, then one question in the background: still away
            answering(answer)(route)
        else:
            route.fulfill(
                status=200, content_type="text/html", body="<!doctype html><title>Back</title>"
            )

    page.route(url, outage_then_back)
    page.goto(url)
    assert page.title().startswith("Waiting for the database")
    page.wait_for_function("() => document.title === 'Back'", timeout=20_000)
    assert len(asked) >= 3 and set(asked) == {url}
    context.close()
