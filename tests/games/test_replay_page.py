"""The replay page: a finished game's every step, computed once by the engine and sent
with the page (the browser steps through them: tests/e2e/test_site_pages.py)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from games.models import Game
from games.replay.log import game_changes
from tests.ratings.conftest import play_game, players

pytestmark = pytest.mark.django_db

__all__ = ["play_game", "players"]


def page_steps(html: str) -> list[dict]:
    found = re.search(
        r'<script id="replay-steps" type="application/json">(.*?)</script>', html, re.S
    )
    assert found, "no steps in the page"
    return json.loads(found.group(1))


def test_replay_sends_every_step_of_the_log_once(players, play_game):
    alice, bob = players[:2]
    game = play_game(alice, bob, winner=0)
    rows = list(game_changes(game))
    html = Client().get(f"/games/{game.pk}/replay/").content.decode()
    steps = page_steps(html)
    assert len(steps) == len(rows) + 1
    assert steps[0]["action"] == {} and steps[0]["table"]["board"]["lead"] is None
    for step, row in zip(steps[1:], rows, strict=True):
        assert step["seat"] == row.seat and step["action"]["do"] == row.action["do"]
    # Every step carries both hands: the game is over, nothing is secret any more.
    dealt = next(step for step in steps if step["table"]["round"] == 1 and step["hands"][0])
    assert dealt["hands"][1], dealt
    last = steps[-1]
    assert last["table"]["status"] == "finished" and last["table"]["winner"] == 0
    assert any(event["type"] == "game_over" for event in last["events"])
    assert "alice won." in html and 'data-start="0"' in html


def test_replay_starts_at_the_step_asked_for(players, play_game):
    alice, bob = players[:2]
    game = play_game(alice, bob, winner=1)
    total = game_changes(game).count()
    client = Client()
    assert 'data-start="3"' in client.get(f"/games/{game.pk}/replay/?step=3").content.decode()
    last = client.get(f"/games/{game.pk}/replay/?step=99999").content.decode()
    assert f'data-start="{total}"' in last
    assert 'data-start="0"' in client.get(f"/games/{game.pk}/replay/?step=x").content.decode()
    assert client.get("/games/999999/replay/").status_code == 404


def test_replay_of_a_game_in_progress_sends_no_step(players):
    from tests.games.factories import make_game

    alice, bob = players[:2]
    game = make_game(alice, bob)
    html = Client().get(f"/games/{game.pk}/replay/").content.decode()
    assert "available once the game is over" in html
    assert "replay-steps" not in html and "hands" not in html
    assert Game.objects.get(pk=game.pk).is_active
