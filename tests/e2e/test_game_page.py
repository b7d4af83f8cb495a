"""The game page in a real Chromium against the real platform (Daphne + Celery worker).

Two browser contexts are two users. Everything is done through the page's controls; the
page's `window.__game` is read to know what the server offers (`legal`) and which version
is shown, and used once to send an illegal request on purpose.

Deterministic parts use fixed deals (tests/games/factories.py): round 1 is SPINNER_DEAL,
where seat 0 leads [5|5] by rank (scores 10), seat 1's [5|0] fits both arms (an end to
choose, and it scores 10), there are draws (seat 0 draws six in a row), and seat 1 goes
out (domino), so round 2 opens with an auction.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.e2e.conftest import DESKTOP, PHONE, settle, wait_interactive
from tests.e2e.pagecheck import check_page, screenshot_path, sideways_overflow, text_lines
from tests.games.factories import (
    SPINNER_DEAL,
    choose,
    make_game,
    seeded_deals,
    started_in_the_past,
)

pytestmark = [pytest.mark.e2e, pytest.mark.live, pytest.mark.slow]


def view(page: Any) -> dict[str, Any]:
    return page.evaluate("window.__game.view")


def version(page: Any) -> int:
    return int(page.evaluate("window.__game.version"))


def wait_view(page: Any, condition: str) -> None:
    """Wait until `condition`, a JS expression on the shown view `v`, holds."""
    page.wait_for_function(f"() => (v => !!v && ({condition}))(window.__game.view)")


def wait_version_above(page: Any, before: int) -> None:
    page.wait_for_function(f"() => window.__game.version > {before}")


def click_action(page: Any, action: dict[str, Any]) -> None:
    """Do `action` through the page's controls (never through the socket)."""
    do = action["do"]
    if do in ("start", "continue", "reveal"):
        page.locator(f"[data-action={do}]:visible").first.click()
    elif do in ("play", "lead"):
        page.click(f"#hand .hand-tile[data-tile='{action['tile']}']")
        choice_box = page.locator("#end-choice")
        if do == "play" and choice_box.is_visible():
            choice_box.locator(f"button[data-end={action['end']}]").click()
    elif do == "draw":
        page.click("#draw-all")
    elif do in ("accept", "renounce"):
        page.click(f"#auction [data-action={do}]")
    elif do in ("bid", "raise"):
        set_amount(page, action["amount"])
        page.click(f"#auction [data-action={do}]")
    else:  # pragma: no cover
        raise AssertionError(f"no control for {action}")


def set_amount(page: Any, amount: int) -> None:
    for _ in range(40):
        shown = int(page.inner_text("#auction .auction__amount"))
        if shown == amount:
            return
        page.click(f"#auction [data-action={'bid-up' if shown < amount else 'bid-down'}]")
    raise AssertionError(f"could not set the amount to {amount}")


LAPTOP = {"width": 1280, "height": 800}


def shot(page: Any, name: str, *, axe: bool = False) -> None:
    """var/screenshots/NAME-WxH-LANG.png and no sideways scrolling; with `axe`, also no
    serious or critical axe-core violation (a few seconds each: kept to the moments that
    matter, the game live and over)."""
    lang = page.evaluate("document.documentElement.lang")
    if axe:
        check_page(page, name, lang, full_page=False)
        return
    path = screenshot_path(page, name, lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))
    assert sideways_overflow(page) is None, (name, lang, sideways_overflow(page))


def assert_in_view(page: Any, selector: str) -> None:
    """The element is inside the viewport without scrolling, and nothing scrolls sideways."""
    box = page.evaluate(
        """(sel) => {
        const e = document.querySelector(sel);
        if (!e) return null;
        const r = e.getBoundingClientRect();
        return {top: r.top, left: r.left, bottom: r.bottom, right: r.right, w: r.width,
                scrollY: scrollY, innerWidth, innerHeight,
                scrollWidth: document.scrollingElement.scrollWidth};
    }""",
        selector,
    )
    assert box is not None, f"no {selector}"
    assert box["w"] > 0 and box["scrollY"] == 0, (selector, box)
    assert box["top"] >= 0 and box["bottom"] <= box["innerHeight"], (selector, box)
    assert box["left"] >= 0 and box["right"] <= box["innerWidth"], (selector, box)
    assert box["scrollWidth"] <= box["innerWidth"], (selector, box)


