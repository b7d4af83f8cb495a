"""The game page's finish, in Chromium at 390x844 (touch) and 1280x800, in both languages:
spectators, a computer game's first moments, a same-device game's turns, the keyboard after
a draw, choosing an end, and the small things a tester found (the project's issue 24)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games.engine.deals import written_deal
from tests.e2e.conftest import PHONE, wait_interactive
from tests.e2e.pagecheck import check_page
from tests.games.factories import started_in_the_past

pytestmark = [pytest.mark.e2e, pytest.mark.live, pytest.mark.slow]

LAPTOP = {"width": 1280, "height": 800}
LANGS = ("en", "es")
# A touch phone and a laptop, each in both languages.
ON_EVERY_SCREEN = pytest.mark.parametrize(
    ("size", "lang"), [(size, lang) for size in ("phone", "laptop") for lang in LANGS]
)


def speaking(page: Any, lang: str) -> Any:
    page.context.add_cookies(
        [{"name": "django_language", "value": lang, "domain": "127.0.0.1", "path": "/"}]
    )
    return page


def sized(login_page: Any, user: Any, size: str, lang: str = "en") -> Any:
    """`user`'s page on a touch phone (390x844) or a laptop (1280x800), in `lang`."""
    viewport = PHONE if size == "phone" else LAPTOP
    return speaking(login_page(user, viewport, touch=size == "phone"), lang)


def open_game(page: Any, game_id: int) -> Any:
    page.goto(f"{page.live_url}/games/{game_id}/")
    wait_interactive(page)
    return page


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_spectators_are_counted_and_watch_the_table_without_a_hand(
    login_page, make_user, lang
) -> None:
    ana, bob, carol, dan = (make_user(n) for n in ("ana", "bob", "carol", "dan"))
    game = started_in_the_past(ana, bob, 0)
    viewers = {"en": ("1 viewer", "2 viewers"), "es": ("1 espectador", "2 espectadores")}[lang]
    player = open_game(speaking(login_page(ana, PHONE, touch=True), lang), game.pk)
    expect(player.locator("#watchers")).to_be_hidden()
    phone = open_game(speaking(login_page(carol, PHONE, touch=True), lang), game.pk)
    expect(player.locator("#watchers")).to_have_text(viewers[0])
    expect(phone.locator("#watchers")).to_have_text(viewers[0])
    desk = open_game(speaking(login_page(dan, LAPTOP), lang), game.pk)
    for page in (player, phone, desk):
        expect(page.locator("#watchers")).to_have_text(viewers[1])
    # The spectators are told they watch; the player is not.
    label = {"en": "Watching", "es": "Espectador"}[lang]
    for page in (phone, desk):
        expect(page.locator(".prompt__watching")).to_have_text(label)
    expect(player.locator(".prompt__watching")).to_have_count(0)
    # No empty hand area on a spectator's phone: the table has its room.
    expect(phone.locator("#hand")).to_be_hidden()
    table, seat = box(phone, ".table"), box(phone, "#seat-bottom")
    player_table = box(player, ".table")
    assert table["height"] >= player_table["height"] + 90, (table, player_table)
    game_box = box(phone, "#game")
    assert game_box["y"] + game_box["height"] - (seat["y"] + seat["height"]) < 90, (seat, game_box)
    shots = ((phone, "game-spectator"), (desk, "game-spectator"), (player, "game-viewed"))
    for page, name in shots:
        check_page(page, name, lang, full_page=False)
    desk.close()
    expect(player.locator("#watchers")).to_have_text(viewers[0])


