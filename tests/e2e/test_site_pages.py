"""Every page but the game's, as a player meets it: on a phone and a desktop, in English
and Spanish, nothing scrolls sideways and axe-core finds nothing serious (pagecheck).

One browser, one context per size and language, the pages visited in a loop; each page's
screenshot lands in var/screenshots/. Also: the profile's rating chart draws its line in
Spanish (decimal commas once broke its SVG), and the replay steps without a page load.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.pagecheck import check_page
from tests.games.factories import drive, make_game, played_game

pytestmark = [pytest.mark.e2e, pytest.mark.live]

SIZES = [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]
LANGUAGES = ["en", "es"]
# Both themes are checked by axe (contrast above all): English dark, Spanish light.
SCHEMES = {"en": "dark", "es": "light"}
# Bytes of JavaScript and CSS per page, decoded (unminified here). Every page of a signed-in
# player carries the user socket (js/user.js, realtime/socket.js: 18 KB here, 3.8 KB as
# served, minified and gzipped); the heaviest, the replay in Spanish, weighs 115 KB.
PAGE_WEIGHT_LIMIT = 120_000


class PageWeights:
    """Decoded bytes of each page's scripts and stylesheets (the JS catalogue included).

    A file the browser took from its cache reports no size, so each file's size is kept
    from the visit that downloaded it and a page's weight is the sum over all its files.
    """

    def __init__(self) -> None:
        self.sizes: dict[str, int] = {}

    def of(self, page: Any) -> int:
        entries = page.evaluate(
            """() => performance.getEntriesByType('resource')
              .filter((e) => /[.](js|css)([?]|$)/.test(e.name))
              .map((e) => [e.name, e.decodedBodySize])"""
        )
        for url, size in entries:
            self.sizes[url] = max(size, self.sizes.get(url, 0))
        assert all(self.sizes[url] > 0 for url, _size in entries), entries
        return sum(self.sizes[url] for url, _size in entries)


def unpreloaded_modules(page: Any) -> list[str]:
    """Module scripts the page loaded without a <link rel="modulepreload">: such an import
    is requested only once the module importing it has arrived, a second wave."""
    return page.evaluate(
        """() => {
          const preloaded = new Set([...document.querySelectorAll('link[rel=modulepreload]')]
            .map((link) => link.href));
          return performance.getEntriesByType('resource').map((e) => e.name)
            // site.js and the JavaScript catalogue are classic scripts, not modules.
            .filter((url) => /[.]js$/.test(url) && !url.endsWith('/js/site.js'))
            .filter((url) => !url.includes('/jsi18n/'))
            .filter((url) => !preloaded.has(url));
        }"""
    )


def check_phone_header(page: Any) -> None:
    """On a phone the header is one row; its links open behind the Menu button."""
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= 56, header
    live_link = page.locator("#site-nav a[href='/lobby/live/']")
    assert not live_link.is_visible()
    page.click(".menu-button")
    assert live_link.is_visible()
    assert page.locator(".menu-button").get_attribute("aria-expanded") == "true"
    page.keyboard.press("Escape")
    assert not live_link.is_visible()


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
    assert len(chart["points"]) == 3 and all(x > 0 and y > 0 for x, y in chart["points"]), chart


def step_replay_without_loading(page: Any) -> None:
    """Forward, back, a click in the move list and Last: the table changes, no page loads."""
    documents: list[str] = []
    page.on("request", lambda r: documents.append(r.url) if r.resource_type == "document" else None)
    page.evaluate("() => { window.__sameDocument = true; }")
    root = page.locator("#replay")
    board = page.locator("#replay-board")
    assert root.get_attribute("data-step") == "12"
    page.click("[data-go=first]")
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
    # The move list is one tab stop; its arrows step and keep the focus on the current move.
    assert page.locator("#replay-moves [tabindex='0']").count() == 1
    page.keyboard.press("ArrowDown")
    assert page.evaluate("() => document.activeElement.dataset.step") == "6"
    page.keyboard.press("ArrowUp")
    assert root.get_attribute("data-step") == "5"
    # Play runs on by itself until paused.
    page.click("[data-go=play]")
    page.wait_for_function("() => Number(document.getElementById('replay').dataset.step) >= 7")
    page.click("[data-go=play]")
    paused_at = root.get_attribute("data-step")
    assert page.locator("[data-go=play]").inner_text() == "Play"
    page.click("[data-go=last]")
    assert paused_at != root.get_attribute("data-step")
    last = len(page.locator("#replay-moves li").all()) - 1
    assert root.get_attribute("data-step") == str(last)
    # Both hands are on the table once the game is over, each drawn as tiles.
    assert page.locator(".replay__seat .tile-svg").count() >= 1
    assert page.evaluate("() => window.__sameDocument === true")
    assert documents == [], documents
    assert page.url.endswith(f"?step={last}")
    page.click("[data-go=first]")


def test_every_page_fits_the_phone_and_passes_axe_in_both_languages(
    login_page,
    make_user,
) -> None:
    # A player with a long-ish name and several rated games (a chart and a games table),
    # a finished game to replay, and a game in progress for the live list.
    marta, roberto = make_user("marta_gonzalez"), make_user("roberto_alvarez")
    carol, dave = make_user("carol"), make_user("dave")
    finished = [played_game(marta, roberto, winner) for winner in (0, 1)]
    # Started, with banks that outlast the test: a game left waiting is aborted after its
    # start timeout (R7), and a slow run must not see it leave the live list.
    live_game = make_game(carol, dave, banks=(3600.0, 3600.0))
    drive(live_game.pk, (carol, dave), lambda view: view["status"] == "playing")
    paths = {
        "home": "/",
        "lobby": "/lobby/",
        "profile": "/accounts/marta_gonzalez/",
        "leaderboard": "/leaderboard/",
        # Mid-game, so that the screenshot shows tiles on the table and in both hands.
        "replay": f"/games/{finished[-1].pk}/replay/?step=12",
        "rules": "/rules/",
        "live-games": "/lobby/live/",
        "play-now": "/play-now/",
    }
    weights = PageWeights()
    for size in SIZES:
        for language in LANGUAGES:
            page = login_page(marta, size)
            page.emulate_media(color_scheme=SCHEMES[language])
            in_language(page, language)
            for name, path in paths.items():
                response = page.goto(page.live_url + path)
                assert response is not None and response.status == 200, path
                page.wait_for_load_state("load")
                weight = weights.of(page)
                assert weight < PAGE_WEIGHT_LIMIT, (name, weight)
                assert unpreloaded_modules(page) == [], name
                if name == "home" and size == SIZES[0]:
                    check_phone_header(page)
                if name == "replay":
                    page.locator("#replay-board[data-tiles]").wait_for()
                if name == "profile":
                    assert_chart_drawn(page)
                if name == "live-games":
                    assert page.locator(f"a[href='/games/{live_game.pk}/']").count() == 1
                check_page(page, name, language)
                if name == "replay" and size == SIZES[0] and language == "en":
                    step_replay_without_loading(page)
                if name == "lobby" and size == SIZES[0]:
                    # A flash message and a challenge card, in each language.
                    page.click("form[action$='/lobby/challenges/'] button[type=submit]")
                    page.locator(".messages").wait_for()
                    page.locator("li.challenge").first.wait_for()
                    check_page(page, "lobby-challenge", language)
            assert page.errors == [], page.errors
