"""The lobby's pages, rendered by the test client."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_play_now_page(players, client_logged_in):
    alice = players[0]
    assert Client().get("/play-now/").status_code == 302  # login first
    page = client_logged_in(alice).get("/play-now/").content.decode()
    assert 'data-ws-path="/ws/user/"' in page and "lobby/play_now.js" in page
    assert "js/user.js" in page  # the page's one socket is the header's
    assert "1500?" in page