def assert_header_usable(page: Any) -> None:
    """While a card covers the table, the site's header still takes clicks: the languages,
    and the links (on a phone behind Menu, which opens over the card)."""
    for button in page.locator(".lang-switch button").all():
        button.click(trial=True, timeout=2000)  # trial: fails if anything covers it
    menu = page.locator(".menu-button")
    opened = menu.is_visible()
    focused = page.evaluate("document.activeElement.dataset.action")
    if opened:
        menu.click()
    rules = page.locator(".site-nav a[href$='/rules/']")
    rules.click(trial=True, timeout=2000)
    if opened:
        menu.click()
        expect(rules).to_be_hidden()
        page.focus(f"#overlay [data-action={focused}]")  # as the player left it


def step(pages: list[Any], *, avoid_first_tile: bool = False) -> bool:
    """One decision through the UI by whoever has one. False when nobody can act."""
    # The other page learns of the last move a moment later (through Redis when it is set):
    # wait until every page shows the newest version before deciding who may act.
    newest = max(version(page) for page in pages)
    for page in pages:
        page.wait_for_function(f"() => window.__game.version >= {newest}")
    for page in pages:
        v = view(page)
        action = choose([a for a in v["legal"] if a["do"] != "resign"])
        if action is None:
            continue
        before = version(page)
        click_action(page, action)
        if action["do"] == "draw":
            # "Draw until playable" sends draws until the server offers something else.
            wait_view(page, "!v.legal.some(a => a.do === 'draw')")
            page.wait_for_function("() => !window.__game.socket.pending.size")
        else:
            wait_version_above(page, before)
        return True
    return False


def assert_fits(page: Any, label: str) -> dict[str, Any]:
    """Nothing overflows horizontally and the whole board is inside the viewport."""
    m = page.evaluate(
        """() => {
        const svg = document.getElementById('board');
        const r = svg.getBoundingClientRect();
        let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
        for (const t of svg.querySelectorAll('.tile')) {
          const b = t.getBoundingClientRect();
          minX = Math.min(minX, b.left); minY = Math.min(minY, b.top);
          maxX = Math.max(maxX, b.right); maxY = Math.max(maxY, b.bottom);
        }
        return {scrollWidth: document.scrollingElement.scrollWidth, innerWidth: innerWidth,
                innerHeight: innerHeight, svg: [r.left, r.top, r.right, r.bottom],
                tiles: [minX, minY, maxX, maxY], count: svg.querySelectorAll('.tile').length,
                mode: svg.dataset.mode};
    }"""
    )
    assert m["scrollWidth"] <= m["innerWidth"], (label, m)
    left, top, right, bottom = m["svg"]
    assert left >= 0 and top >= 0 and right <= m["innerWidth"] and bottom <= m["innerHeight"], (
        label,
        m,
    )
    t_left, t_top, t_right, t_bottom = m["tiles"]
    assert t_left >= left - 1 and t_top >= top - 1, (label, m)
    assert t_right <= right + 1 and t_bottom <= bottom + 1, (label, m)
    return m


def test_challenge_from_the_lobby_opens_the_game_for_both(login_page, make_user) -> None:
    ana, bob = make_user("ana"), make_user("bob")
    page_a, page_b = login_page(ana, PHONE), login_page(bob, DESKTOP)
    base = _base(page_a)
    page_a.goto(f"{base}/lobby/")
    page_a.fill("#id_opponent", "bob")
    page_a.click("form[action$='/lobby/challenges/'] button[type=submit]")
    page_b.goto(f"{base}/lobby/")
    page_b.locator("li.challenge button", has_text=re.compile("Accept")).first.click()
    page_b.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = page_b.url
    # The challenger is sent to the game by the lobby socket; fall back to the URL.
    try:
        page_a.wait_for_url(re.compile(r"/games/\d+/$"), timeout=5_000)
    except Exception:
        page_a.goto(game_url)
    tti = [wait_interactive(page_a), wait_interactive(page_b)]
    print(f"\ntime to interactive (lobby game): phone {tti[0]:.0f} ms, desktop {tti[1]:.0f} ms")
    for page in (page_a, page_b):
        expect(page.locator("[data-action=start]")).to_be_visible()
        page.click("[data-action=start]")
    # Round 1 leads by rank automatically; someone now has a turn and a running clock.
    page_a.wait_for_function("() => window.__game.view.status === 'playing'")
    running = page_a.locator(".clock--running")
    expect(running).to_have_count(1)
    assert not page_a.errors and not page_b.errors, (page_a.errors, page_b.errors)


def _base(page: Any) -> str:
    return page.live_url  # type: ignore[attr-defined]


