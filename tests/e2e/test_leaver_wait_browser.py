"""A leaver serving a wait, on a phone: "Play now" says how long and why before they try,
and pressing "Find an opponent" answers with the same text rather than a queue; the page
fits the phone in both languages."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from fairplay.models import GameConduct
from fairplay.waits import Left
from games.models import Game
from games.services import game_create
from lobby.models import QueueEntry
from tests.e2e.conftest import PHONE
from tests.e2e.pagecheck import check_page

pytestmark = [pytest.mark.e2e, pytest.mark.live]

SAYS = {
    "en": "You can start a new game in 5 minutes",
    "es": "Podrás empezar una partida nueva dentro de 5 minutos",
}


def left_a_game(leaver, other) -> None:
    game = game_create(player0=other, player1=leaver)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    GameConduct.objects.create(user=leaver, game=game, at=game.created_at, left=Left.NO_START)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_play_now_tells_a_waiting_leaver_how_long_and_why(login_page, make_user, lang):
    ana, ben = make_user("ana"), make_user("ben")
    left_a_game(ben, ana)
    page = login_page(ben, PHONE, touch=True)
    page.goto(f"{page.live_url}/")
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": page.live_url}])
    page.goto(f"{page.live_url}/play-now/")
    notice = page.locator("[data-role=leaver-wait]")
    expect(notice).to_be_in_viewport()
    expect(notice).to_contain_text(SAYS[lang].split(" 5 ")[0])
    check_page(page, "play-now-leaver-wait", lang)
    page.click("[data-role=join]")
    expect(page.locator("[data-role=message]")).to_contain_text(SAYS[lang].split(" 5 ")[0])
    page.wait_for_timeout(2500)  # a status poll or two: the page must not join again
    assert not QueueEntry.objects.filter(user=ben).exists()
    expect(page.locator("#play-now")).not_to_have_attribute("data-state", "waiting")
    assert page.errors == []
