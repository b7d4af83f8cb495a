"""Reporting a player from their profile on a phone (390x844), in English and Spanish: the
form fits without sideways scrolling, its button is in sight, axe-core finds nothing
serious, and the confirmation says the report reached the moderators. A marked and warned
player's home page says so on a phone, and "I understand" puts the warning away."""

from __future__ import annotations

from typing import Any

import pytest

from fairplay.models import PlayerWarning, Report
from fairplay.services import account_mark, account_warn
from tests.e2e.conftest import PHONE
from tests.e2e.pagecheck import check_page

pytestmark = [pytest.mark.e2e, pytest.mark.live]

TEXT = {
    "en": ("Report this player", "Send the report", "At most 500", "Report sent", "has reached"),
    "es": (
        "Denunciar a este jugador",
        "Enviar la denuncia",
        "Como mucho 500",
        "Denuncia enviada",
        "ha llegado",
    ),
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_player_reports_another_from_the_profile_on_a_phone(
    login_page: Any, make_user: Any, lang: str
) -> None:
    reporter, target = make_user(f"reporter-{lang}"), make_user(f"rude-{lang}")
    link, send, limit, sent, reached = TEXT[lang]
    page = login_page(reporter, PHONE, touch=True)
    page.context.add_cookies(
        [{"name": "django_language", "value": lang, "domain": "127.0.0.1", "path": "/"}]
    )
    page.goto(f"{page.live_url}/accounts/{target.username}/")
    check_page(page, "profile-of-another", lang)
    page.get_by_role("link", name=link).click()
    page.wait_for_url("**/fair-play/report/?player=*")
    button = page.get_by_role("button", name=send)
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    assert limit in page.locator("main").inner_text()
    check_page(page, "report", lang)

    page.locator("select[name=reason]").select_option("name")
    page.locator("textarea[name=text]").fill("Their username insults other players.")
    button.click()
    page.wait_for_url("**/fair-play/report/sent/*")
    assert page.get_by_role("heading", name=sent).is_visible()
    assert reached in page.locator("main").inner_text()
    check_page(page, "report-sent", lang)
    report = Report.objects.get(reporter=reporter)
    assert (report.player_id, report.reason, report.game_id) == (target.pk, "name", None)
    assert report.text == "Their username insults other players."
    assert page.errors == []


NOTICES = {
    "en": ("Your account is marked", "A moderator has warned you.", "I understand"),
    "es": ("Los moderadores han marcado tu cuenta.", "Un moderador te ha advertido.", "Entendido"),
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_marked_and_warned_player_sees_it_on_the_home_page_on_a_phone(
    login_page: Any, make_user: Any, lang: str
) -> None:
    player, moderator = make_user(f"booster-{lang}"), make_user(f"moderator-{lang}")
    account_warn(actor=moderator, player=player, reason="boosting")
    account_mark(actor=moderator, player=player)
    marked, warned, understood = NOTICES[lang]
    page = login_page(player, PHONE, touch=True)
    page.context.add_cookies(
        [{"name": "django_language", "value": lang, "domain": "127.0.0.1", "path": "/"}]
    )
    page.goto(f"{page.live_url}/")
    main = page.locator("main")
    assert marked in main.inner_text() and warned in main.inner_text()
    check_page(page, "home-marked", lang)
    page.get_by_role("button", name=understood).click()
    page.wait_for_load_state("load")
    assert warned not in page.locator("main").inner_text()
    assert marked in page.locator("main").inner_text()  # a mark stays until it is lifted
    assert PlayerWarning.objects.get(player=player).seen_at is not None
    assert page.errors == []
