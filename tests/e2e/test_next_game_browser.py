"""The next game finds the player on the page of the game just over (its user socket).

After an arena game both players land on their next game without a click, within the
countdown (ARENA_NEXT_GAME_SECONDS) plus 2 s; a player who pressed Pause on the card is not
paired nor moved, and a challenge reaches that finished game's page; a place kept in the
queue through a game against the computer is paired with whoever waits, and both land on the
new game; the arena's podium appears only once its last game is over. On a phone and a
desktop, in English and Spanish, each card passes the page check.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from games.services import game_submit_action
from tests.e2e.conftest import PHONE
from tests.e2e.pagecheck import check_page
from tournaments.models import Arena, ArenaGame, ArenaPlayer
from tournaments.services import arena_finish, arena_join, arena_start, arena_wave

pytestmark = [pytest.mark.e2e, pytest.mark.live, pytest.mark.slow]

DESKTOP_SMALL = {"width": 1280, "height": 800}
CASES = [(PHONE, "en"), (DESKTOP_SMALL, "es")]
IDS = ["phone-en", "desktop-es"]
WORDS = {
    "en": {"paused": "Paused", "queue": "back in the queue", "finishing": "Finishing"},
    "es": {"paused": "En pausa", "queue": "Vuelves a estar en la cola", "finishing": "Terminando"},
}


@pytest.fixture
def relayed(live: Any, settings: Any) -> None:
    """Changes this test makes through the services reach the platform's sockets: with
    Redis directly, embedded through the web process's relay (as its worker does)."""
    if not settings.REDIS_URL:
        settings.EMBEDDED_RELAY_URL = f"{live.url()}/realtime/relay/"


def open_page(login_page: Any, user: Any, viewport: dict[str, int], lang: str) -> Any:
    page = login_page(user, viewport, touch=viewport is PHONE)
    page.context.add_cookies(
        [{"name": "django_language", "value": lang, "domain": "127.0.0.1", "path": "/"}]
    )
    return page


def on_game(page: Any, game: Game) -> None:
    page.goto(f"{page.live_url}/games/{game.pk}/")
    page.wait_for_function("() => window.__interactiveAt !== undefined")
    page.wait_for_function("() => document.body.dataset.userSocket === 'ready'")


def play_and_resign(game: Game, loser: Any) -> None:
    """Both press Start, then `loser` resigns (through the services, as the pages would)."""
    for n, user in enumerate((game.player0, game.player1)):
        game_submit_action(game_id=game.pk, user=user, action={"do": "start"}, request_id=f"s{n}")
    game_submit_action(game_id=game.pk, user=loser, action={"do": "resign"}, request_id="r")


def running_arena(*users: Any, minutes: int = 30) -> Arena:
    arena = Arena.objects.create(
        name="Friday arena", starts_at=timezone.now() - timedelta(seconds=1), minutes=minutes
    )
    for user in users:
        arena_join(user=user, arena_id=arena.pk)
    arena_start(arena_id=arena.pk)
    return arena


@pytest.mark.parametrize(("viewport", "lang"), CASES, ids=IDS)
def test_after_an_arena_game_both_players_land_on_the_next_one(
    login_page, make_user, relayed, viewport, lang
) -> None:
    ana, ben = make_user("ana"), make_user("ben")
    arena = running_arena(ana, ben)
    [first] = arena_wave(arena_id=arena.pk)
    pages = [open_page(login_page, user, viewport, lang) for user in (ana, ben)]
    for page in pages:
        on_game(page, first)
    play_and_resign(first, ben)
    for page in pages:  # the card shows the arena instead of a rematch
        expect(page.locator("#overlay .overlay__arena")).to_contain_text("Friday arena")
        expect(page.locator("#overlay [data-action=arena]")).to_be_visible()
        expect(page.locator("#overlay [data-action=rematch-offer]")).to_have_count(0)
    check_page(pages[0], f"arena-over-{viewport['width']}", lang, full_page=False)

    [second] = arena_wave(arena_id=arena.pk)
    limit = (settings.ARENA_NEXT_GAME_SECONDS + 2) * 1000
    for page in pages:  # a countdown the player can stop, then the page goes by itself
        expect(page.locator("#overlay [data-action=next-stay]")).to_be_visible()
    for page in pages:
        page.wait_for_url(re.compile(rf"/games/{second.pk}/$"), timeout=limit)
    # The next game's Start and its deadline, one tap away.
    for page in pages:
        start = page.locator("#overlay [data-action=start]")
        expect(start).to_be_in_viewport()
        expect(page.locator("#overlay .overlay__countdown")).to_contain_text(re.compile(r"\d"))
        start.click()
    second.refresh_from_db()
    expect(pages[0].locator("#overlay")).to_be_hidden()
    assert [page.errors for page in pages] == [[], []]


