"""The "Play now" button in a real browser: two players press it and land on one game."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.live]


def record_navigations(page: Any) -> tuple[list[str], list[str]]:
    """The documents the page requests from now on, and those whose request failed (a
    navigation aborted by a second one fails with net::ERR_ABORTED)."""
    started: list[str] = []
    failed: list[str] = []
    page.on("request", lambda r: started.append(r.url) if r.is_navigation_request() else None)
    page.on(
        "requestfailed",
        lambda r: failed.append(f"{r.url} {r.failure}") if r.is_navigation_request() else None,
    )
    return started, failed


def assert_one_navigation_to_the_game(
    navigations: tuple[list[str], list[str]], game_path: str
) -> None:
    started, failed = navigations
    assert [url for url in started if url.endswith(game_path)] == [
        next(url for url in started if url.endswith(game_path))
    ], started
    assert failed == [], failed


def test_two_players_press_play_now_and_land_on_the_same_game(login_page, make_user) -> None:
    from games.models import Game

    ana, bob = make_user("ana"), make_user("bob")
    page_a, page_b = login_page(ana), login_page(bob)
    base: str = page_a.live_url
    page_a.goto(f"{base}/lobby/")
    page_a.click("a[href='/play-now/']")
    page_a.wait_for_url(re.compile(r"/play-now/$"))
    page_a.click("[data-role=join]")
    page_a.wait_for_selector("#play-now[data-state=waiting]")
    facts = page_a.locator("[data-role=facts]").inner_text()
    assert "1400 \u2013 1600" in facts and "±100" in facts
    page_b.goto(f"{base}/play-now/")
    navigations = [record_navigations(page_a), record_navigations(page_b)]
    page_b.click("[data-role=join]")
    for page in (page_a, page_b):
        page.wait_for_url(re.compile(r"/games/\d+/$"), timeout=5_000)
        page.wait_for_load_state("load")
    assert page_a.url == page_b.url
    game = Game.objects.get()
    assert page_a.url.endswith(f"/games/{game.pk}/")
    # The pairing reached each page twice (a push and an answer): one navigation each.
    page_a.wait_for_timeout(500)
    for recorded in navigations:
        assert_one_navigation_to_the_game(recorded, f"/games/{game.pk}/")
    assert {game.player0_id, game.player1_id} == {ana.pk, bob.pk}
    assert not page_a.errors and not page_b.errors, (page_a.errors, page_b.errors)


def test_cancel_leaves_the_queue(login_page, make_user) -> None:
    from lobby.models import QueueEntry

    ana = make_user("ana")
    page = login_page(ana)
    page.goto(f"{page.live_url}/play-now/")
    page.click("[data-role=join]")
    page.wait_for_selector("#play-now[data-state=waiting]")
    assert QueueEntry.objects.filter(user=ana).exists()
    page.click("[data-role=leave]")
    page.wait_for_selector("#play-now[data-state=idle]")
    for _ in range(50):
        if not QueueEntry.objects.filter(user=ana).exists():
            break
        page.wait_for_timeout(100)
    assert not QueueEntry.objects.filter(user=ana).exists()
    # Joining again, then leaving the page, also leaves the queue (the socket closes).
    page.click("[data-role=join]")
    page.wait_for_selector("#play-now[data-state=waiting]")
    page.goto(f"{page.live_url}/leaderboard/")
    for _ in range(50):
        if not QueueEntry.objects.filter(user=ana).exists():
            break
        page.wait_for_timeout(100)
    assert not QueueEntry.objects.filter(user=ana).exists()
    assert not page.errors, page.errors


def test_every_play_now_tab_of_a_player_shows_one_queue(login_page, make_user) -> None:
    """Two tabs of one player: joining in one shows the other waiting (with its Cancel);
    leaving in either stops both, and neither puts the player back nor gets them paired;
    closing one of two waiting tabs leaves the other waiting."""
    from games.models import Game
    from lobby.models import QueueEntry

    cleo, dave = make_user("cleo"), make_user("dave")
    first = login_page(cleo)
    base: str = first.live_url
    second = first.context.new_page()
    for tab in (first, second):
        tab.goto(f"{base}/play-now/")
        tab.wait_for_selector("#play-now[data-state=idle]")
    first.click("[data-role=join]")
    second.wait_for_selector("#play-now[data-state=waiting]")
    assert second.locator("[data-role=leave]").is_visible()
    assert not second.locator("[data-role=join]").is_visible()
    second.reload()
    second.wait_for_selector("#play-now[data-state=waiting]")
    assert second.locator("[data-role=leave]").is_visible()

    second.click("[data-role=leave]")
    first.wait_for_selector("#play-now[data-state=idle]")
    assert "You left the queue." in first.locator("[data-role=message]").inner_text()
    first.wait_for_timeout(3000)  # more than a status poll: nobody joins again
    assert not QueueEntry.objects.filter(user=cleo).exists()
    other = login_page(dave)
    other.goto(f"{base}/play-now/")
    other.click("[data-role=join]")
    other.wait_for_selector("#play-now[data-state=waiting]")
    other.wait_for_timeout(1500)
    assert not Game.objects.exists()
    other.click("[data-role=leave]")
    other.wait_for_selector("#play-now[data-state=idle]")

    first.click("[data-role=join]")
    second.wait_for_selector("#play-now[data-state=waiting]")
    second.close()
    first.wait_for_timeout(3000)
    assert first.locator("#play-now").get_attribute("data-state") == "waiting"
    assert QueueEntry.objects.filter(user=cleo).exists()
    assert not first.errors, first.errors
