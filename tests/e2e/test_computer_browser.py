"""Play the computer from the home page on a phone, in a real Chromium against the real
platform (Daphne + a Celery worker whose computer answers quickly)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db.models import Q
from playwright.sync_api import expect

from games import engine
from games.models import Game
from tests.e2e.conftest import PHONE, wait_interactive
from tests.e2e.test_game_page import click_action, version, view
from tests.games.factories import choose
from tests.live import LivePlatform, live_platform

pytestmark = [pytest.mark.e2e, pytest.mark.live]


@pytest.fixture(scope="module")
def live(django_db_setup: None, django_db_blocker: Any) -> Iterator[LivePlatform]:
    """The e2e platform, with a computer that pauses and thinks only briefly."""
    env = {
        "DJANGO_ALLOW_ASYNC_UNSAFE": "",
        "COMPUTER_PAUSE_SECONDS": "0.05",
        "COMPUTER_THINK_SECONDS": "0.05",
        "COMPUTER_SUGGEST_SECONDS": "0.1",
    }
    with live_platform(env=env) as platform:
        yield platform


@pytest.fixture
def platform_logs_on_failure(live: LivePlatform) -> Iterator[None]:
    """The platform's logs, in the captured output pytest shows when the test fails."""
    yield
    print(live.logs())


def test_play_the_computer_from_the_home_page_on_a_phone(
    login_page, make_user, platform_logs_on_failure
) -> None:
    ana = make_user("ana")
    page = login_page(ana, viewport=PHONE)
    page.goto(page.live_url + "/")
    hard = page.locator("form.computer-form button[value=hard]")
    expect(hard).to_be_visible()
    box = hard.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    hard.click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    wait_interactive(page)
    game = Game.objects.get(Q(player0=ana) | Q(player1=ana))
    assert game.bots() and not game.rated
    expect(page.locator("#seat-top .seat__name")).to_have_text("Computer")
    expect(page.locator("#seat-top .seat__rating")).to_have_text("(hard)")
    # Asking again leads back to this game with a message, which floats over the table:
    # the page stays one screen tall, the hand in view, and the message goes by itself.
    page.goto(page.live_url + "/")
    page.locator("form.computer-form button[value=easy]").click()
    page.wait_for_url(re.compile(rf"/games/{game.pk}/$"))
    wait_interactive(page)
    expect(page.locator(".messages")).to_contain_text("already playing the computer")
    top = "document.querySelector('.game').getBoundingClientRect().top"
    assert page.evaluate(f"{top} === document.querySelector('.site-header').offsetHeight")
    hand = page.locator("#hand").bounding_box()
    assert hand is not None and hand["y"] + hand["height"] <= PHONE["height"], hand
    expect(page.locator(".messages")).to_have_count(0, timeout=10_000)
    # The longest name a seat shows, the computer's in Spanish, is shown whole on a phone.
    for language in ("es", "en"):
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": page.live_url}]
        )
        page.reload()
        wait_interactive(page)
        name = page.locator("#seat-top .seat__name")
        expect(name).to_have_text("Ordenador" if language == "es" else "Computer")
        strength = page.locator("#seat-top .seat__rating")
        expect(strength).to_have_text("(difícil)" if language == "es" else "(hard)")
        clipped = "e => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight"
        assert not name.evaluate(clipped), language
        assert not page.locator("#seat-top .seat__meta").evaluate(clipped), language
    # A few of the player's decisions, each answered by the computer in between.
    computer_lines = "() => [...document.querySelectorAll('#feed li')].filter(li =>"
    computer_lines += " li.textContent.includes('Computer (hard)')).length"
    lines_before = page.evaluate(computer_lines)
    decisions = 0
    computer_decisions = 0
    for _ in range(60):
        if decisions >= 4:
            break
        page.wait_for_function(
            "() => { const v = window.__game.view; return v && (v.status !== 'playing' && "
            "v.status !== 'waiting' || v.legal.some(a => a.do !== 'resign')); }"
        )
        shown = view(page)
        if shown["status"] not in ("waiting", "playing"):
            break
        action = choose([a for a in shown["legal"] if a["do"] != "resign"])
        assert action is not None
        before = version(page)
        click_action(page, action)
        if action["do"] == "draw":
            page.wait_for_function("() => !window.__game.view.legal.some(a => a.do === 'draw')")
        page.wait_for_function(f"() => window.__game.version > {before}")
        decisions += action["do"] not in ("start", "continue")
        game.refresh_from_db()
        computer_decisions = game.actions.filter(
            user__bot__isnull=False, error="", action__do__in=list(engine.DECISIONS)
        ).count()
    assert decisions >= 4 or view(page)["status"] == "finished"
    assert computer_decisions >= 2
    # The live game log has the computer's moves too (in the embedded mode they reach
    # the page only through its ticks' resyncs), without a reload.
    assert page.evaluate(computer_lines) >= lines_before + 2
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    # Game over: the computer takes no challenge, so the page offers a new game at once.
    if view(page)["status"] == "playing":
        page.click("#resign-open")
        page.click("#resign-confirm")
    again = page.locator("#overlay form [name=strength]")
    expect(again).to_have_value("hard")
    # The replay asks the computer what it would have done at one of ana's decisions.
    game.refresh_from_db()
    rows = list(game.actions.filter(error="").order_by("seq"))
    step = next(
        number
        for number, row in enumerate(rows, start=1)
        if row.user_id == ana.pk and row.action["do"] in engine.DECISIONS
    )
    page.goto(f"{page.live_url}/games/{game.pk}/replay/?step={step}")
    page.click("[data-computer-suggestion] [data-action=suggest]")
    answer = page.locator("[data-computer-suggestion] output")
    expect(answer).to_contain_text(re.compile("The computer would"))
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    # The board and the controls under it on the screen the page opened on: a step needs
    # no scroll.
    expect(page.locator("#replay-board")).to_be_in_viewport()
    forward = page.locator(".replay__controls [data-go=forward]")
    box = forward.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    before = page.locator("#replay-position").inner_text()
    forward.click()
    expect(page.locator("#replay-position")).not_to_have_text(before)
    # In Spanish too, each control's word fits its button on one line, whole ("Reproducir"
    # ran over "Avanzar", and once words could break, broke in two).
    page.click(".lang-switch button[value=es]")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    cramped = page.evaluate(
        """[...document.querySelectorAll('.replay__controls button')].filter((b) => {
             const range = document.createRange();
             range.selectNodeContents(b);
             return range.getClientRects().length !== 1 || b.scrollWidth > b.clientWidth;
           }).map((b) => b.textContent.trim())"""
    )
    assert cramped == [], cramped
    assert page.errors == []