@pytest.mark.parametrize(("viewport", "lang"), CASES, ids=IDS)
def test_a_paused_player_stays_and_hears_a_challenge(
    login_page, make_user, relayed, viewport, lang
) -> None:
    from lobby.challenges import challenge_create

    ana, ben, cai, dan = (make_user(name) for name in ("ana", "ben", "cai", "dan"))
    arena = running_arena(ana, ben)
    [first] = arena_wave(arena_id=arena.pk)
    arena_join(user=cai, arena_id=arena.pk)  # free, waiting for the next wave
    pages = [open_page(login_page, user, viewport, lang) for user in (ana, ben)]
    for page in pages:
        on_game(page, first)
    play_and_resign(first, ben)
    ana_page, ben_page = pages
    ana_page.locator("#overlay [data-action=arena-pause]").click()
    expect(ana_page.locator("#overlay .overlay__arena")).to_contain_text(WORDS[lang]["paused"])
    assert ArenaPlayer.objects.get(arena=arena, user=ana).state == ArenaPlayer.State.PAUSED

    [second] = arena_wave(arena_id=arena.pk)  # ben and cai; ana is not paired
    assert {second.player0_id, second.player1_id} == {ben.pk, cai.pk}
    ben_page.wait_for_url(re.compile(rf"/games/{second.pk}/$"))
    ana_page.wait_for_timeout((settings.ARENA_NEXT_GAME_SECONDS + 2) * 1000)
    assert ana_page.url.endswith(f"/games/{first.pk}/")

    # A challenge reaches the finished game's page, and is accepted there.
    challenge_create(challenger=dan, opponent_username="ana")
    notice = ana_page.locator("[data-notice^='challenge-']")
    expect(notice).to_contain_text("dan")
    check_page(ana_page, f"arena-paused-{viewport['width']}", lang, full_page=False)
    notice.locator("button.button--primary").click()
    ana_page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.exclude(pk__in=[first.pk, second.pk]).get()
    assert ana_page.url.endswith(f"/games/{game.pk}/")
    assert [page.errors for page in pages] == [[], []]


@pytest.mark.parametrize(("viewport", "lang"), CASES, ids=IDS)
def test_a_kept_queue_place_pairs_after_the_computer_game(
    login_page, make_user, relayed, viewport, lang
) -> None:
    from games.computer.moves import computer_game_create
    from lobby.services import queue_hold, queue_join

    ana, ben = make_user("ana"), make_user("ben")
    queue_join(user=ana)
    computer = computer_game_create(user=ana, strength="easy")
    queue_hold(user=ana)
    ana_page, ben_page = (open_page(login_page, user, viewport, lang) for user in (ana, ben))
    on_game(ana_page, computer)
    # Ben waits in "Play now"; ana's kept place is not paired during her game.
    ben_page.goto(f"{ben_page.live_url}/play-now/")
    ben_page.locator("[data-role=join]").click()
    expect(ben_page.locator("[data-role=facts]")).to_be_visible()
    ana_page.locator("#resign-open").click()
    ana_page.locator("#resign-confirm").click()
    for page in (ana_page, ben_page):
        page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.filter(bot_seat__isnull=True).get()
    assert {game.player0_id, game.player1_id} == {ana.pk, ben.pk}
    for page in (ana_page, ben_page):
        page.wait_for_url(re.compile(rf"/games/{game.pk}/$"))
    assert ana_page.errors == [] and ben_page.errors == []


@pytest.mark.parametrize(("viewport", "lang"), CASES, ids=IDS)
def test_a_kept_place_is_told_on_the_card_and_can_be_left(
    login_page, make_user, relayed, viewport, lang
) -> None:
    from games.computer.moves import computer_game_create
    from lobby.models import QueueEntry
    from lobby.services import queue_hold, queue_join

    ana = make_user("ana")
    queue_join(user=ana)
    computer = computer_game_create(user=ana, strength="easy")
    queue_hold(user=ana)
    page = open_page(login_page, ana, viewport, lang)
    on_game(page, computer)
    page.locator("#resign-open").click()
    page.locator("#resign-confirm").click()
    note = page.locator("#overlay .overlay__queue")
    expect(note).to_contain_text(WORDS[lang]["queue"])
    check_page(page, f"queue-over-{viewport['width']}", lang, full_page=False)
    assert QueueEntry.objects.filter(user=ana, held=False).exists()
    # Another game against the computer would keep the place again.
    keep = page.locator("#overlay form input[name=queue]")
    expect(keep).to_have_value("keep")
    page.locator("#overlay [data-action=queue-leave]").click()
    expect(note).to_have_count(0)
    expect(keep).to_have_count(0)
    assert not QueueEntry.objects.filter(user=ana).exists()
    assert page.errors == []


