"""The replay page: a finished game stepped through its log, as both players saw it."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.ratings.conftest import play_game, players

pytestmark = pytest.mark.django_db

__all__ = ["play_game", "players"]


def test_replay_steps_through_the_log(players, play_game):
    alice, bob = players[:2]
    game = play_game(alice, bob, winner=0)
    total = game.actions.filter(error="").count()
    client = Client()
    first = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert f"Step 0 of {total}" in first and "The board is empty." in first
    third = client.get(f"/games/{game.pk}/replay/?step=3").content.decode()
    assert "Step 3 of" in third and "alice" in third and "played" in third
    assert 'class="replay__board"' in third
    # Both hands are shown: the game is over.
    hands = re.findall(r'<td class="replay__hand">(.*?)</td>', third, re.S)
    assert len(hands) == 2 and all("<code>" in hand for hand in hands)
    last = client.get(f"/games/{game.pk}/replay/?step=99999").content.decode()
    assert f"Step {total} of {total}" in last and "alice won." in last
    assert client.get(f"/games/{game.pk}/replay/?step=x").status_code == 200
    assert client.get("/games/999999/replay/").status_code == 404


def test_replay_waits_for_the_end_of_the_game(players):
    from tests.games.factories import make_game

    alice, bob = players[:2]
    game = make_game(alice, bob)
    page = Client().get(f"/games/{game.pk}/replay/").content.decode()
    assert "available once the game is over" in page
    assert "replay__hand" not in page