def in_spanish(page: Any) -> Any:
    page.context.add_cookies(
        [{"name": "django_language", "value": "es", "domain": "127.0.0.1", "path": "/"}]
    )
    return page


def test_two_players_play_a_round_and_an_auction_through_the_page(
    login_page, make_user, artifacts
) -> None:
    """Two players (a phone in English, a laptop in Spanish) and two spectators who join
    late (the other two combinations): every moment fits the screen and is photographed."""
    ana, bob, carol = make_user("ana"), make_user("bob"), make_user("carol")
    game = make_game(ana, bob, deals=[SPINNER_DEAL, *seeded_deals(4)])
    page_a = login_page(ana, PHONE)  # seat 0, a phone held upright
    page_b = in_spanish(login_page(bob, LAPTOP))  # seat 1, a laptop, in Spanish
    url = f"{_base(page_a)}/games/{game.pk}/"
    page_a.goto(url)
    page_b.goto(url)
    tti = [wait_interactive(page_a), wait_interactive(page_b)]
    print(f"\ntime to interactive: phone {tti[0]:.0f} ms, laptop {tti[1]:.0f} ms")
    assert all(0 < t < 15_000 for t in tti)
    for page in (page_a, page_b):
        assert_in_view(page, "#overlay [data-action=start]")
        # Focus is on Start already: Enter presses it (no Tab needed).
        assert page.evaluate("document.activeElement.dataset.action") == "start"
        assert_header_usable(page)

    # P1: both press Start (ana with the keyboard); the lead by rank [5|5] scores 10 for ana.
    page_a.keyboard.press("Enter")
    page_b.click("[data-action=start]")
    page_b.wait_for_function("() => window.__game.view.to_act === 1")
    expect(page_a.locator("#seat-bottom .balance__number")).to_have_text("160")
    expect(page_b.locator("#seat-bottom .balance__number")).to_have_text("140")

    # Bob's [5|0] fits both arms of the spinner: selecting it shows both ends as targets.
    tile = page_b.locator("#hand .hand-tile[data-tile='5-0']")
    expect(tile).to_have_class(re.compile("hand-tile--playable"))
    # Not playable tiles are marked so (only `legal` tiles are offered).
    expect(page_b.locator("#hand .hand-tile[data-tile='3-3']")).to_have_attribute(
        "aria-disabled", "true"
    )
    tile.click()
    expect(page_b.locator("#board .target")).to_have_count(2)
    expect(page_b.locator("#end-choice")).to_be_visible()
    # The end discs stay off the spinner, and show an arrow (a word would not fit its disc).
    overlap = page_b.evaluate(
        """() => {
        const s = document.querySelector('#board .tile--spinner').getBoundingClientRect();
        return [...document.querySelectorAll('#board .target__disc')].map((d) => {
            const r = d.getBoundingClientRect();
            return Math.max(0, Math.min(r.right, s.right) - Math.max(r.left, s.left))
                * Math.max(0, Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top));
        });
    }"""
    )
    assert overlap == [0, 0], overlap
    arrows = page_b.locator("#board .target__text").evaluate_all(
        "(texts) => texts.map((t) => t.textContent)"
    )
    assert set(arrows) <= set("←→↑↓") and len(arrows) == 2, arrows
    # On the phone, the round, the boneyard and the count sit above the board, not on it.
    gap = page_a.evaluate(
        """() => document.getElementById('board').getBoundingClientRect().top
                 - document.querySelector('.table__info').getBoundingClientRect().bottom"""
    )
    assert gap >= 0, gap

    # An illegal request (ana draws out of turn) is refused with a visible message.
    page_a.evaluate("window.__game.send({do: 'draw'})")
    toast = page_a.locator(".toast")
    expect(toast.first).to_be_visible()
    expect(toast.first).to_contain_text(re.compile("not your turn", re.I))

    before = version(page_b)
    page_b.locator("#board .target[data-end=right]").click()
    wait_version_above(page_b, before)
    # After choosing an end, the keyboard stays in the hand (not on the page's body).
    assert page_b.evaluate("!!document.activeElement.closest('#hand')")
    # The scoring play (count 10) moves 10 points back: labelled transfer, counters at 150.
    expect(page_a.locator(".transfer-label", has_text="+10").first).to_be_visible()
    expect(page_b.locator("#seat-bottom .balance__number")).to_have_text("150")
    expect(page_a.locator("#seat-bottom .balance__number")).to_have_text("150")
    expect(page_a.locator("#feed")).to_contain_text("bob played [5|0] on the right: 10 points")
    # A reload mid-turn: same state, the clock still running (not restarted, R7.8).
    page_a.wait_for_function("() => window.__game.view.to_act === 0")
    clock_before = view(page_a)["clock"]
    hand_before = view(page_a)["hand"]
    settle(1.2)
    page_a.reload()
    wait_interactive(page_a)
    # The log is rebuilt from the action log after a reload.
    expect(page_a.locator("#feed")).to_contain_text("bob played [5|0] on the right: 10 points")
    after = view(page_a)
    assert after["clock"]["decision_start"] == clock_before["decision_start"]
    assert after["hand"] == hand_before
    first = float(page_a.inner_text("#seat-bottom .clock__delay"))
    settle(0.6)
    second = float(page_a.inner_text("#seat-bottom .clock__delay"))
    assert second < first < 10.0, (first, second)
    expect(page_a.locator("#seat-bottom .clock")).to_have_class(re.compile("clock--running"))
    # Spectators who join now get the game log so far (and no hand).
    watchers = [in_spanish(login_page(carol, PHONE)), login_page(carol, LAPTOP)]
    for page in watchers:
        page.goto(url)
        wait_interactive(page)
    expect(watchers[1].locator("#feed")).to_contain_text("bob played [5|0] on the right")
    expect(watchers[1].locator("#feed")).to_contain_text("ana leads by rank with [5|5]")
    for page in (page_a, page_b, *watchers):
        shot(page, "game-live", axe=page in (page_a, page_b))

    # Play the round out through the page (draws included) until the round closes.
    pages = [page_a, page_b]
    drew = False
    shots_taken = False
    for _ in range(120):
        v = view(page_a)
        if v["phase"] == "round_over":
            break
        tiles_on_table = int(page_a.evaluate("document.getElementById('board').dataset.tiles"))
        if not shots_taken and tiles_on_table >= 20:
            # A long round on the table: both sizes fit, screenshots as artifacts.
            for page, name in ((page_a, "phone-390x844"), (page_b, "laptop-1280x800")):
                m = assert_fits(page, name)
                path = artifacts / f"game-{name}.png"
                page.screenshot(path=str(path))
                print(f"screenshot {name}: {path} ({m['count']} tiles, {m['mode']} layout)")
            shots_taken = True
        drew = drew or any(a["do"] == "draw" for p in pages for a in view(p)["legal"])
        assert step(pages), "nobody could act"
    else:
        raise AssertionError("round 1 did not end")
    assert drew, "the round had no draw"
    # The page sent nothing the server refused, except the one illegal request on purpose.
    assert page_a.evaluate("window.__game.errors") == [], "errors after the reload"
    assert page_b.evaluate("window.__game.errors") == []
    assert shots_taken, "the table never held a long round"
    expect(page_a.locator("#feed")).to_contain_text(re.compile(r"ana drew a tile|ana drew \["))

    # Round summary: both hands, totals, payments; Continue (P2) by both, in view at once.
    expect(page_a.locator("#overlay .overlay__title")).to_contain_text("domino")
    expect(page_a.locator("#overlay")).to_contain_text("bob went out")
    # After a domino nothing is paid for the tiles left (R5.5): they are shown, not added up.
    expect(page_a.locator("#overlay")).to_contain_text("ana still held")
    expect(page_a.locator("#overlay")).not_to_contain_text("points in hand")
    expect(page_b.locator("#feed")).to_contain_text("ana ha pulsado Iniciar")
    for page in pages:
        expect(page.locator("#overlay .summary-payments li").first).to_be_visible()
        assert_in_view(page, "#overlay [data-action=continue]")
        assert_in_view(page, "#overlay .overlay__countdown")
        assert page.evaluate("document.activeElement.dataset.action") == "continue"
        assert_header_usable(page)
    for page in (*pages, *watchers):
        wait_view(page, "v.phase === 'round_over'")
        shot(page, "game-summary")
    # "See the table" folds the card to show the final board, and back.
    page_b.click("#overlay [data-action=peek]")
    expect(page_b.locator("#overlay .overlay__body")).to_be_hidden()
    assert_in_view(page_b, "#overlay [data-action=continue]")
    page_b.click("#overlay [data-action=peek]")
    expect(page_b.locator("#overlay .overlay__body")).to_be_visible()
    page_a.keyboard.press("Enter")
    page_b.click("#overlay [data-action=continue]")

    # Round 2: bob went out, so he is the jockey; ana (rival) bids 15, bob raises to 20,
    # which costs him 5 with the jockey discount (net_cost from the view), ana accepts.
    wait_view(page_a, "v.phase === 'auction' && v.to_act === 0")
    balances = [p["balance"] for p in view(page_a)["players"]]
    expect(page_a.locator("#auction")).to_contain_text("Jockey (went out last round): bob")
    expect(page_a.locator("#auction")).to_contain_text("Rival: you")
    expect(page_a.locator("#auction")).to_contain_text("leads the next round with any tile")
    expect(page_a.locator("#auction")).to_contain_text("Renounce: bob leads for free")
    # Said to the rival as "you"; to the jockey, by the rival's name.
    expect(page_a.locator("#auction")).to_contain_text("No bid yet: you bid at least 15")
    expect(page_b.locator("#auction")).to_contain_text("Aún no hay puja: ana puja al menos 15")
    for selector in ("[data-action=bid]", "[data-action=renounce]", ".auction__slider"):
        assert_in_view(page_a, f"#auction {selector}")
    # Max sets the largest legal amount (the view's legal bids), the slider goes back down.
    amounts = sorted(a["amount"] for a in view(page_a)["legal"] if a["do"] == "bid")
    page_a.click("#auction [data-action=bid-max]")
    expect(page_a.locator("#auction .auction__amount")).to_have_text(str(amounts[-1]))
    # The most a player can bid is the whole balance: the page says what accepting it means.
    cost_note = page_a.locator("#auction .auction__cost")
    expect(cost_note).to_contain_text("and you lose the game")
    expect(cost_note).to_have_class(re.compile("auction__cost--warn"))
    page_a.locator("#auction .auction__slider").fill(str(amounts[0]))
    expect(page_a.locator("#auction .auction__amount")).to_have_text(str(amounts[0]))
    expect(cost_note).not_to_contain_text("lose the game")
    for page in (page_a, page_b, *watchers):
        shot(page, "game-auction")
    set_amount(page_a, 15)
    before = version(page_a)
    page_a.click("#auction [data-action=bid]")
    wait_version_above(page_a, before)
    wait_view(page_b, "v.to_act === 1 && v.auction.bid === 15")
    for selector in ("[data-action=raise]", "[data-action=accept]", ".auction__slider"):
        assert_in_view(page_b, f"#auction {selector}")
    # The whole Spanish panel on a laptop's screen (it was cut by 12 px at 1280x800).
    assert_in_view(page_b, "#auction")
    set_amount(page_b, 20)
    expect(page_b.locator("#auction .auction__cost")).to_have_attribute("data-cost", "5")
    expect(page_b.locator("#auction .auction__cost")).to_contain_text("descuento de jockey")
    before = version(page_b)
    page_b.click("#auction [data-action=raise]")
    wait_version_above(page_b, before)
    wait_view(page_a, "v.auction && v.auction.bid === 20")
    before = version(page_a)
    page_a.click("#auction [data-action=accept]")
    wait_version_above(page_a, before)
    expect(page_a.locator(".transfer-label", has_text="+5").first).to_be_visible()
    # Score labels are not clipped, nor over the toolbar, the seat's words, the balance or
    # the clock.
    placed = page_a.evaluate(
        """() => [...document.querySelectorAll('.transfer-label')].map((l) => {
            const r = l.getBoundingClientRect();
            const g = document.getElementById('game').getBoundingClientRect();
            const seat = l.closest('.seat');
            const hits = (sel) => [...document.querySelectorAll(sel)].some((e) => {
                const b = e.getBoundingClientRect();
                return r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom;
            });
            return r.top >= g.top && r.bottom <= g.bottom && r.left >= g.left && r.right <= g.right
                && !hits('.toolbar') && !hits(`#${seat.id} .balance__number, #${seat.id} .clock`)
                && !hits(`#${seat.id} .seat__name, #${seat.id} .seat__meta`);
        })"""
    )
    assert placed and all(placed), placed
    expect(page_a.locator("#seat-bottom .balance__number")).to_have_text(str(balances[0] + 5))
    expect(page_b.locator("#seat-bottom .balance__number")).to_have_text(str(balances[1] - 5))
    wait_view(page_b, "v.phase === 'lead' && v.to_act === 1")

    # Resign, with confirmation; game over with the result and a rematch offer.
    page_a.click("#resign-open")
    expect(page_a.locator("#resign-dialog")).to_be_visible()
    page_a.click("#resign-confirm")
    for page in (*pages, *watchers):
        page.wait_for_function("() => window.__game.view.status === 'finished'")
    expect(page_b.locator("#overlay .overlay__title")).to_have_text("¡Has ganado!")
    expect(page_a.locator("#overlay .overlay__title")).to_have_text("You lose")
    expect(page_a.locator("#overlay")).to_contain_text("bob won: ana resigned.")
    expect(page_a.locator("#overlay")).to_contain_text(
        re.compile(r"Final balances: ana \d+ \u2013 \d+ bob")
    )
    # The rating change, from the ratings app (the game was rated).
    expect(page_a.locator("#rating-change")).to_contain_text(
        re.compile(r"Ratings: ana \d+ \(\u2212\d+\), bob \d+ \(\+\d+\)")
    )
    for page in pages:
        assert_in_view(page, "#overlay [data-action=rematch-offer]")
        assert_in_view(page, "#overlay [data-action=lobby]")
    for page in (*pages, *watchers):
        # The score labels fade out (a contrast axe would measure mid-animation) first.
        expect(page.locator(".transfer-label")).to_have_count(0)
        shot(page, "game-over", axe=True)
    # The rematch offer reaches bob live; he accepts and both are taken to the new game,
    # seats swapped.
    page_a.click("#overlay [data-action=rematch-offer]")
    expect(page_a.locator("#overlay")).to_contain_text("Rematch offered: waiting for bob.")
    expect(page_b.locator("#overlay .overlay__rematch")).to_contain_text("ana")
    assert_in_view(page_b, "#overlay [data-action=rematch-decline]")
    page_b.click("#overlay [data-action=rematch-offer]")
    for page in pages:
        page.wait_for_url(re.compile(r"/games/\d+/$"))
        page.wait_for_function(f"() => window.__game?.view && window.__game.view.id !== {game.pk}")
    new = Game.objects.get(pk=view(page_a)["id"])
    assert (new.player0, new.player1, new.status) == (bob, ana, "waiting")
    assert Game.objects.get(pk=game.pk).rematch_game_id == new.pk
    assert view(page_b)["seat"] == 0 and view(page_a)["seat"] == 1
    # The old game's page, opened again, links to the rematch.
    page_a.goto(url)
    wait_interactive(page_a)
    go = page_a.locator("#overlay [data-action=rematch-go]")
    expect(go).to_have_attribute("href", f"/games/{new.pk}/")
    for page in (*pages, *watchers):
        assert not page.errors, page.errors


