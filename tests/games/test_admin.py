"""Admin pages load; a live game's hidden state is not shown there."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services import game_submit_action
from tests.games.factories import make_game

pytestmark = pytest.mark.django_db


def test_game_admin_pages(admin_client, alice, bob):
    game = make_game(alice, bob)
    game_submit_action(game_id=game.pk, user=alice, action={"do": "start"}, request_id="1")
    game_submit_action(game_id=game.pk, user=bob, action={"do": "start"}, request_id="1")
    changelist = admin_client.get(
        reverse("admin:games_game_changelist"), {"q": "alice", "status": "playing"}
    )
    assert changelist.status_code == 200 and f">{game.pk}<" in changelist.content.decode()
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "boneyard" not in html  # the live engine state stays out of sight
    assert "start" in html  # the action log inline
    game_submit_action(game_id=game.pk, user=bob, action={"do": "resign"}, request_id="2")
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert "boneyard" in page.content.decode()


@pytest.mark.parametrize(
    ("language", "header"),
    [("en", "Spectacular Bid administration"), ("es", "Administración de Spectacular Bid")],
)
def test_the_admin_is_the_sites_own_in_both_languages(client, language, header):
    page = client.get("/admin/login/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert header in page
    assert "Django" not in page
