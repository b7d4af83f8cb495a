"""An arena under real processes: eight scripted players on a Daphne and a Celery worker with
beat (PostgreSQL and Redis in CI) play it to its end while the worker is killed and started
again, or while Redis (broker and channel layer) restarts empty; no wave, game or point is
lost, and the standings equal a recount from the games."""

from __future__ import annotations

import json
import random
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from games import engine
from games.models import Game
from tests.live import (
    live_platform,
    own_redis,
    platform_env,
    spawn,
    wait_for,
    wait_for_log,
    wait_until,
    worker_args,
)
from tests.tournaments.test_services import recounted
from tournaments.models import Arena, ArenaGame, ArenaPlayer
from tournaments.services import arena_join

PLAYERS = 8
LAST_PAIRING_SECONDS = 20  # of a one-minute arena: 40 s of waves


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def play_game(url: str, headers: dict[str, str], game_id: int, rng: random.Random) -> None:
    """Random legal decisions, a resignation now and then so that games stay short."""
    with connect(f"{url}/ws/games/{game_id}/", additional_headers=headers, open_timeout=10) as ws:
        sent = 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            frame = json.loads(ws.recv(timeout=30))
            if frame["type"] != "state":
                continue
            view = frame["game"]
            if view["status"] not in ("waiting", "playing"):
                return
            choices = engine.choices(view["legal"] or [])
            if not choices:
                continue
            action = {"do": "resign"} if rng.random() < 0.04 else rng.choice(choices)
            sent += 1
            ws.send(json.dumps({"type": "action", "id": f"{game_id}-{sent}", "action": action}))
        raise AssertionError(f"game {game_id} did not end")


def next_game(frame: dict[str, Any]) -> int | None:
    """The game a user-socket frame sends the player to: a wave's redirect, or (after a
    reconnection, or groups rejoined after Redis came back) their game in progress."""
    if frame["type"] == "redirect":
        return int(frame["game"])
    if frame["type"] == "your_game" and frame["game"]:
        return int(frame["game"]["id"])
    return None


def scripted_player(
    origin: str, url: str, cookie: str, seed: int, stop: threading.Event, played: list[int]
) -> None:
    """A player on the lobby socket (their user socket): every game they are sent to, played."""
    headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}", "Origin": origin}
    rng = random.Random(seed)
    while not stop.is_set():
        try:
            with connect(f"{url}/ws/lobby/", additional_headers=headers, open_timeout=10) as ws:
                while not stop.is_set():
                    try:
                        frame = json.loads(ws.recv(timeout=0.5))
                    except TimeoutError:
                        continue
                    game_id = next_game(frame)
                    if game_id is not None and game_id not in played:
                        played.append(game_id)
                        play_game(url, headers, game_id, rng)
        except (ConnectionClosed, OSError):
            time.sleep(0.5)  # the platform restarting a process: come back, as a page does


@pytest.mark.live
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_arena_plays_to_its_end_through_a_worker_restart(user_factory):
    def restart_the_worker(platform: Any, env: dict[str, str], tmp: Path) -> None:
        worker = platform.processes[-1]
        worker.stop(timeout=0.1)
        again = spawn(
            "worker-again", worker_args(beat=True, schedule=tmp / "beat"), platform_env(**env), tmp
        )
        platform.processes.append(again)
        wait_for_log(again, "ready.", timeout=60)

    play_an_arena(user_factory, {}, restart_the_worker)


@pytest.mark.live
@pytest.mark.soak  # a minute's arena and a Redis outage of set length
@pytest.mark.django_db(transaction=True)
def test_an_arena_plays_to_its_end_through_a_redis_restart(user_factory):
    back = []
    with own_redis() as (url, restart):

        def restart_redis(platform: Any, env: dict[str, str], tmp: Path) -> None:
            restart(down_for=3.0)
            back.append(timezone.now())

        games = play_an_arena(user_factory, {"REDIS_URL": url}, restart_redis)
    assert games.filter(game__created_at__gt=back[0]).exists()  # waves went on pairing


def play_an_arena(
    user_factory: Any, env: dict[str, str], fault: Callable[[Any, dict[str, str], Path], None]
) -> Any:
    """Eight scripted players through a one-minute arena, `fault` striking once two games
    are over; every check on what it left; its games."""
    users = [user_factory(f"arena{i}") for i in range(PLAYERS)]
    cookies = [session_cookie(user) for user in users]
    env = {**env, "ARENA_LAST_PAIRING_SECONDS": str(LAST_PAIRING_SECONDS)}
    with (
        tempfile.TemporaryDirectory(prefix="arena-fault-") as tmp,
        live_platform(web=1, worker=True, beat=True, env=env) as platform,
    ):
        arena = Arena.objects.create(
            name="Live", starts_at=timezone.now() + timedelta(seconds=3), minutes=1
        )
        for user in users:
            arena_join(user=user, arena_id=arena.pk)
        stop = threading.Event()
        played: list[list[int]] = [[] for _ in users]
        threads = [
            threading.Thread(
                target=scripted_player,
                args=(platform.url(), platform.ws_url(), cookie, seed, stop, played[seed]),
                daemon=True,
            )
            for seed, cookie in enumerate(cookies)
        ]
        for thread in threads:
            thread.start()
        try:
            ended = ArenaGame.objects.filter(arena=arena, ended_at__isnull=False)
            assert wait_for(lambda: ended.count() >= 2, 40), platform.logs()
            fault(platform, env, Path(tmp))
            finished = Arena.objects.filter(pk=arena.pk, status=Arena.Status.FINISHED)
            assert wait_for(finished.exists, 120), platform.logs()[-6000:]
            wait_until(
                lambda: (
                    not ArenaGame.objects.filter(arena=arena, ended_at__isnull=True)
                    .exclude(game__status__in=Game.ACTIVE_STATUSES)
                    .exists()
                    and not Game.objects.filter(
                        arena_game__arena=arena, status__in=Game.ACTIVE_STATUSES
                    ).exists()
                ),
                timeout=150,
                message="games still running long after the end",
            )
        finally:
            stop.set()
            for thread in threads:
                thread.join(10)
            logs = platform.logs()

    assert "Unrecoverable error" not in logs, logs[-6000:]
    games = ArenaGame.objects.filter(arena=arena)
    assert games.count() >= 4, logs
    assert not games.filter(ended_at__isnull=True).exists()  # every game counted
    stored = {e.user_id: e.score for e in ArenaPlayer.objects.filter(arena=arena)}
    assert {user_id: score for user_id, score in recounted(arena).items()} == {
        user_id: score for user_id, score in stored.items() if user_id in recounted(arena)
    }
    assert sum(stored.values()) >= 2
    # Nobody was paired during the last minute's quiet, nor into two games at once.
    last_pairing = arena.ends_at - timedelta(seconds=LAST_PAIRING_SECONDS)
    assert not games.filter(game__created_at__gt=last_pairing + timedelta(seconds=2)).exists()
    for user in users:
        mine = [g.game for g in games.filter(player0=user) | games.filter(player1=user)]
        spans = sorted((g.created_at, g.finished_at or timezone.now()) for g in mine)
        assert all(a[1] <= b[0] for a, b in pairwise(spans)), user
    return games
