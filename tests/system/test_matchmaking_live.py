"""The queue under real processes: two Daphnes and two Celery workers pairing at once."""

from __future__ import annotations

import json
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from websockets.sync.client import connect

from games.models import Game
from lobby.models import QueueEntry
from lobby.tasks import queue_pair_task
from tests.live import live_platform, platform_env, spawn, wait_for_log, worker_args

PLAYERS = 16


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def wait_in_queue(url: str, origin: str, cookie: str, start: threading.Barrier) -> dict[str, Any]:
    """One browser: join over the lobby socket and wait to be sent to a game.

    Returns the game learnt first (from the join's or a status answer, or a pushed
    redirect) and whether a redirect was pushed at all within 3 s of learning it.
    """
    headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}", "Origin": origin}
    found: dict[str, Any] = {"game": None, "pushed": None}
    with connect(f"{url}/ws/lobby/", additional_headers=headers, open_timeout=10) as ws:
        start.wait(timeout=30)
        ws.send(json.dumps({"type": "queue", "do": "join"}))
        deadline = time.monotonic() + 30
        last_status = time.monotonic()
        while time.monotonic() < deadline:
            if found["game"] is None and time.monotonic() - last_status > 0.5:
                # Without Redis (one process's in-memory layer) a pairing made in another
                # process can only be learnt from the status.
                ws.send(json.dumps({"type": "queue", "do": "status"}))
                last_status = time.monotonic()
            try:
                frame = json.loads(ws.recv(timeout=0.2))
            except TimeoutError:
                continue
            if frame["type"] == "redirect":
                found["game"] = found["game"] or frame["game"]
                found["pushed"] = frame["game"]
                return found
            if frame["type"] == "queue" and frame.get("game") and found["game"] is None:
                found["game"] = frame["game"]
                deadline = time.monotonic() + 3  # now wait for the push
    if found["game"] is None:
        raise AssertionError("never sent to a game")
    return found


@pytest.mark.live
@pytest.mark.django_db(transaction=True)
def test_concurrent_joins_on_two_daphnes_and_two_workers_pair_everyone_once(user_factory):
    users = [user_factory(f"live{i:02d}") for i in range(PLAYERS)]
    cookies = {user.pk: session_cookie(user) for user in users}
    with (
        live_platform(web=2, worker=True) as platform,
        tempfile.TemporaryDirectory(prefix="live-worker2-") as tmp,
    ):
        second = spawn(
            "worker-2",
            worker_args(beat=False, schedule=Path(tmp) / "beat"),
            platform_env(),
            Path(tmp),
        )
        platform.processes.append(second)
        wait_for_log(second, "ready.")
        start = threading.Barrier(PLAYERS + 1)
        results: dict[int, dict[str, Any]] = {}
        errors: list[BaseException] = []

        def browser(index: int, user: Any) -> None:
            web = index % 2  # half the players on each Daphne
            try:
                results[user.pk] = wait_in_queue(
                    platform.ws_url(web), platform.url(web), cookies[user.pk], start
                )
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=browser, args=(i, user)) for i, user in enumerate(users)]
        for thread in threads:
            thread.start()
        start.wait(timeout=30)
        # Meanwhile both workers run pairing passes, as the beat does every second.
        for _ in range(40):
            queue_pair_task.delay()
            time.sleep(0.02)
        for thread in threads:
            thread.join(60)
        logs = platform.logs()
        assert not errors, (errors, logs)
        for worker in (platform.processes[-2], second):
            wait_for_log(worker, "lobby.tasks.queue_pair", timeout=20)

    games = list(Game.objects.all())
    seats = Counter(uid for game in games for uid in (game.player0_id, game.player1_id))
    assert len(games) == PLAYERS // 2
    assert set(seats) == {user.pk for user in users} and set(seats.values()) == {1}
    assert all(game.player0_id != game.player1_id for game in games)
    assert not QueueEntry.objects.exists()
    for user in users:
        game = next(g for g in games if user.pk in (g.player0_id, g.player1_id))
        assert results[user.pk]["game"] == game.pk
        if settings.REDIS_URL:
            # The channel layer crosses processes: whoever paired them (either Daphne, either
            # worker), both players' lobby sockets were pushed the redirect to their game.
            assert results[user.pk]["pushed"] == game.pk, results
