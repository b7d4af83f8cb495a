"""The "How to play" page in Chromium: every picture is drawn by the game's own modules
(tables with tiles, counters, clocks), on a phone and a desktop, in English and Spanish,
with no sideways scroll and nothing serious for axe; the page is linked from the home
page, the header, the rule book and the game page's how-to panel; and its practice game
against the computer shows a hint at the player's decisions."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db.models import Q
from playwright.sync_api import expect

from games.models import Game
from pages.howto import examples
from tests.e2e.conftest import PHONE, wait_interactive
from tests.e2e.pagecheck import check_page

# The platform with a computer that answers at once, for the practice game.
from tests.e2e.test_computer_browser import live  # noqa: F401
from tests.e2e.test_game_page import (
    click_action,
    version,
    view,
    wait_version_above,
    wait_view,
)
from tests.e2e.test_site_pages import SCHEMES, in_language, unpreloaded_modules
from tests.games.factories import choose, make_game

pytestmark = [pytest.mark.e2e, pytest.mark.live]

SIZES = [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]
PICTURES = ("lead", "fives", "closed", "lateral", "domino")
# A tile's short side on the table, in CSS px, below which its pips are hard to read.
READABLE_UNIT = 18


def drawn_pictures(page: Any) -> dict[str, dict[str, Any]]:
    """Each table picture as drawn: its tiles (SVG groups), the unit of one tile's short
    side in CSS px, and the labels of what the open ends count."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('svg[data-example]')]
          .map((svg) => {
            const face = svg.querySelector('.tile__face');
            const box = face ? face.getBoundingClientRect() : {width: 0, height: 0};
            return [svg.dataset.example, {
              tiles: svg.querySelectorAll('g.tile').length,
              said: Number(svg.dataset.tiles || 0),
              unit: Math.min(box.width, box.height),
              counts: [...svg.querySelectorAll('.howto-count__text')].map((t) => t.textContent),
              width: svg.getBoundingClientRect().width,
            }];
          }))"""
    )


def clock_text(page: Any, name: str) -> tuple[str, str]:
    box = page.locator(f"[data-clock={name}]")
    return box.locator(".clock__delay").inner_text(), box.locator(".clock__bank").inner_text()


def test_how_to_play_draws_every_picture_on_a_phone_and_a_desktop_in_both_languages(
    login_page, make_user
) -> None:
    marta = make_user("marta_gonzalez")
    ex = examples()
    for size in SIZES:
        for language in ("en", "es"):
            page = login_page(marta, size)
            page.emulate_media(color_scheme=SCHEMES[language])
            in_language(page, language)
            response = page.goto(page.live_url + "/how-to-play/")
            assert response is not None and response.status == 200
            page.wait_for_load_state("load")
            assert page.locator("html").get_attribute("lang") == language
            page.wait_for_function(
                "() => [...document.querySelectorAll('svg[data-example]')]"
                ".every((svg) => Number(svg.dataset.tiles) > 0)"
            )
            pictures = drawn_pictures(page)
            assert set(pictures) == set(PICTURES), pictures
            for name, drawn in pictures.items():
                board = ex["auction"]["domino"] if name == "domino" else None
                assert drawn["tiles"] == drawn["said"] > 0, (name, drawn)
                assert drawn["unit"] >= READABLE_UNIT, (name, size, drawn)
                assert drawn["width"] <= size["width"], (name, drawn)
                if board is not None:  # every tile of the round is on the table
                    played = 1 + sum(
                        len(board["board"][arm]) for arm in ("left", "right", "up", "down")
                    )
                    assert drawn["tiles"] == played
            # The open ends' counts written beside them are the engine's.
            assert sorted(pictures["fives"]["counts"]) == sorted(
                str(v) for v in ex["fives"]["ends"].values()
            )
            # Counters: one chip per 5 points of each balance shown.
            chips = page.evaluate(
                "() => [...document.querySelectorAll('.howto [data-balance]')]"
                ".map((el) => [Number(el.dataset.balance), el.querySelectorAll('.chip').length])"
            )
            assert len(chips) == 8 and all(n == balance // 5 > 0 for balance, n in chips), chips
            # The clocks as the game page draws them, at the instants the engine gave.
            assert clock_text(page, "leo") == ("0.0", "1:57")
            assert clock_text(page, "ana") == ("5.0", "2:00")
            assert unpreloaded_modules(page) == []
            check_page(page, "how-to-play", language)
            assert page.errors == [], page.errors


def test_how_to_play_is_linked_from_home_header_rules_and_the_game_page(
    login_page, make_user
) -> None:
    carol, dave = make_user("carol"), make_user("dave")
    game = make_game(carol, dave)
    # The narrowest desktop with one row of links: "How to play" waits in the footer there.
    narrow_desktop = {"width": 1200, "height": 800}
    for size in [*SIZES, narrow_desktop]:
        page = login_page(carol, size)
        in_language(page, "es")  # the longer labels
        for path in ("/", "/rules/"):
            page.goto(page.live_url + path)
            assert page.locator("main a[href='/how-to-play/']").count() >= 1, path
            assert page.locator("footer a[href='/how-to-play/']").count() == 1, path
            # In the header: one row on a desktop; behind the Menu button on a phone.
            header = page.locator(".site-header").bounding_box()
            assert header is not None and header["height"] <= 72, (size, header)
            nav_link = page.locator("#site-nav a[href='/how-to-play/']")
            if size == PHONE:
                page.click(".menu-button")
            assert nav_link.is_visible() == (size != narrow_desktop), size
            top = page.locator("#site-nav a[href='/rules/']").bounding_box()
            here = nav_link.bounding_box()
            if size == SIZES[1]:
                assert top is not None and here is not None
                assert abs(top["y"] - here["y"]) < 2, (top, here)  # the same row
            assert page.evaluate(
                "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
            )
        page.goto(page.live_url + f"/games/{game.pk}/")
        page.wait_for_function("() => window.__interactiveAt !== undefined")
        page.keyboard.press("?")  # the Start card lies over the toolbar until both start
        link = page.locator("#rules-panel a[href='/how-to-play/']")
        assert link.is_visible()


def test_a_practice_game_from_the_page_shows_a_hint_at_each_decision_on_a_phone(
    login_page, make_user
) -> None:
    ana = make_user("ana")
    page = login_page(ana, PHONE)
    page.goto(page.live_url + "/how-to-play/")
    page.locator("#practice button[name=practice]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    wait_interactive(page)
    game = Game.objects.get(Q(player0=ana) | Q(player1=ana))
    assert game.practice and not game.rated
    hint = page.locator("#practice-hint")
    expect(hint.locator(".practice-hint__badge")).to_have_text("Practice")
    hints: list[tuple[str, str]] = []
    for _ in range(40):
        if len(hints) >= 3:
            break
        wait_view(page, "!['playing', 'waiting'].includes(v.status) || v.legal.length > 1")
        shown = view(page)
        if shown["status"] not in ("waiting", "playing"):
            break
        action = choose([a for a in shown["legal"] if a["do"] != "resign"])
        assert action is not None
        if action["do"] not in ("start", "continue"):
            # A decision: the hint says what the view allows, and it is on screen.
            kind = {"play": "play", "lead": "play", "draw": "draw"}.get(action["do"], "auction")
            expect(hint).to_have_attribute("data-hint", kind)
            text = hint.inner_text()
            if kind == "play":
                # The best placement is named once and lit in the hand, not a list of tiles.
                assert text.count("[") <= 1 and ("Best:" in text or "No tile scores" in text)
                lit = 1 if "Best:" in text else 0
                expect(page.locator("#hand .hand-tile--hint")).to_have_count(lit)
            if kind == "auction":  # Bid and Renounce (or Accept and Raise) stay on screen
                for control in page.locator("#auction button:visible").all():
                    box = control.bounding_box()
                    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
            box = hint.bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
            hand = page.locator("#hand").bounding_box()
            assert hand is not None and hand["y"] + hand["height"] <= PHONE["height"], hand
            hints.append((kind, text))
            if len(hints) == 1:
                check_page(page, "practice-game", "en", full_page=False)
        before = version(page)
        click_action(page, action)
        if action["do"] == "draw":  # "Draw until playable": draws until something else
            wait_view(page, "!v.legal.some(a => a.do === 'draw')")
        wait_version_above(page, before)
    assert len(hints) >= 3 or view(page)["status"] == "finished", hints
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    assert page.errors == [], page.errors
