"""Reporting a player from their profile on a phone (390x844), in English and Spanish: the
form fits without sideways scrolling, its button is in sight, axe-core finds nothing
serious, and the confirmation says the report reached the moderators."""

from __future__ import annotations

from typing import Any

import pytest

from fairplay.models import Report
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
