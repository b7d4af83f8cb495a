"""The site's pages under their Content-Security-Policy in Chromium: nothing is blocked.

The login_page fixture fails a test whose pages reported any CSP violation; here every
page is visited once, the admin's included (it runs under the same policy), and the
header is checked on each document.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from pages.csp import POLICY
from tests.e2e.conftest import DESKTOP, settle
from tests.games.factories import make_game

pytestmark = [pytest.mark.e2e, pytest.mark.live]


def test_pages_and_admin_load_with_nothing_blocked(login_page, make_user) -> None:
    root = get_user_model().objects.create_superuser(
        username="root", password="felt-green-42x", email="root@example.org"
    )
    bob = make_user("bob")
    game = make_game(root, bob)
    page = login_page(root, DESKTOP)
    base = page.live_url
    paths = [
        "/",
        "/rules/",
        "/lobby/",
        "/play-now/",
        "/leaderboard/",
        "/accounts/bob/",
        f"/games/{game.pk}/replay/",
        "/admin/",
        "/admin/games/game/",
        f"/admin/games/game/{game.pk}/change/",
        "/admin/auth/user/add/",
    ]
    for path in paths:
        response = page.goto(base + path)
        assert response is not None and response.status == 200, path
        assert response.headers["content-security-policy"] == POLICY, path
        page.wait_for_load_state("load")
        settle(0.3)  # a late script or socket would report its violation here
    assert page.errors == []
