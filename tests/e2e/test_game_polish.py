"""The game page's finish, in Chromium at 390x844 (touch) and 1280x800, in both languages:
spectators, a computer game's first moments, a same-device game's turns, the keyboard after
a draw, choosing an end, and the small things a tester found (the project's issue 24)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, wait_interactive
from tests.e2e.pagecheck import check_page
from tests.games.factories import started_in_the_past

pytestmark = [pytest.mark.e2e, pytest.mark.live]

LAPTOP = {"width": 1280, "height": 800}
LANGS = ("en", "es")


def speaking(page: Any, lang: str) -> Any:
    page.context.add_cookies(
        [{"name": "django_language", "value": lang, "domain": "127.0.0.1", "path": "/"}]
    )
    return page


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
    for page in (phone, desk):
        page.add_init_script(COUNT_START_CARDS)
        open_game(page, game.pk)
        assert page.evaluate("window.__game.view.status") == "waiting"
        expect(page.locator("#overlay")).to_be_hidden()
        expect(page.locator("#prompt-text")).to_have_text(starting)
        # Not rated: no rating beside either name.
        expect(page.locator(".seat__rating")).to_have_text(["", ""])
    # The clock keeper's sweep now asks the computer, which presses Start.
    Game.objects.filter(pk=game.pk).update(bot_since=timezone.now())
    for page in (phone, desk):
        page.wait_for_function("() => window.__game.view.status === 'playing'", timeout=20_000)
        assert page.evaluate("window.__startCards") == 0
        expect(page.locator(".seat__rating")).to_have_text(["", ""])
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