# Counts the start cards the page ever shows (an init script: it runs before the page's own).
COUNT_START_CARDS = """
window.__startCards = 0;
new MutationObserver(() => {
  const card = document.querySelector('#overlay.overlay--start:not([hidden])');
  if (card) window.__startCards += 1;
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_computer_game_opens_without_the_start_card_a_rating_or_a_stray_focus_ring(
    login_page, make_user, lang, monkeypatch
) -> None:
    from django.utils import timezone

    from games.computer import wakeups
    from games.computer.moves import computer_game_create
    from games.models import Game

    ana = make_user("ana")
    # The computer's Start waits until the test lets it (its wake-up is not sent).
    monkeypatch.setattr(wakeups, "_send", lambda **kwargs: None)
    snapshot = {"rating": 1612, "rating_label": "1612"}
    game = computer_game_create(user=ana, strength="easy", seat=0, snapshot=snapshot)
    Game.objects.filter(pk=game.pk).update(bot_since=None)
    phone = speaking(login_page(ana, PHONE, touch=True), lang)
    desk = speaking(login_page(ana, LAPTOP), lang)
    starting = {"en": "Starting the game…", "es": "Empezando la partida…"}[lang]
    easy = {"en": "(easy)", "es": "(fácil)"}[lang]
    for page in (phone, desk):
        page.add_init_script(COUNT_START_CARDS)
        open_game(page, game.pk)
        assert page.evaluate("window.__game.view.status") == "waiting"
        expect(page.locator("#overlay")).to_be_hidden()
        expect(page.locator("#prompt-text")).to_have_text(starting)
        # Not rated: no rating beside the player's name; the computer's strength beside its.
        expect(page.locator("#seat-bottom .seat__rating")).to_have_text("")
        expect(page.locator("#seat-top .seat__rating")).to_have_text(easy)
    # The clock keeper's sweep now asks the computer, which presses Start.
    Game.objects.filter(pk=game.pk).update(bot_since=timezone.now())
    for page in (phone, desk):
        page.wait_for_function("() => window.__game.view.status === 'playing'", timeout=20_000)
        assert page.evaluate("window.__startCards") == 0
        expect(page.locator("#seat-bottom .seat__rating")).to_have_text("")
    # The player's first turn: on the laptop the keyboard is on a playable tile (or Draw);
    # on the touch screen no tile wears a focus ring nobody asked for.
    for page in (phone, desk):
        page.wait_for_function(
            "() => { const v = window.__game.view; return v.to_act === v.seat"
            " && ['play', 'lead'].includes(v.phase); }",
            timeout=20_000,
        )
    assert phone.evaluate("document.querySelector('#hand :focus-visible')") is None
    focused = desk.evaluate(
        "() => { const e = document.activeElement; return e.id ||"
        " (e.classList.contains('hand-tile--playable') ? 'playable' : e.className); }"
    )
    assert focused in ("playable", "draw-one"), focused


@ON_EVERY_SCREEN
def test_a_shared_screen_starts_once_and_shows_each_hand_under_its_player(
    login_page, make_user, lang, size
) -> None:
    from tests.e2e.test_game_page import click_action, version

    ana = make_user("ana")
    page = sized(login_page, ana, size, lang)
    page.goto(f"{page.live_url}/games/same-device/")
    page.fill("#id_first", "Marta")
    page.fill("#id_second", "Pablo")
    page.click("form.form button[type=submit]")
    page.wait_for_url(lambda url: "/games/same-device/" not in url)
    wait_interactive(page)
    # One Start: the form's. No card asks for another, nor warns of an abort.
    expect(page.locator("#overlay")).to_be_hidden()
    # "Pablo, your turn: play a tile", "Pablo, no puedes jugar: roba una ficha", …
    yours = {"en": "(your turn|you cannot play)", "es": "(tu turno|no puedes jugar)"}[lang]
    for _turn in range(3):
        view = page.evaluate("window.__game.view")
        name = ("Marta", "Pablo")[view["to_act"]]
        expect(page.locator("#privacy")).to_contain_text(name)
        before = version(page)
        page.click("#privacy [data-action=reveal]")
        page.wait_for_function(f"() => window.__game.version > {before}")
        tiles = page.locator("#hand .hand-tile")
        count = tiles.count()
        assert count > 0
        # The tiles on show sit under the bar of the player whose tiles they are.
        expect(page.locator("#seat-bottom .seat__name")).to_have_text(name)
        bar = page.locator("#seat-bottom .seat__tiles").inner_text()
        assert bar.startswith(str(count)), (bar, count)
        expect(page.locator("#prompt-text")).to_have_text(re.compile(f"^{name}, {yours}"))
        check_page(page, f"same-device-turn{_turn}", lang, full_page=False)
        # This player's turn through the page's controls (a draw first when it must).
        while page.evaluate(
            "() => { const v = window.__game.view; return !v.awaiting_reveal"
            " && v.phase === 'play' && v.status === 'playing'; }"
        ):
            legal = page.evaluate("window.__game.view.legal")
            action = next((a for a in legal if a["do"] == "play"), None) or next(
                a for a in legal if a["do"] == "draw"
            )
            before = version(page)
            click_action(page, action)
            # "Draw until playable" sends draws until the server offers something else.
            done = "!v.legal.some(a => a.do === 'draw')" if action["do"] == "draw" else "true"
            page.wait_for_function(
                f"() => {{ const v = window.__game.view; return window.__game.version > {before}"
                f" && !window.__game.socket.pending.size && ({done}); }}"
            )
        if page.evaluate("window.__game.view.phase") != "play":
            break


# Seat 0 leads [6|6] by rank; seat 1 plays [6|5]; seat 0 then has no 6 nor 5 and draws
# [1|0] and [2|0] before [6|1], which it must play.
DRAW_DEAL = written_deal(
    "6-6 1-1 2-1 3-1 2-2 3-2 3-3",
    "6-5 4-4 5-5 5-4 4-0 5-0 0-0",
    "1-0 2-0 6-1 3-0 6-0 4-1 5-1 4-2 5-2 6-2 4-3 5-3 6-3 6-4",
)


def game_at_a_draw(ana: Any, bob: Any) -> Any:
    """A started game of DRAW_DEAL where seat 0 (ana) has to draw."""
    import time

    from games import engine, services
    from tests.games.factories import make_game, seeded_deals

    game = make_game(ana, bob, deals=[DRAW_DEAL, *seeded_deals(3)])
    for user in (ana, bob):
        services.game_submit_action(
            game_id=game.pk, user=user, action={"do": "start"}, request_id=None
        )
    game.refresh_from_db()
    legal = engine.view(engine.from_json(game.state), 1, time.time())["legal"]
    play = next(a for a in legal if a["do"] == "play" and a["tile"] == "6-5")
    assert services.game_submit_action(game_id=game.pk, user=bob, action=play, request_id=None).ok
    return game


def active(page: Any) -> str:
    return str(
        page.evaluate(
            "() => { const e = document.activeElement;"
            " return e.id || (e.dataset.tile ? `tile:${e.dataset.tile}` : e.tagName); }"
        )
    )


def test_the_keyboard_goes_from_draw_to_the_tile_to_play(login_page, make_user) -> None:
    from tests.e2e.test_game_page import version

    ana, bob = make_user("ana"), make_user("bob")
    game = game_at_a_draw(ana, bob)
    page = open_game(login_page(ana, LAPTOP), game.pk)
    # Nothing to play: the turn puts the keyboard on Draw.
    page.wait_for_function("() => document.activeElement.id === 'draw-one'")
    for drawn in ("1-0", "2-0"):
        before = version(page)
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => window.__game.version > {before}")
        assert drawn in page.evaluate("window.__game.view.hand")
        assert active(page) == "draw-one"
    before = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.__game.version > {before}")
    # [6|1] must be played now: the keyboard is on it, and Enter plays it.
    assert page.evaluate("window.__game.view.must_play") == "6-1"
    assert active(page) == "tile:6-1"
    before = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.__game.version > {before}")
    assert "6-1" not in page.evaluate("window.__game.view.hand")


# Seat 0 leads [5|5] (the highest double) and seat 1 plays [5|0] on the right; seat 0 then
# plays [5|1] on the left, which opens the spinner's arms: seat 1's [5|3] fits up and down.
ARMS_HANDS = [
    ["5-5", "5-1", "2-2", "3-2", "4-2", "6-2", "6-3"],
    ["5-0", "5-3", "4-4", "1-1", "3-3", "4-3", "6-4"],
]


def game_at_the_arms(ana: Any, bob: Any) -> Any:
    """A started game where bob (seat 1) holds [5|3], which fits both arms of the spinner."""
    from games import services
    from tests.games.factories import make_game, seeded_deals

    held = {t for hand in ARMS_HANDS for t in hand}
    every = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]
    deal = {"hands": ARMS_HANDS, "boneyard": [t for t in every if t not in held]}
    game = make_game(ana, bob, deals=[deal, *seeded_deals(3)])
    for user in (ana, bob):
        services.game_submit_action(
            game_id=game.pk, user=user, action={"do": "start"}, request_id=None
        )
    for user, tile, end in ((bob, "5-0", "right"), (ana, "5-1", "left")):
        action = {"do": "play", "tile": tile, "end": end}
        assert services.game_submit_action(
            game_id=game.pk, user=user, action=action, request_id=None
        ).ok, action
    return game


BOARD_AND_TARGETS = """() => {
    const svg = document.getElementById('board').getBoundingClientRect();
    const spinner = document.querySelector('#board .tile--spinner').getBoundingClientRect();
    const discs = [...document.querySelectorAll('#board .target__disc')].map((d) => {
        const r = d.getBoundingClientRect();
        const width = parseFloat(getComputedStyle(d).strokeWidth) || 0;
        return {end: d.parentNode.dataset.end, left: r.left - width / 2, top: r.top - width / 2,
                right: r.right + width / 2, bottom: r.bottom + width / 2};
    });
    const onSpinner = discs.filter((r) => Math.min(r.right, spinner.right) > Math.max(r.left,
        spinner.left) && Math.min(r.bottom, spinner.bottom) > Math.max(r.top, spinner.top));
    const outside = discs.filter((r) => r.left < svg.left || r.top < svg.top
        || r.right > svg.right || r.bottom > svg.bottom);
    return {height: svg.height, discs: discs.map((d) => d.end),
            onSpinner: onSpinner.map((d) => d.end), outside: outside.map((d) => d.end)};
}"""


# The open ends' frames that cross a pip (a pip wholly inside or outside one is fine).
PIPS_UNDER_RINGS = """() => {
    const rings = [...document.querySelectorAll('#board .end-ring')]
        .map((r) => r.getBoundingClientRect());
    const pips = [...document.querySelectorAll('#board .tile__pip')]
        .map((p) => p.getBoundingClientRect());
    const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom
        && b.top < a.bottom;
    const inside = (a, b) => a.left >= b.left && a.right <= b.right && a.top >= b.top
        && a.bottom <= b.bottom;
    return rings.length ? pips.filter((p) => rings.some((r) => meets(p, r) && !inside(p, r)))
        .length : -1;
}"""


@ON_EVERY_SCREEN
def test_choosing_an_end_keeps_the_board_and_its_targets_in_view(
    login_page, make_user, lang, size
) -> None:
    ana, bob = make_user("ana"), make_user("bob")
    game = game_at_the_arms(ana, bob)
    page = open_game(sized(login_page, bob, size, lang), game.pk)
    before = page.evaluate(BOARD_AND_TARGETS)
    page.click("#hand .hand-tile[data-tile='5-3']")
    expect(page.locator("#board .target")).to_have_count(2)
    after = page.evaluate(BOARD_AND_TARGETS)
    print(size, lang, before, after)
    check_page(page, "game-end-choice", lang, full_page=False)
    assert sorted(after["discs"]) == ["down", "up"], after
    # The board keeps its size, and each target is whole and off the spinner.
    assert after["height"] >= before["height"] - 8, (before, after)
    assert after["outside"] == [] and after["onSpinner"] == [], after
    # The open ends are marked without covering a pip.
    assert page.evaluate(PIPS_UNDER_RINGS) == 0
    for button in page.locator("#end-choice button").all():
        expect(button).to_be_in_viewport()
    page.click("#board .target[data-end=down]")
    page.wait_for_function("() => !window.__game.view.hand.includes('5-3')")


REPLAY_BOXES = """() => {
    const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        return {top: r.top, bottom: r.bottom}; };
    return {seats: [...document.querySelectorAll('.replay__seat')].map((e) => {
                const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; }),
            table: box('.replay__table'), board: box('#replay-board'),
            controls: box('.replay__controls'), position: box('#replay-position'),
            bar: box('.replay__bar'),
            innerHeight, scrollY, scrollHeight: document.scrollingElement.scrollHeight};
}"""


def in_view(found: dict[str, float], height: float) -> bool:
    return found["top"] >= 0 and found["bottom"] <= height


@ON_EVERY_SCREEN
def test_the_replay_shows_the_table_both_hands_and_its_controls_together(
    login_page, make_user, lang, size
) -> None:
    from tests.games.factories import played_game

    marta, roberto = make_user("marta_gonzalez"), make_user("roberto_alvarez")
    game = played_game(marta, roberto, 1)
    page = sized(login_page, marta, size, lang)
    viewport = page.viewport_size
    page.goto(f"{page.live_url}/games/{game.pk}/replay/?step=12")
    page.locator("#replay-board[data-tiles]").wait_for()
    # As the page opens: the table first, both hands around it and the controls under them,
    # all in one screen.
    boxes = page.evaluate(REPLAY_BOXES)
    assert boxes["table"]["top"] < boxes["controls"]["top"], boxes
    assert max(seat["bottom"] for seat in boxes["seats"]) <= boxes["bar"]["top"] + 1, boxes
    height = viewport["height"]
    for name in ("table", "controls", "position"):
        assert in_view(boxes[name], height), (name, boxes)
    assert all(in_view(seat, height) for seat in boxes["seats"]), boxes
    assert boxes["board"]["bottom"] - boxes["board"]["top"] > 200, boxes
    check_page(page, "replay-steps", lang, full_page=False)
    page.click("[data-go=forward]")
    expect(page.locator("#replay")).to_have_attribute("data-step", "13")
    # Resizing to nothing and back draws no tile of a negative size (a console error once).
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    for width in (viewport["width"], 120, 40, viewport["width"]):
        page.set_viewport_size({"width": width, "height": 60 if width < 100 else height})
        page.wait_for_timeout(80)
    assert errors == [], errors


# Every word of the matching cells that the browser broke over two lines.
BROKEN_WORDS = """(selector) => {
    const broken = [];
    for (const cell of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const match of node.textContent.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                if (tops.size > 1) broken.push(match[0]);
            }
        }
    }
    return broken;
}"""


@ON_EVERY_SCREEN
def test_the_leaderboard_and_the_rating_chart_read_well(login_page, make_user, lang, size) -> None:
    from tests.games.factories import played_game

    marta, roberto = make_user("marta_gonzalez"), make_user("roberto_alvarez")
    for winner in (0, 1, 0):
        played_game(marta, roberto, winner)
    page = sized(login_page, marta, size, lang)
    page.goto(f"{page.live_url}/leaderboard/")
    expect(page.locator(".leaderboard tbody tr")).to_have_count(2)
    selector = ".leaderboard th, .leaderboard td"  # names too: never broken mid-name
    assert page.evaluate(BROKEN_WORDS, selector) == []
    check_page(page, "leaderboard-words", lang)
    # The profile's rating chart: a readable scale and the dates of its first and last game.
    page.goto(f"{page.live_url}/accounts/marta_gonzalez/")
    sizes = page.locator(".rating-chart__scale span, .rating-chart__dates time").evaluate_all(
        "(all) => all.map((e) => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert len(sizes) == 5 and min(sizes) >= 12, sizes  # the top, "Rating", the bottom
    for when in page.locator(".rating-chart__dates time").all():
        expect(when).to_be_visible()
    # The value under the pointer or the finger: the last game's at first, then the first's.
    rating = page.locator(".rating-chart", has=page.locator("#rating-chart-caption"))
    readout = rating.locator(".rating-chart__readout")
    titles = rating.locator(".rating-chart__point title").all_text_contents()
    expect(readout).to_have_text(titles[-1])
    chart = rating.locator("svg").bounding_box()
    assert chart is not None and chart["height"] >= 100, chart
    page.mouse.move(chart["x"] + 2, chart["y"] + chart["height"] / 2)
    expect(readout).to_have_text(titles[0])
    check_page(page, "profile-chart", lang)


@ON_EVERY_SCREEN
def test_going_offline_lays_the_banner_over_the_page_and_disables_draw(
    login_page, make_user, lang, size
) -> None:
    ana, bob = make_user("ana"), make_user("bob")
    game = game_at_a_draw(ana, bob)
    page = open_game(sized(login_page, ana, size, lang), game.pk)
    draw = page.locator("#draw-one")
    expect(draw).to_be_enabled()
    where = [box(page, sel) for sel in ("#seat-top", ".table", "#hand")]
    assert page.evaluate(PIPS_UNDER_RINGS) == 0  # the spinner's open side is framed whole
    page.context.set_offline(True)
    expect(page.locator("#reconnecting")).to_be_visible()
    # Nothing moved: the banner lies over the page; and Draw cannot be pressed.
    assert [box(page, sel) for sel in ("#seat-top", ".table", "#hand")] == where
    expect(draw).to_be_disabled()
    expect(page.locator("#draw-all")).to_be_disabled()
    check_page(page, "game-offline", lang, full_page=False)
    page.context.set_offline(False)
    expect(page.locator("#reconnecting")).to_be_hidden(timeout=15_000)
    expect(draw).to_be_enabled()


@pytest.mark.parametrize("lang", LANGS)
def test_the_seat_bars_keep_to_two_lines_on_a_phone(login_page, make_user, lang) -> None:
    from tests.games.factories import SPINNER_DEAL, drive, make_game, seeded_deals

    marta, roberto = make_user("marta_gonzalez"), make_user("roberto_alvarez")
    game = make_game(marta, roberto, deals=[SPINNER_DEAL, *seeded_deals(4)], banks=(900, 900))
    # Round 1 of SPINNER_DEAL ends in seat 1's domino: roberto is the jockey in round 2.
    drive(game.pk, (marta, roberto), lambda v: v["round"] == 2 and v["phase"] == "auction")
    page = open_game(speaking(login_page(marta, PHONE, touch=True), lang), game.pk)
    expect(page.locator("#seat-top .seat__jockey")).to_be_visible()
    heights = page.locator(".seat__who").evaluate_all(
        "(all) => all.map((e) => [e.getBoundingClientRect().height,"
        " parseFloat(getComputedStyle(e).lineHeight)])"
    )
    for height, line in heights:
        assert height <= 2 * line + 6, heights
    # And nothing of the second line is cut off.
    cut = page.locator(".seat__meta").evaluate_all(
        "(all) => all.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent)"
    )
    assert cut == [], cut
    # A longer rating or strength than any today gives way before the jockey and the tiles.
    page.locator("#seat-top .seat__rating").evaluate(
        "(e) => { e.textContent = '(' + 'x'.repeat(40) + ')'; }"
    )
    edges = page.locator("#seat-top").evaluate(
        "(seat) => ['.seat__meta', '.seat__jockey', '.seat__tiles'].map("
        "(s) => seat.querySelector(s).getBoundingClientRect().right)"
    )
    assert edges[1] <= edges[0] and edges[2] <= edges[0], edges
    check_page(page, "game-seats", lang, full_page=False)


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_first_tiles_are_drawn_to_the_size_of_the_felt(login_page, make_user, size) -> None:
    ana, bob = make_user("ana"), make_user("bob")
    game = started_in_the_past(ana, bob, 0)
    page = open_game(sized(login_page, bob, size), game.pk)
    sizes = page.evaluate(
        """() => { const t = document.querySelector('#board .tile').getBoundingClientRect();
            const b = document.getElementById('board').getBoundingClientRect();
            return {tile: Math.min(t.width, t.height), board: Math.min(b.width, b.height)}; }"""
    )
    # One tile on the table: its short side is a sixth of the felt's (at most 60 px), less
    # the hairline between tiles; it was 44 px whatever the felt.
    assert sizes["tile"] >= 0.9 * min(60, sizes["board"] / 6) > 44, sizes
