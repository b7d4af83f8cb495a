"""A waiting leaver's "Play now" join over the user socket, and rematch offer over the
game socket: refused with the code `leaver_wait` and the wait's own text in the page's
language; nothing queued, nothing offered."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from fairplay.models import GameConduct
from fairplay.waits import Left
from games.models import Game
from lobby.models import QueueEntry
from tests.games.factories import make_game
from tests.games.wsclient import WsClient

pytestmark = pytest.mark.django_db(transaction=True)


def over(game: Game) -> Game:
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    return game


def left_a_game(leaver, other) -> None:
    game = over(make_game(other, leaver))
    GameConduct.objects.create(user=leaver, game=game, at=game.created_at, left=Left.NO_START)


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "You can start a new game in 5 minutes"), ("es", "Podrás empezar una partida")],
)
async def test_a_waiting_leaver_joining_the_queue_gets_leaver_wait(alice, bob, language, text):
    await database_sync_to_async(left_a_game)(bob, alice)
    page = WsClient("/ws/lobby/", user=bob)
    page.language = language
    assert (await page.connect())[0]
    await page.send({"type": "queue", "do": "join", "id": "join-1"})
    reply = await page.until(lambda m: m["type"] in ("error", "queue"))
    assert (reply["type"], reply["code"], reply["id"]) == ("error", "leaver_wait", "join-1")
    assert reply["message"].startswith(text)
    assert not await database_sync_to_async(QueueEntry.objects.filter(user=bob).exists)()
    await page.close()


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "You can start a new game in 5 minutes"), ("es", "Podrás empezar una partida")],
)
async def test_a_waiting_leaver_offering_a_rematch_gets_leaver_wait(alice, bob, language, text):
    def left_the_game() -> Game:
        game = over(make_game(alice, bob))
        GameConduct.objects.create(user=bob, game=game, at=game.created_at, left=Left.NO_START)
        return game

    game = await database_sync_to_async(left_the_game)()
    page = WsClient(f"/ws/games/{game.pk}/", user=bob)
    page.language = language
    assert (await page.connect())[0]
    await page.send({"type": "rematch", "id": "r1", "answer": "offer"})
    reply = await page.until(lambda m: m["type"] in ("error", "ack") and m.get("id") == "r1")
    assert (reply["type"], reply["code"]) == ("error", "leaver_wait")
    assert reply["message"].startswith(text)
    await database_sync_to_async(game.refresh_from_db)()
    assert game.rematch_offered_by is None
    await page.close()


async def test_a_player_whose_wait_is_over_joins(alice, bob):
    def long_ago() -> None:
        game = over(make_game(alice, bob))
        at = game.created_at - timedelta(hours=2)
        GameConduct.objects.create(user=bob, game=game, at=at, left=Left.NO_START)

    await database_sync_to_async(long_ago)()
    page = WsClient("/ws/lobby/", user=bob)
    assert (await page.connect())[0]
    await page.send({"type": "queue", "do": "join", "id": "join-1"})
    reply = await page.until(lambda m: m["type"] in ("error", "queue") and m.get("id") == "join-1")
    assert reply["type"] == "queue" and reply["in_queue"]
    await page.close()
