"""The profile's "Joined" date in the reader's own time zone (static/js/local-time.js):
a player who joined early on a UTC morning joined the day before for a reader in Bogotá,
in English and Spanish; the served UTC date stays in the title."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.live]

# 02:30 UTC on 1 March is 21:30 on 28 February in Bogotá (UTC-5 all year).
JOINED = datetime(2025, 3, 1, 2, 30, tzinfo=UTC)
SHOWN = {"en": ("Feb 28, 2025", "Mar 1, 2025"), "es": ("28 feb 2025", "1 mar 2025")}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_joined_date_is_the_readers_own(login_page: Any, make_user: Any, lang: str) -> None:
    reader, player = make_user(f"reader-{lang}"), make_user(f"joiner-{lang}")
    player.date_joined = JOINED
    player.save(update_fields=["date_joined"])
    page = login_page(reader, PHONE, timezone_id="America/Bogota")
    page.context.add_cookies(
        [{"name": "django_language", "value": lang, "domain": "127.0.0.1", "path": "/"}]
    )
    page.goto(f"{page.live_url}/accounts/{player.username}/")
    joined = page.locator(".profile__header time")
    expect(joined).to_have_attribute("data-localized", "true")
    assert joined.get_attribute("title") == "2025-03-01 02:30 UTC"
    local, utc = SHOWN[lang]
    assert local in joined.inner_text() and utc not in joined.inner_text(), joined.inner_text()