def test_same_device_game_goes_through_the_privacy_screen(login_page, make_user) -> None:
    ana = make_user("ana")
    page = login_page(ana, PHONE)
    # The creator names the two players (defaults "Player 1" and "Player 2").
    page.goto(f"{_base(page)}/games/same-device/")
    expect(page.locator("#id_first")).to_have_value("Player 1")
    expect(page.locator("#id_second")).to_have_value("Player 2")
    page.fill("#id_first", "Marta")
    page.fill("#id_second", "marta")
    page.click("form.form button[type=submit]")
    expect(page.locator(".form-errors")).to_contain_text("different names")
    page.fill("#id_second", "Luis")
    page.click("form.form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    wait_interactive(page)
    # The form's button was both Starts: the screen goes straight to the first hand-over.
    expect(page.locator("#privacy")).to_contain_text("Pass the device to")
    expect(page.locator("#overlay")).to_be_hidden()
    assert Game.objects.get(pk=view(page)["id"]).seat_names == ["Marta", "Luis"]
    # Two people at one account: no rating beside either name (the game is never rated).
    expect(page.locator(".seat__rating").first).to_have_text("")
    expect(page.locator(".seat__rating").last).to_have_text("")

    game = make_game(ana, ana, same_device=True, deals=[SPINNER_DEAL, *seeded_deals(4)])
    Game.objects.filter(pk=game.pk).update(seat_names=["Marta", "Luis"])
    page.goto(f"{_base(page)}/games/{game.pk}/")
    tti = wait_interactive(page)
    print(f"\ntime to interactive (same device): {tti:.0f} ms")
    # Both seats press Start on the one screen, each by name.
    for name in ("Marta", "Luis"):
        before = version(page)
        expect(page.locator("#overlay [data-action=start]")).to_have_text(f"Start ({name})")
        page.locator("#overlay [data-action=start]").click()
        wait_version_above(page, before)
    # The lead by rank is automatic; seat 1 must now take the device: no hand is shown.
    privacy = page.locator("#privacy")
    expect(privacy).to_be_visible()
    expect(privacy).to_contain_text("Pass the device to Luis")
    assert view(page)["hand"] is None
    expect(page.locator("#hand .hand-tile")).to_have_count(0)
    before = version(page)
    page.click("#privacy [data-action=reveal]")
    wait_version_above(page, before)
    expect(privacy).to_be_hidden()
    expect(page.locator("#hand .hand-tile")).to_have_count(7)
    assert view(page)["seat"] == 1
    # The hand on show sits under its own player's bar: Luis below now, Marta above.
    expect(page.locator("#seat-bottom .seat__name")).to_have_text("Luis")
    expect(page.locator("#seat-top .seat__name")).to_have_text("Marta")
    expect(page.locator("#seat-bottom")).to_have_class(re.compile("seat--to-act"))
    expect(page.locator("#prompt-text")).to_have_text("Luis, your turn: play a tile")
    # Seat 1 plays [5|0] (an end to choose); the screen hides the hand again for seat 0.
    page.click("#hand .hand-tile[data-tile='5-0']")
    before = version(page)
    page.click("#end-choice button[data-end=left]")
    wait_version_above(page, before)
    expect(privacy).to_be_visible()
    assert view(page)["hand"] is None
    before = version(page)
    page.click("#privacy [data-action=reveal]")
    wait_version_above(page, before)
    assert view(page)["seat"] == 0
    expect(page.locator("#hand .hand-tile--playable").first).to_be_visible()
    expect(page.locator("#seat-bottom .seat__name")).to_have_text("Marta")
    expect(page.locator("#seat-bottom")).to_have_class(re.compile("seat--to-act"))
    # The log names the players, never the account.
    expect(page.locator("#feed")).to_contain_text("Marta leads by rank with [5|5]")
    expect(page.locator("#feed")).to_contain_text("Luis played [5|0] on the left")
    expect(page.locator("#feed")).not_to_contain_text("ana")
    assert not page.errors, page.errors


def test_the_page_is_translated_to_spanish(login_page, make_user) -> None:
    ana, bob = make_user("ana"), make_user("bob")
    game = make_game(ana, bob)
    page = login_page(ana, PHONE)
    page.context.add_cookies(
        [{"name": "django_language", "value": "es", "domain": "127.0.0.1", "path": "/"}]
    )
    page.goto(f"{_base(page)}/games/{game.pk}/")
    wait_interactive(page)
    expect(page.locator("#overlay .overlay__title")).to_have_text("¿Listos para jugar?")
    expect(page.locator("#overlay [data-action=start]")).to_have_text("Iniciar")
    expect(page.locator("#prompt-text")).to_have_text("Esperando a que los dos pulsen Iniciar")


def test_rules_panel_opens_without_leaving_the_page(login_page, make_user) -> None:
    """A short "how to play" over the page; on a phone, my own clock stays in sight."""
    ana, bob = make_user("ana"), make_user("bob")
    game = started_in_the_past(ana, bob, 0)
    page = login_page(bob, PHONE)  # seat 1, to act: his clock runs
    url = f"{_base(page)}/games/{game.pk}/"
    page.goto(url)
    wait_interactive(page)
    expect(page.locator("#seat-bottom .clock")).to_have_class(re.compile("clock--running"))
    page.keyboard.press("?")
    panel = page.locator("#rules-panel")
    expect(panel).to_be_visible()
    for topic in ("Scoring by fives", "The auction", "The jockey discount", "The clock"):
        expect(panel).to_contain_text(topic)
    expect(panel.locator("a[href='/rules/']")).to_be_visible()
    covered = page.evaluate(
        """() => {
        const r = document.querySelector('#seat-bottom .clock').getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !document.querySelector('#seat-bottom').contains(hit);
    }"""
    )
    assert not covered, "the rules panel hides the player's own clock"
    shot(page, "game-how-to")
    assert page.url == url
    page.keyboard.press("Escape")
    expect(page.locator("#rules-panel")).to_be_hidden()
    # Reading the rules changed nothing in the game (R8.3: it does not pause anything).
    assert view(page)["status"] == "playing"
    # A dropped connection comes back by itself and the state is sent again.
    before = page.evaluate("window.__game.socket.ws")
    page.evaluate("window.__game.socket.ws.close()")
    page.wait_for_function("() => window.__game.socket.isOpen && window.__game.socket.retry === 0")
    assert page.evaluate("window.__game.socket.ws") is not None and before is not None
    expect(page.locator("#reconnecting")).to_be_hidden()


def test_the_header_keeps_its_height_after_the_menu_and_a_resize(login_page, make_user) -> None:
    """The menu opened, the phone turned (a resize) and the menu closed: the header is as
    tall as before and the game fits the screen again (it once stayed 397 px tall)."""
    ana, bob = make_user("ana"), make_user("bob")
    game = started_in_the_past(ana, bob, 0)
    page = in_spanish(login_page(bob, PHONE))
    page.goto(f"{_base(page)}/games/{game.pk}/")
    wait_interactive(page)
    height = "document.querySelector('.site-header').getBoundingClientRect().height"
    before = page.evaluate(height)
    page.click(".menu-button")
    expect(page.locator("#site-nav")).to_be_visible()
    page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
    page.set_viewport_size(PHONE)
    page.click(".menu-button")
    expect(page.locator("#site-nav")).to_be_hidden()
    page.wait_for_function(f"() => {height} === {before}", timeout=2000)
    assert_in_view(page, "#hand .hand-tile")
    assert_fits(page, "after the menu")


def test_a_player_is_told_when_the_opponent_leaves_and_comes_back(login_page, make_user) -> None:
    ana, bob = make_user("ana"), make_user("bob")
    game = started_in_the_past(ana, bob, 0)
    page_b = in_spanish(login_page(bob, PHONE))
    url = f"{_base(page_b)}/games/{game.pk}/"
    page_b.goto(url)
    wait_interactive(page_b)
    page_a = login_page(ana, DESKTOP)
    page_a.goto(url)
    wait_interactive(page_a)
    page_b.wait_for_function("() => window.__game.view.connected[0] === true")
    # A reload is a drop of a moment: the dot may blink, but nothing is said.
    page_a.reload()
    wait_interactive(page_a)
    page_b.wait_for_function("() => window.__game.view.connected[0] === true")
    settle(2.5)
    assert page_b.locator("#toasts .toast").count() == 0
    page_a.close()
    toasts = page_b.locator("#toasts")
    expect(toasts).to_contain_text("ana ha perdido la conexión; su reloj sigue corriendo.")
    # Over the table, not over the player's own tiles.
    toast, tiles = toasts.locator(".toast").first.bounding_box(), page_b.locator("#hand")
    hand = tiles.bounding_box()
    assert toast and hand and toast["y"] + toast["height"] <= hand["y"], (toast, hand)
    # The resign dialog's one-word button keeps its word whole on a phone ("Abandon/ar").
    page_b.click("#resign-open")
    confirm = page_b.locator("#resign-confirm")
    expect(confirm).to_have_text("Abandonar")
    assert text_lines(confirm) == 1
    page_b.keyboard.press("Escape")
    page_a = login_page(ana, DESKTOP)
    page_a.goto(url)
    expect(toasts).to_contain_text("ana ha vuelto.")


def test_a_game_cancelled_by_a_service_fault_says_so_and_offers_nothing(
    login_page, make_user
) -> None:
    from games.clock.faults import game_cancel_for_fault

    ana, bob = make_user("ana"), make_user("bob")
    game = started_in_the_past(ana, bob, 0)
    assert game_cancel_for_fault(game_id=game.pk, note="test outage")
    page = login_page(ana, PHONE)
    page.goto(f"{_base(page)}/games/{game.pk}/")
    wait_interactive(page)
    expect(page.locator("#overlay .overlay__title")).to_have_text("Game cancelled")
    expect(page.locator("#overlay")).to_contain_text("no rating result (R7.10)")
    expect(page.locator("#prompt-text")).to_have_text("Game cancelled")
    expect(page.locator("#resign-open")).to_be_hidden()
    assert view(page)["legal"] == []


def test_key_hints_only_where_there_are_keys_and_the_resign_answers_fit(
    login_page, make_user
) -> None:
    ana, bob = make_user("ana"), make_user("bob")
    game = started_in_the_past(ana, bob, 0)
    phone = login_page(ana, PHONE, touch=True)
    desk = in_spanish(login_page(bob, DESKTOP))
    for page in (phone, desk):
        page.goto(f"{_base(page)}/games/{game.pk}/")
        wait_interactive(page)
    assert not phone.locator("#rules-open kbd").is_visible()
    phone.click("#rules-open")
    expect(phone.locator("#rules-panel")).to_be_visible()
    assert not phone.locator("#rules-panel .keys-help").first.is_visible()
    assert desk.locator("#rules-open kbd").is_visible()
    # Each of the resign dialog's Spanish answers on one line, on a desk.
    desk.click("#resign-open")
    for button in desk.locator("#resign-dialog button").all():
        assert text_lines(button) == 1, button.inner_text()
