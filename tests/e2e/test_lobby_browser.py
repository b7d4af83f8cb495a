"""The lobby page in a real browser: its module script keeps the list live, in Spanish too."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_play_now_browser import assert_one_navigation_to_the_game, record_navigations

pytestmark = [pytest.mark.e2e, pytest.mark.live]


def open_lobby_in_spanish(page) -> None:
    page.context.add_cookies(
        [{"name": "django_language", "value": "es", "domain": "127.0.0.1", "path": "/"}]
    )
    page.goto(f"{page.live_url}/lobby/")
    # Rendered by lobby.js from the socket's first push, with the catalogue's words.
    page.wait_for_function("document.querySelector('#challenge-list li') !== null")


def ana_and_bob(login_page: Any, make_user: Any) -> tuple[Any, Any, str]:
    """Ana's and Bob's signed-in pages, and the address of the platform they use."""
    ana, bob = make_user("ana"), make_user("bob")
    page_a, page_b = login_page(ana), login_page(bob)
    return page_a, page_b, page_a.live_url


def assert_no_script_errors(*pages: Any) -> None:
    assert not any(page.errors for page in pages), [page.errors for page in pages]


def test_a_new_challenge_appears_live_in_the_players_language(login_page, make_user) -> None:
    page_a, page_b, base = ana_and_bob(login_page, make_user)
    open_lobby_in_spanish(page_b)
    assert page_b.locator("#challenge-list").inner_text().strip() == "No hay desafíos abiertos."
    page_a.goto(f"{base}/lobby/")
    page_a.click("form[action$='/lobby/challenges/'] button[type=submit]")
    row = page_b.locator("li.challenge")
    row.wait_for()
    assert row.inner_text().startswith("Desafío abierto de ana")
    assert row.locator("button").inner_text() == "Aceptar"
    assert_no_script_errors(page_a, page_b)


def test_accepting_a_challenge_opens_the_game_once_for_each_player(login_page, make_user) -> None:
    """The accepter's form redirect and the socket's redirect used to race: two navigations."""
    from games.models import Game

    page_a, page_b, base = ana_and_bob(login_page, make_user)
    page_a.goto(f"{base}/lobby/")
    page_a.fill("#id_opponent", "bob")
    page_a.click("form[action$='/lobby/challenges/'] button[type=submit]")
    page_a.locator(".messages").wait_for()
    page_b.goto(f"{base}/lobby/")
    navigations = [record_navigations(page_a), record_navigations(page_b)]
    page_b.locator("li.challenge form[action$='/accept/'] button").click()
    for page in (page_a, page_b):
        page.wait_for_url(re.compile(r"/games/\d+/$"), timeout=5_000)
        page.wait_for_load_state("load")
    game = Game.objects.get()
    page_b.wait_for_timeout(500)
    for recorded in navigations:
        assert_one_navigation_to_the_game(recorded, f"/games/{game.pk}/")
    assert_no_script_errors(page_a, page_b)


def test_the_live_games_list_shows_a_new_game_without_a_reload(login_page, make_user) -> None:
    """A game created elsewhere (here on a shared screen, by ana) appears on bob's list."""
    page_a, page_b, base = ana_and_bob(login_page, make_user)
    page_b.goto(f"{base}/lobby/live/")
    empty = page_b.locator("#live-games").inner_text().strip()
    assert empty == "No game is being played right now."
    page_b.evaluate("() => { window.__sameDocument = true; }")
    page_a.goto(f"{base}/games/same-device/")
    page_a.click("form[action$='/games/same-device/'] button[type=submit]")
    page_a.wait_for_url(re.compile(r"/games/\d+/$"))
    game_path = page_a.url.removeprefix(base)
    row = page_b.locator(f"#live-games a[href='{game_path}']")
    row.wait_for()
    # Named as its game page names the seats, without the account's rating (unrated).
    assert row.inner_text().split("\n")[0] == "Player 1 vs Player 2"
    assert "Watch" in row.inner_text()
    assert page_b.evaluate("() => window.__sameDocument === true")
    assert_no_script_errors(page_a, page_b)


def test_the_challenger_sees_who_declined_in_their_language(login_page, make_user) -> None:
    page_a, page_b, base = ana_and_bob(login_page, make_user)
    open_lobby_in_spanish(page_a)
    page_a.fill("form[action$='/lobby/challenges/'] input[name=opponent]", "Bob")
    page_a.click("form[action$='/lobby/challenges/'] button[type=submit]")
    page_a.locator(".message").filter(has_text="Desafío enviado a bob.").wait_for()
    page_b.goto(f"{base}/lobby/")
    page_b.locator("li.challenge button", has_text="Decline").click()
    page_a.locator(".message[role=status]", has_text="bob rechazó tu desafío.").wait_for()
    assert_no_script_errors(page_a, page_b)
