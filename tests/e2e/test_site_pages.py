"""Every page but the game's, as a player meets it: on a phone and a desktop, in English
and Spanish, nothing scrolls sideways and axe-core finds nothing serious (pagecheck).

One browser, one context per size and language, the pages visited in a loop; each page's
screenshot lands in var/screenshots/. Also: the profile's rating chart draws its line in
Spanish (decimal commas once broke its SVG), and the replay steps without a page load.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from tests.e2e.conftest import browser, live, login_page, make_user  # noqa: F401
from tests.e2e.pagecheck import check_page
from tests.games.factories import drive, make_game, seeded_deals
from tests.ratings.conftest import BALANCES_FOR_WINNER

pytestmark = [pytest.mark.e2e, pytest.mark.live]

SIZES = [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]
LANGUAGES = ["en", "es"]


def finished_game(p0: Any, p1: Any, winner: int) -> Game:
    game = make_game(p0, p1, balances=BALANCES_FOR_WINNER[winner], deals=seeded_deals(7))
    return drive(game.pk, (p0, p1), lambda view: view["status"] == "finished")


def in_language(page: Any, language: str) -> None:
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "domain": "127.0.0.1", "path": "/"}]
    )


def chart_geometry(page: Any) -> dict[str, Any]:
    """The rating chart as drawn: its line's length (0 when its points did not parse), the
    baseline's height and every point's centre (0 when "44,0" was written for 44.0)."""
    return page.evaluate(
        """() => {
          const svg = document.querySelector('.rating-chart svg');
          const base = svg.querySelector('line');
          return {
            line: svg.querySelector('.rating-chart__line').getTotalLength(),
            baseline: base.y1.baseVal.value,
            points: [...svg.querySelectorAll('circle')]
              .map((c) => [c.cx.baseVal.value, c.cy.baseVal.value]),
          };
        }"""
    )


def assert_chart_drawn(page: Any) -> None:
    chart = chart_geometry(page)
    assert chart["line"] > 100, chart
    assert chart["baseline"] > 0, chart
    assert len(chart["points"]) == 4 and all(x > 0 and y > 0 for x, y in chart["points"]), chart


def step_replay_without_loading(page: Any) -> None:
    """Forward, back, a click in the move list and Last: the table changes, no page loads."""
    documents: list[str] = []
    page.on("request", lambda r: documents.append(r.url) if r.resource_type == "document" else None)
    page.evaluate("() => { window.__sameDocument = true; }")
    root = page.locator("#replay")
    board = page.locator("#replay-board")
    assert root.get_attribute("data-step") == "0"
    for _ in range(3):
        page.click("[data-go=forward]")
    assert root.get_attribute("data-step") == "3"
    assert int(board.get_attribute("data-tiles") or 0) >= 1
    page.click("[data-go=back]")
    assert root.get_attribute("data-step") == "2"
    page.keyboard.press("ArrowRight")
    assert root.get_attribute("data-step") == "3"
    page.locator("#replay-moves [data-step='5']").click()
    assert page.locator("#replay-moves [aria-current=step]").get_attribute("data-step") == "5"
    page.click("[data-go=last]")
    last = len(page.locator("#replay-moves li").all()) - 1
    assert root.get_attribute("data-step") == str(last)
    # Both hands are on the table once the game is over, each drawn as tiles.
    assert page.locator(".replay__seat .tile-svg").count() >= 1
    assert page.evaluate("() => window.__sameDocument === true")
    assert documents == [], documents
    assert page.url.endswith(f"?step={last}")
    page.click("[data-go=first]")


def test_every_page_fits_the_phone_and_passes_axe_in_both_languages(
    login_page,  # noqa: F811
    make_user,  # noqa: F811
) -> None:
    # A player with a long-ish name and several rated games (a chart and a games table),
    # a finished game to replay, and a game in progress for the live list.
    marta, roberto = make_user("marta_gonzalez"), make_user("roberto_alvarez")
    carol, dave = make_user("carol"), make_user("dave")
    finished = [finished_game(marta, roberto, winner) for winner in (0, 1, 0)]
    live_game = make_game(carol, dave)
    paths = {
        "home": "/",
        "lobby": "/lobby/",
        "profile": "/accounts/marta_gonzalez/",
        "leaderboard": "/leaderboard/",
        "replay": f"/games/{finished[-1].pk}/replay/",
        "rules": "/rules/",
        "live-games": "/games/live/",
    }
    for size in SIZES:
        for language in LANGUAGES:
            page = login_page(marta, size)
            in_language(page, language)
            for name, path in paths.items():
                response = page.goto(page.live_url + path)
                assert response is not None and response.status == 200, path
                page.wait_for_load_state("load")
                if name == "replay":
                    page.locator("#replay-board[data-tiles]").wait_for()
                if name == "profile":
                    assert_chart_drawn(page)
                if name == "live-games":
                    assert page.locator(f"a[href='/games/{live_game.pk}/']").count() == 1
                check_page(page, name, language)
                if name == "replay" and size == SIZES[0] and language == "en":
                    step_replay_without_loading(page)
            assert page.errors == [], page.errors
