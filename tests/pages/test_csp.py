"""Every response carries the Content-Security-Policy (pages/csp.py), pages and files alike."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from pages.csp import POLICY
from tests.games.factories import make_game

pytestmark = pytest.mark.django_db

DIRECTIVES = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "object-src": "'none'",
}


def directives(header: str) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in header.split(";"))


def test_the_policy_allows_nothing_inline():
    assert directives(POLICY) == DIRECTIVES
    assert "unsafe" not in POLICY


def test_every_page_carries_the_policy(client: Client) -> None:
    users = get_user_model().objects
    admin = users.create_superuser(username="root", password="x-long-pass-42", email="r@x.org")
    bob = users.create_user(username="bob", password="x-long-pass-42")
    game = make_game(admin, bob)
    anonymous = [
        reverse("home"),
        reverse("rules"),
        reverse("login"),
        reverse("signup"),
        reverse("leaderboard"),
        "/static/jsi18n/es/djangojs.js",
        "/static/css/site.css",
        "/no-such-page/",
        "/admin/login/",
    ]
    signed_in = [
        reverse("lobby"),
        reverse("play-now"),
        reverse("game", kwargs={"game_id": game.pk}),
        reverse("game-replay", kwargs={"game_id": game.pk}),
        reverse("profile", kwargs={"username": "bob"}),
        reverse("password-change"),
        "/admin/",
        "/admin/games/game/",
        f"/admin/games/game/{game.pk}/change/",
        "/admin/auth/user/add/",
    ]
    for url in anonymous:
        response = client.get(url)
        assert response.status_code in (200, 302, 404), url
        assert response.headers["Content-Security-Policy"] == POLICY, url
    client.force_login(admin)
    for url in signed_in:
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Content-Security-Policy"] == POLICY, url
