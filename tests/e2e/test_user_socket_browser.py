"""The user socket in a real browser: what concerns a player reaches them on any page.

A challenge made by one player appears on the other's home, rules and profile pages, with
Accept and Decline; the header shows "your game" (whose turn, the player's clock) and
follows the game's turns; a rematch offer reaches a player who left the game's page; and
"Play now" offers the computer while nobody is waiting.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.conftest import PHONE
from tests.e2e.pagecheck import check_page

pytestmark = [pytest.mark.e2e, pytest.mark.live, pytest.mark.slow]

DESKTOP_SMALL = {"width": 1280, "height": 800}


@pytest.fixture
def relayed(live: Any, settings: Any) -> None:
    """Changes this test makes through the services reach the platform's sockets: with
    Redis directly, embedded through the web process's relay (as its worker does)."""
    if not settings.REDIS_URL:
        settings.EMBEDDED_RELAY_URL = f"{live.url()}/realtime/relay/"


def in_spanish(page: Any) -> None:
    page.context.add_cookies(
        [{"name": "django_language", "value": "es", "domain": "127.0.0.1", "path": "/"}]
    )


def challenge(page: Any, username: str) -> float:
    """Challenge `username` from the lobby; the page's clock (ms) as the form is sent."""
    page.goto(f"{page.live_url}/lobby/")
    page.fill("#id_opponent", username)
    sent_at = float(page.evaluate("() => Date.now()"))
    page.click("form[action$='/lobby/challenges/'] button[type=submit]")
    page.locator(".messages").wait_for()
    return sent_at


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], (page.url, width)


def header_one_row(page: Any) -> None:
    """With "your game" in it, the header keeps its one row (the pill takes the brand's
    name's room on a phone), so nothing below it moves."""
    height = page.evaluate("() => document.querySelector('.site-header').offsetHeight")
    root = "parseFloat(getComputedStyle(document.documentElement).fontSize)"
    assert height <= page.evaluate(f"() => 3.75 * {root} + 1"), (page.url, height)


def user_socket_open(page: Any) -> None:
    """The page's user socket has told it the player's news (user_socket/static/js/user.js)."""
    page.wait_for_function("() => document.body.dataset.userSocket === 'ready'")