@pytest.mark.parametrize(("viewport", "lang"), CASES, ids=IDS)
def test_the_podium_waits_for_the_last_game(login_page, make_user, relayed, viewport, lang) -> None:
    ana, ben, cai = (make_user(name) for name in ("ana", "ben", "cai"))
    arena = running_arena(ana, ben)
    [game] = arena_wave(arena_id=arena.pk)
    arena_finish(arena_id=arena.pk, now=arena.ends_at)
    page = open_page(login_page, cai, viewport, lang)
    page.goto(f"{page.live_url}/arenas/{arena.pk}/")
    expect(page.locator("[data-role=finishing]")).to_contain_text(WORDS[lang]["finishing"])
    expect(page.locator(".arena__podium")).to_have_count(0)
    check_page(page, f"arena-finishing-{viewport['width']}", lang)
    # Finished "at its end", half an hour ahead, the arena's last push is dated then, and a
    # change within a second of it waits for the tick: dated back to now, as a real finish.
    Arena.objects.filter(pk=arena.pk).update(
        standings_pushed_at=timezone.now() - timedelta(seconds=5)
    )
    play_and_resign(game, ben)
    expect(page.locator(".arena__podium")).to_be_visible(timeout=15_000)
    expect(page.locator(".arena__podium li").first).to_contain_text("ana")
    assert ArenaGame.objects.get(game=game).ended_at is not None
    assert page.errors == []


@pytest.mark.parametrize(("viewport", "lang"), CASES, ids=IDS)
def test_arena_times_are_shown_and_typed_in_the_players_zone(
    login_page, make_user, viewport, lang
) -> None:
    ana = make_user("ana")
    utc = timezone.now().replace(second=0, microsecond=0) + timedelta(hours=2)
    Arena.objects.create(name="Later", starts_at=utc, minutes=30)
    page = login_page(ana, viewport, touch=viewport is PHONE, timezone_id="America/Bogota")
    page.context.add_cookies(
        [{"name": "django_language", "value": lang, "domain": "127.0.0.1", "path": "/"}]
    )
    page.goto(f"{page.live_url}/arenas/")
    start = page.locator(".arena-list time").first
    expect(start).to_have_attribute("data-localized", "true")
    assert start.get_attribute("title") == utc.strftime("%Y-%m-%d %H:%M UTC")
    bogota = utc - timedelta(hours=5)  # UTC-5 all year
    shown = start.inner_text()  # 19:35 in Spanish, 07:35 PM in English
    assert bogota.strftime("%H:%M") in shown or bogota.strftime("%I:%M %p") in shown, shown
    expect(page.locator("#id_starts_at_helptext")).to_contain_text("America/Bogota")
    field = page.locator("#id_starts_at")
    assert field.evaluate("(input) => input.checkValidity()")  # whole minutes, in range
    assert field.bounding_box()["height"] >= 40
    assert page.locator("#id_minutes").bounding_box()["height"] >= 40
    check_page(page, f"arenas-form-{viewport['width']}", lang)
    page.locator(".arena-form__presets button").nth(1).click()  # in 15 minutes
    page.fill("#id_name", "Soon")
    page.locator(".arena-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/arenas/\d+/$"))
    arena = Arena.objects.get(name="Soon")
    ahead = arena.starts_at - timezone.now()
    assert timedelta(minutes=13) < ahead <= timedelta(minutes=16), ahead
    check_page(page, f"arena-{viewport['width']}", lang)
    assert page.errors == []


@pytest.mark.parametrize("width", [390, 1200, 1280, 1366, 1440, 1920])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_header_keeps_arenas_and_the_opponents_name(login_page, make_user, width, lang):
    """Arenas is among a desktop's links at every width, on one row, with "your game" in it;
    on a phone the pill shows the opponent's whole name."""
    from games.services import game_create

    marisol, bartholomew = make_user("marisol_garcia"), make_user("bartholomew_m")
    game_create(player0=marisol, player1=bartholomew)
    page = open_page(login_page, marisol, {"width": width, "height": 800}, lang)
    page.goto(f"{page.live_url}/rules/")
    header = page.evaluate("() => document.querySelector('.site-header').offsetHeight")
    assert header <= 62, header
    opponent = page.locator(".site-header [data-your-game] [data-slot=opponent]")
    expect(opponent).to_contain_text("bartholomew_m")
    assert opponent.evaluate("(slot) => slot.scrollWidth <= slot.clientWidth")  # not cut
    if width >= 1200:
        expect(page.locator("#site-nav .site-nav__arenas a")).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
