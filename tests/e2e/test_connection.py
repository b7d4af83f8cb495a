"""What the game page shows when its socket is refused or the server goes away (Chromium).

A signed-out player is told so, with a link to sign in, and the page stops reconnecting
(close code 4401). A server that goes away and comes back shows the banner meanwhile and
clears it once the state arrives again. The server is really stopped and started here.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, settle, wait_interactive
from tests.games.factories import make_game
from tests.live import (
    daphne_args,
    database_proxy,
    free_port,
    platform_env,
    spawn,
    wait_for_http,
)

pytestmark = [pytest.mark.e2e, pytest.mark.live]


def open_game(
    login_page: Any, user: Any, device: dict[str, Any], game_id: int, base: str | None = None
) -> tuple[Any, Any]:
    """`user`'s page of a game (served at `base`, else by the test's platform), once
    interactive, and its connection banner."""
    page = login_page(user, device)
    page.goto(f"{base or page.live_url}/games/{game_id}/")
    wait_interactive(page)
    return page, page.locator("#reconnecting")


def start_is_taken(page: Any) -> None:
    """Start the game from its overlay and wait until the start is no longer offered."""
    page.locator("#overlay [data-action=start]").click()
    page.wait_for_function("() => !window.__game.view.legal.some(a => a.do === 'start')")


def test_a_signed_out_player_is_told_to_sign_in_and_the_page_stops_retrying(
    login_page, make_user
) -> None:
    ana, bob = make_user("ana"), make_user("bob")
    game = make_game(ana, bob)
    page, banner = open_game(login_page, ana, DESKTOP, game.pk)
    Session.objects.all().delete()  # signed out elsewhere, or the session expired
    page.evaluate("() => window.__game.socket.ws.close()")  # the next connect is refused
    expect(banner).to_contain_text("You are signed out.")
    link = banner.locator("a")
    expect(link).to_have_text("Sign in again")
    assert link.get_attribute("href") == f"/accounts/login/?next=%2Fgames%2F{game.pk}%2F"
    assert page.evaluate("() => window.__game.socket.finalCode") == 4401
    retries = page.evaluate("() => window.__game.socket.retry")
    settle(1.5)  # longer than the back-off: a retry would have happened by now
    assert page.evaluate("() => window.__game.socket.retry") == retries
    assert page.evaluate("() => window.__game.socket.ws.readyState") == 3  # closed
    expect(banner).to_be_visible()


def test_the_banner_shows_while_the_server_is_away_and_clears_when_it_is_back(
    login_page, make_user
) -> None:
    ana, bob = make_user("ana"), make_user("bob")
    game = make_game(ana, bob)
    port = free_port()
    env = platform_env(DJANGO_ALLOW_ASYNC_UNSAFE="")
    with tempfile.TemporaryDirectory(prefix="restart-") as tmp:
        logs = Path(tmp)
        server = spawn("daphne-first", daphne_args(port), env, logs)
        try:
            wait_for_http(f"http://127.0.0.1:{port}/", server)
            page, banner = open_game(login_page, ana, DESKTOP, game.pk, f"http://127.0.0.1:{port}")
            expect(banner).to_be_hidden()
            server.stop()
            expect(banner).to_be_visible(timeout=10_000)
            expect(banner).to_contain_text("Connection lost")
            server = spawn("daphne-again", daphne_args(port), env, logs)
            wait_for_http(f"http://127.0.0.1:{port}/", server)
            expect(banner).to_be_hidden(timeout=20_000)  # the back-off is at most 10 s
            start_is_taken(page)  # the game is playable again
        finally:
            server.stop()


def test_a_player_who_is_only_waiting_is_told_when_the_database_goes_and_comes_back(
    login_page, make_user
) -> None:
    """Nothing is sent, so no request fails: the server itself says that moves cannot be
    saved (realtime.database_watch), on a phone, and the banner goes once it can again."""
    if connection.vendor != "postgresql":
        pytest.skip("an outage of a database server: PostgreSQL only (SQLite is a file)")
    ana, bob, cleo = make_user("ana"), make_user("bob"), make_user("cleo")
    game = make_game(ana, bob)
    proxy, proxied = database_proxy()
    port = free_port()
    env = platform_env(DJANGO_ALLOW_ASYNC_UNSAFE="", DATABASE_URL=proxied)
    with tempfile.TemporaryDirectory(prefix="db-outage-") as tmp:
        server = spawn("daphne", daphne_args(port), env, Path(tmp))
        try:
            wait_for_http(f"http://127.0.0.1:{port}/", server)
            page, banner = open_game(login_page, ana, PHONE, game.pk, f"http://127.0.0.1:{port}")
            expect(banner).to_be_hidden()
            lobby = login_page(bob, PHONE)
            lobby.goto(f"http://127.0.0.1:{port}/lobby/")
            lobby.wait_for_function("() => document.readyState === 'complete'")
            queue = login_page(cleo, PHONE)
            queue.goto(f"http://127.0.0.1:{port}/play-now/")
            queue.locator("[data-role=join]").click()
            expect(queue.locator("[data-role=message]")).to_contain_text("Waiting for an opponent")
            proxy.cut()
            expect(banner).to_contain_text("cannot save moves", timeout=10_000)
            expect(banner).to_contain_text("more than 20 seconds")
            box = banner.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
            note = lobby.locator("[data-role=service]")
            expect(note).to_contain_text("challenges and the queue wait", timeout=10_000)
            expect(queue.locator("[data-role=message]")).to_contain_text(
                "cannot reach its database", timeout=10_000
            )
            proxy.restore()
            expect(banner).to_be_hidden(timeout=10_000)
            expect(note).to_have_count(0, timeout=10_000)
            expect(queue.locator("[data-role=message]")).to_contain_text(
                "Waiting for an opponent", timeout=10_000
            )
            start_is_taken(page)
        finally:
            server.stop()
            proxy.close()


def test_going_offline_shows_the_banner_at_once_and_coming_back_reconnects(
    login_page, make_user
) -> None:
    """Chromium keeps a socket "open" through its offline emulation, as a connection that
    dies without a close does: the page takes the browser's word (and an unanswered ping)
    instead of waiting a minute for a close."""
    ana, bob = make_user("ana"), make_user("bob")
    game = make_game(ana, bob)
    page, banner = open_game(login_page, ana, PHONE, game.pk)
    expect(banner).to_be_hidden()
    page.context.set_offline(True)
    expect(banner).to_be_visible(timeout=3_000)
    expect(banner).to_contain_text("Connection lost")
    settle(2.0)
    page.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=5_000)
    start_is_taken(page)