def test_a_challenge_reaches_the_player_on_any_page_and_is_accepted_there(
    login_page, make_user
) -> None:
    from games.models import Game

    ana, bob = make_user("ana"), make_user("bob")
    page_a = login_page(ana)
    page_b = login_page(bob, PHONE)
    base: str = page_b.live_url
    delays = {}
    for path in ("/", "/rules/", "/accounts/bob/"):
        page_b.goto(f"{base}{path}")
        user_socket_open(page_b)
        sent_at = challenge(page_a, "bob")
        toast = page_b.locator("[data-notice^='challenge-']")
        toast.wait_for()
        delays[path] = float(toast.get_attribute("data-shown-at")) - sent_at
        assert "ana challenges you" in toast.inner_text()
        if path == "/":
            check_page(page_b, "notice-challenge", "en", full_page=False)
        no_sideways_scroll(page_b)
        if path != "/accounts/bob/":
            toast.locator("button", has_text="Decline").click()
            toast.wait_for(state="detached")
    print(f"\nchallenge sent -> notice shown on bob's page (ms): {delays}")
    page_b.locator("[data-notice^='challenge-'] button", has_text="Accept").click()
    page_b.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get(status=Game.Status.WAITING)
    assert page_b.url.endswith(f"/games/{game.pk}/")
    page_a.wait_for_url(re.compile(rf"/games/{game.pk}/$"))  # the lobby follows the pairing
    assert not page_a.errors and not page_b.errors, (page_a.errors, page_b.errors)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP_SMALL], ids=["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "es"])
def test_the_header_shows_your_game_and_follows_its_turns(
    login_page, make_user, relayed, viewport, language
) -> None:
    from games import engine
    from games.services import game_create, game_submit_action

    ana, bob = make_user("ana"), make_user("bob")
    game = game_create(player0=ana, player1=bob)
    page = login_page(bob, viewport)
    if language == "es":
        in_spanish(page)
    words = {
        "en": ("vs ana", "Your turn", "Their turn"),
        "es": ("contra ana", "Te toca", "Le toca"),
    }[language]
    page.goto(f"{page.live_url}/rules/")
    pill = page.locator(".site-header [data-your-game]")
    assert pill.is_visible()
    # Drawn by the server: both have to press Start, on a full bank.
    assert pill.get_attribute("href") == f"/games/{game.pk}/"
    assert words[0] in pill.inner_text() and words[1] in pill.inner_text()
    assert pill.locator("[data-slot=clock]").inner_text() == "2:00"
    no_sideways_scroll(page)
    header_one_row(page)
    user_socket_open(page)
    for user in (ana, bob):
        game_submit_action(game_id=game.pk, user=user, action={"do": "start"}, request_id=None)
    game.refresh_from_db()
    state = engine.from_json(game.state)
    seat_b = game.seats_of(bob.pk)[0]
    to_act = state.to_act
    expected = words[1] if to_act == seat_b else words[2]
    page.wait_for_function(
        "(text) => document.querySelector('.site-header [data-your-game]').innerText"
        ".includes(text)",
        arg=expected,
    )
    # Whoever is to act moves: the turn passes, and bob's header says so without a reload.
    mover = bob if to_act == seat_b else ana
    action = engine.choices_of(state, to_act)[0]
    game_submit_action(game_id=game.pk, user=mover, action=action, request_id=None)
    game.refresh_from_db()
    after = engine.from_json(game.state).to_act
    if after != to_act:
        flipped = words[1] if after == seat_b else words[2]
        page.wait_for_function(
            "(text) => document.querySelector('.site-header [data-your-game]').innerText"
            ".includes(text)",
            arg=flipped,
        )
    clock = pill.locator("[data-slot=clock]").inner_text()
    assert re.fullmatch(r"[0-2]:[0-5]\d", clock), clock
    check_page(page, "your-game-rules", language, full_page=False)
    # The home page shows it too, as a card one tap from the game.
    page.goto(f"{page.live_url}/")
    card = page.locator(".your-game--card")
    assert card.is_visible() and card.get_attribute("href") == f"/games/{game.pk}/"
    check_page(page, "your-game-home", language, full_page=False)
    assert not page.errors, page.errors


def test_a_rematch_offer_reaches_the_player_on_another_page(login_page, make_user, relayed) -> None:
    from games.models import Game
    from games.services import game_create, game_rematch, game_submit_action

    ana, bob = make_user("ana"), make_user("bob")
    game = game_create(player0=ana, player1=bob)
    for user in (ana, bob):
        game_submit_action(game_id=game.pk, user=user, action={"do": "start"}, request_id=None)
    game_submit_action(game_id=game.pk, user=bob, action={"do": "resign"}, request_id=None)
    page = login_page(bob, PHONE)
    page.goto(f"{page.live_url}/leaderboard/")
    user_socket_open(page)
    assert not page.locator(".site-header [data-your-game]").is_visible()  # the game is over
    assert game_rematch(game_id=game.pk, user=ana, answer="offer").ok
    toast = page.locator(f"[data-notice='rematch-{game.pk}']")
    toast.wait_for()
    assert "ana offers a rematch" in toast.inner_text()
    check_page(page, "notice-rematch", "en", full_page=False)
    toast.locator("button", has_text="Accept").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game.refresh_from_db()
    assert game.rematch_game_id is not None
    assert page.url.endswith(f"/games/{game.rematch_game_id}/")
    assert Game.objects.get(pk=game.rematch_game_id).status == Game.Status.WAITING
    assert not page.errors, page.errors


def test_play_now_offers_the_computer_while_nobody_waits(login_page, make_user) -> None:
    from games.models import Game
    from lobby.models import QueueEntry

    ana = make_user("ana")
    page = login_page(ana, PHONE)
    page.goto(f"{page.live_url}/play-now/")
    page.click("[data-role=join]")
    page.wait_for_selector("#play-now[data-state=waiting]")
    meanwhile = page.locator("[data-role=meanwhile]")
    assert not meanwhile.is_visible()
    meanwhile.wait_for(state="visible", timeout=15_000)
    no_sideways_scroll(page)
    assert meanwhile.locator("input[value=keep]").is_checked()
    meanwhile.locator("button[data-strength=easy]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert game.against_computer and page.url.endswith(f"/games/{game.pk}/")
    # The place is kept, held while the game lasts (closing the page did not drop it).
    page.wait_for_timeout(500)
    assert QueueEntry.objects.get(user=ana).held
    page.goto(f"{page.live_url}/play-now/")
    page.locator("[data-role=held]").wait_for(state="visible")
    assert not page.errors, page.errors


def test_a_game_made_while_the_player_is_elsewhere_is_one_tap_away(
    login_page, make_user, relayed
) -> None:
    """Bob challenged ana and went to read the rules; she accepts: his page says so."""
    from lobby import challenges

    ana, bob = make_user("ana"), make_user("bob")
    made = challenges.challenge_create(challenger=bob, opponent_username="ana")
    page = login_page(bob, PHONE)
    in_spanish(page)
    page.goto(f"{page.live_url}/rules/")
    user_socket_open(page)
    assert not page.locator(".site-header [data-your-game]").is_visible()
    game = challenges.challenge_accept(challenge_id=made.pk, user=ana)
    toast = page.locator(f"[data-notice='game-{game.pk}']")
    toast.wait_for()
    assert "Tu partida contra ana está lista" in toast.inner_text()
    assert page.locator(".site-header [data-your-game]").is_visible()
    no_sideways_scroll(page)
    toast.locator("a", has_text="Ir a tu partida").click()
    page.wait_for_url(re.compile(rf"/games/{game.pk}/$"))
    assert not page.errors, page.errors


def test_the_lobby_pages_use_the_one_socket_of_the_page(login_page, make_user) -> None:
    ana = make_user("ana")
    page = login_page(ana, PHONE)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url.split("/ws/", 1)[1]))
    for path, socket in [
        ("/lobby/", "user/?challenges=1&live=1"),
        ("/lobby/live/", "user/?live=1"),
        ("/play-now/", "user/"),
        ("/rules/", "user/"),
    ]:
        sockets.clear()
        page.goto(f"{page.live_url}{path}")
        user_socket_open(page)
        page.wait_for_timeout(300)
        assert sockets == [socket], (path, sockets)
    # The lobby's list still arrives over it.
    page.goto(f"{page.live_url}/lobby/")
    page.wait_for_function("() => document.querySelector('#challenge-list li') !== null")
    assert not page.errors, page.errors


def test_an_arena_that_starts_is_told_on_any_page(login_page, make_user, relayed) -> None:
    from django.utils import timezone

    from tournaments.models import Arena
    from tournaments.services import arena_join, arena_start

    ana = make_user("ana")
    arena = Arena.objects.create(name="Hourly", starts_at=timezone.now())
    arena_join(user=ana, arena_id=arena.pk)
    page = login_page(ana, PHONE)
    in_spanish(page)
    page.goto(f"{page.live_url}/leaderboard/")
    user_socket_open(page)
    arena_start(arena_id=arena.pk)
    notice = page.locator(f"[data-notice='arena-{arena.pk}']")
    notice.wait_for()
    assert "Tu arena Hourly ha empezado" in notice.inner_text()
    no_sideways_scroll(page)
    notice.locator("a", has_text="Abrir").click()
    page.wait_for_url(re.compile(rf"/arenas/{arena.pk}/"))
    assert not page.errors, page.errors
