"""An arena played in Chromium on phones: two players join from the home page in one tap,
are paired when it starts and taken to their game, and a third player watching the arena's
page sees the standings move when the game ends (a resignation at once: too short to
count, and shown so). The arena and list pages pass the site's page check in both
languages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.e2e.pagecheck import check_page
from tournaments.models import Arena, ArenaPlayer
from tournaments.tasks import arenas_tick_task

pytestmark = [pytest.mark.e2e, pytest.mark.live]


def test_join_from_home_get_paired_play_and_see_the_standings_move(login_page, make_user):
    ana, ben, cai = (make_user(name) for name in ("ana", "ben", "cai"))
    arena = Arena.objects.create(
        name="Tuesday arena", starts_at=timezone.now() + timedelta(hours=1), minutes=30
    )
    pages = {}
    aborted: list[str] = []  # a reload of the arena's page must never cut the way to the game
    for user in (ana, ben):
        page = login_page(user, PHONE, touch=True)
        page.on(
            "requestfailed",
            lambda request: "/games/" in request.url and aborted.append(request.url),
        )
        page.goto(f"{page.live_url}/")
        join = page.locator(".arenas-to-join").get_by_role("button", name="Join")
        expect(join).to_be_visible()
        join.click()
        page.wait_for_url(f"**/arenas/{arena.pk}/")
        expect(page.locator("[data-role=you]")).to_contain_text("You are in")
        pages[user.get_username()] = page
    assert ArenaPlayer.objects.filter(arena=arena, state="active").count() == 2
    watcher = login_page(cai, PHONE, touch=True)
    watcher.goto(f"{watcher.live_url}/arenas/{arena.pk}/")
    expect(watcher.locator(".standings tbody tr")).to_have_count(2)

    # The arena starts; the worker's tick pairs the two, whose pages take them to the game.
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now())
    arenas_tick_task.delay()
    for page in pages.values():
        page.wait_for_url("**/games/*/", timeout=20_000)
    game_url = pages["ana"].url
    assert pages["ben"].url == game_url
    assert aborted == []

    for page in pages.values():  # an arena game starts like any other: both press Start
        page.locator("#overlay [data-action=start]").click()
    ben = pages["ben"]
    expect(ben.locator("#overlay")).to_be_hidden()
    ben.click("#resign-open")
    ben.click("#resign-confirm")
    expect(pages["ana"].locator("#overlay")).to_contain_text("ana won", timeout=15_000)
    # The watcher's page was reloaded by the start; its standings now show the game, which
    # ended before either made a decision: too short to count, and said so, live.
    first_row = watcher.locator(".standings tbody tr").first
    expect(first_row).to_contain_text("+1 too short", timeout=15_000)
    expect(first_row).to_contain_text("0\u20130")  # wins, an en dash, losses
    latest = watcher.locator("[data-role=games] li").first
    expect(latest).to_contain_text("ana beat ben")
    expect(latest).to_contain_text("too short: counts nothing")
    assert [page.errors for page in (*pages.values(), watcher)] == [[], [], []]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_arena_pages_fit_a_phone_in_both_languages(login_page, make_user, lang):
    ana = make_user("ana")
    arena = Arena.objects.create(
        name="Una arena de nombre bastante largo para un teléfono",
        starts_at=timezone.now() + timedelta(minutes=5),
        minutes=60,
    )
    page = login_page(ana, PHONE, touch=True)
    page.goto(f"{page.live_url}/arenas/{arena.pk}/")
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": page.live_url}])
    page.goto(f"{page.live_url}/arenas/{arena.pk}/")
    join = page.get_by_role("button", name="Join" if lang == "en" else "Unirse")
    expect(join).to_be_in_viewport()
    # The legend is a paragraph of its own, not run on from the last line of the games.
    games = page.locator("[data-role=games]").bounding_box()
    legend = page.locator(".arena__legend").bounding_box()
    assert games and legend and legend["y"] >= games["y"] + games["height"] + 8, (games, legend)
    check_page(page, "arena", lang)
    page.goto(f"{page.live_url}/arenas/")
    check_page(page, "arenas", lang)
