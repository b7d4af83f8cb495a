"""Live: whole games against the computer, one per strength, through a real Celery worker
and a real Daphne (tests/live.py).

The person plays over a real WebSocket; the computer's moves are Celery tasks the game
writer schedules on commit, run by the worker, which submits them through the game service
like any player's; with Redis the worker pushes each move to the person's socket. With the
in-memory channel layer (no REDIS_URL) it cannot, so the client asks for the table again
(a `tick`) while it waits.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from games import bots, engine
from games.computer.moves import computer_game_create
from games.models import Game, GameAction
from ratings.models import RatingEntry
from ratings.selectors import game_is_ratable
from tests.games.factories import choose, seeded_deals
from tests.games.wsclient import session_cookie
from tests.live import LiveClient, live_platform

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

# Quick computers: the pause and the thinking are not what is tested here.
QUICK = {"COMPUTER_PAUSE_SECONDS": "0.02", "COMPUTER_THINK_SECONDS": "0.05"}


async def play_to_the_end(client: LiveClient) -> dict[str, Any]:
    """The person's side on an open socket: the tests' policy whenever the table offers
    them a choice, until the game is over; returns the last view."""
    for _ in range(3000):
        assert client.state is not None
        view = client.state["game"]
        if view["status"] not in ("waiting", "playing"):
            return view
        action = choose([a for a in view["legal"] if a["do"] != "resign"])
        if action is not None:
            reply = await client.act(action)
            assert reply["type"] == "ack", (action, reply)
            await client.until_version(reply["version"])
            continue
        if settings.REDIS_URL:  # the worker pushes the computer's move to the socket
            await client.until(lambda m: m["type"] == "state", timeout=10)
            continue
        try:  # the in-memory layer: ask for the table until the move shows
            await client.until(lambda m: m["type"] == "state", timeout=0.5)
        except TimeoutError:
            await client.socket.send(json.dumps({"type": "tick"}))
    raise AssertionError("the game did not end")


async def play_against_the_computer(base: str, game_id: int, cookie: str) -> dict[str, Any]:
    client = await LiveClient.open(base, game_id, cookie)
    try:
        return await play_to_the_end(client)
    finally:
        await client.socket.close()


def test_a_whole_game_against_each_strength_through_the_worker(db: None) -> None:
    # No passwords: the players' sessions are made directly (session_cookie).
    people = tuple(get_user_model().objects.create(username=name) for name in ("a", "b", "c"))
    games = [
        computer_game_create(
            user=person,
            strength=strength,
            seat=index % 2,
            deals=seeded_deals(30 + index),
            balances=(20, 20),
        )
        for index, (person, strength) in enumerate(zip(people, bots.STRENGTHS, strict=True))
    ]
    cookies = [session_cookie(person) for person in people]
    with live_platform(web=1, worker=True, env=QUICK) as platform:

        async def play_all() -> list[dict[str, Any]]:
            return await asyncio.gather(
                *(
                    play_against_the_computer(platform.ws_url(), game.pk, cookie)
                    for game, cookie in zip(games, cookies, strict=True)
                )
            )

        finals = asyncio.run(play_all())
        logs = platform.logs()
    for game, person, final in zip(games, people, finals, strict=True):
        game.refresh_from_db()
        bot_seat = 1 - game.seats_of(person.pk)[0]
        # Played to the end on points: the computer never lost on time.
        assert (game.status, game.reason) == (Game.Status.FINISHED, "points"), logs
        assert final["status"] == "finished" and final["winner"] == game.winner_seat
        moves = GameAction.objects.filter(game=game, seat=bot_seat, user=game.player(bot_seat))
        assert moves.filter(action__do__in=list(engine.DECISIONS)).count() >= 3
        # Every computer request was accepted, each under its own request id.
        assert not moves.exclude(error="").exists(), logs
        assert all(move.request_id.startswith("computer-") for move in moves)
        assert game.bot_since is None
        # Unrated: no ledger entry for anyone, and the ratings do not count it.
        assert not game.rated and not game_is_ratable(game)
        assert not RatingEntry.objects.filter(game=game).exists()
