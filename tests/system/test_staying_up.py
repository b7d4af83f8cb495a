"""Live: the platform keeps running through the failures it will meet (issue 9).

Real Daphne and Celery processes on the test database (tests/live.py). Each test is
bounded in time; the Redis ones start their own redis-server where they restart it, so the
Redis other tests share is never touched.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from typing import Any

import pytest
import websockets
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import engine
from games.models import Game, ServiceFault
from lobby.groups import LOBBY_GROUP
from realtime.channel_layer import SteadyRedisChannelLayer
from tests.games.factories import choose, started_in_the_past
from tests.games.wsclient import session_cookie
from tests.live import (
    LiveClient,
    database_proxy,
    live_platform,
    own_redis,
    platform_env,
    spawn,
    started_pids,
    supervisor_args,
    wait_for,
    wait_for_log,
    wait_until,
    worker_args,
)

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

needs_redis = pytest.mark.skipif(
    not settings.REDIS_URL, reason="the Redis channel layer is what this test is about"
)


async def lobby_socket(base: str, cookie: str) -> Any:
    """A lobby WebSocket (/ws/lobby/) signed in with the session `cookie`."""
    return await websockets.connect(
        f"{base}/ws/lobby/?challenges=1",
        origin=websockets.Origin("http://127.0.0.1"),
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
    )


async def next_message(socket: Any, kind: str, *, timeout: float) -> dict[str, Any]:
    """The next message of type `kind` on `socket` (the others are read and dropped)."""
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), timeout))
        if message["type"] == kind:
            return message


@pytest.mark.soak  # a minute of silence on the socket
@needs_redis
def test_an_idle_game_socket_on_the_redis_layer_stays_open_for_a_minute(alice, bob, carol):
    game = started_in_the_past(alice, bob, 0, banks=(120, 120))
    cookie = session_cookie(carol)
    with live_platform(web=1, worker=False) as platform:

        async def idle() -> dict[str, Any]:
            # No protocol-level pings from this client either: the socket is truly idle.
            socket = await websockets.connect(
                f"{platform.ws_url()}/ws/games/{game.pk}/",
                origin=websockets.Origin("http://127.0.0.1"),
                additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
                ping_interval=None,
            )
            first = json.loads(await socket.recv())
            assert first["type"] == "state"
            await asyncio.sleep(60)
            await socket.send(json.dumps({"type": "ping"}))
            # A spectator's arrival is told to every audience (the viewer count) meanwhile.
            reply = await next_message(socket, "pong", timeout=5)
            await socket.close()
            return reply

        reply = asyncio.run(idle())
        assert reply["type"] == "pong", platform.logs()
        assert "1011" not in platform.logs()


@pytest.mark.soak  # until the dead Daphne's presence entries expire (games.live.presence)
@needs_redis
def test_players_of_a_killed_daphne_are_shown_disconnected_within_30_s(alice, bob):
    game = started_in_the_past(alice, bob, 0, banks=(120, 120))
    cookies = (session_cookie(alice), session_cookie(bob))
    with live_platform(web=2, worker=True) as platform:

        async def watch() -> float:
            c0 = await LiveClient.open(platform.ws_url(0), game.pk, cookies[0])
            c1 = await LiveClient.open(platform.ws_url(1), game.pk, cookies[1])
            await c0.until(
                lambda m: m["type"] in ("presence", "state") and _connected(m) == [True, True]
            )
            platform.processes[1].stop(signal.SIGKILL)  # bob's Daphne dies, no goodbye
            killed_at = time.monotonic()
            await c0.until(
                lambda m: m["type"] in ("presence", "state") and _connected(m) == [True, False],
                timeout=30,
            )
            told_after = time.monotonic() - killed_at
            await c0.socket.close()
            del c1
            return told_after

        told_after = asyncio.run(watch())
        assert told_after < 30, platform.logs()


def _connected(message: dict[str, Any]) -> list[bool] | None:
    if message["type"] == "presence":
        return message["connected"]
    return message["game"].get("connected")


def test_a_worker_killed_under_the_supervisor_is_restarted_and_the_gap_voids_the_games(
    alice, bob, tmp_path
):
    """SIGKILL the worker of `make run`'s supervisor: it comes back by itself, and the gap
    in time-keeping is a fault. A short threshold keeps the test short (the restart takes
    a few seconds, well under the default 20 s); the rule is the same at any threshold.
    At 1 s (ten beats of 0.1 s: never less, see faults.fault_threshold) it is below the
    supervisor's first restart delay (1 s) plus a worker's boot, so the gap always exceeds
    it: at 2 s a fast machine had the worker beating again after 2.1 s, by chance."""
    env = platform_env(HEARTBEAT_SECONDS="0.1", FAULT_THRESHOLD_SECONDS="1")
    env["SUPERVISOR_GRACE"] = "10"
    procfile = tmp_path / "Procfile"
    procfile.write_text("worker: " + " ".join(worker_args(beat=False, schedule=tmp_path / "s")))
    supervisor = spawn("supervisor", supervisor_args(procfile), env, tmp_path)
    try:
        game = started_in_the_past(alice, bob, 0, banks=(120, 120))
        wait_for_log(supervisor, "ready.")
        assert wait_for(lambda: _beats() >= 3, 10), supervisor.log()
        [first] = started_pids(supervisor, "worker")
        killed_at = timezone.now()
        os.killpg(first, signal.SIGKILL)
        wait_until(lambda: len(started_pids(supervisor, "worker")) == 2, 30, supervisor.log())
        processed = ServiceFault.objects.filter(
            processed_at__isnull=False, start__lte=killed_at, end__gte=killed_at
        )
        assert wait_for(processed.exists, 30), supervisor.log()
        fault = processed.get()
        assert fault.kind == ServiceFault.Kind.HEARTBEAT_GAP
        assert (fault.end - fault.start).total_seconds() > 1
        game.refresh_from_db()
        assert game.status == Game.Status.CANCELLED
    finally:
        supervisor.stop(signal.SIGTERM, timeout=30)


def test_a_worker_restarted_within_the_threshold_voids_nothing(alice, bob):
    env = {"HEARTBEAT_SECONDS": "0.2", "FAULT_THRESHOLD_SECONDS": "20"}
    with live_platform(web=0, worker=True, env=env) as platform:
        game = started_in_the_past(alice, bob, 0, banks=(120, 120))
        assert wait_for(lambda: _beats() >= 3, 10), platform.logs()
        worker = platform.processes[-1]
        worker.stop(signal.SIGKILL)
        restarted = spawn(
            "worker-2",
            worker_args(beat=False, schedule=worker.log_path.parent / "s2"),
            _env(env),
            worker.log_path.parent,
        )
        platform.processes.append(restarted)
        wait_for_log(restarted, "ready.")
        before = _beats()
        assert wait_for(lambda: _beats() > before + 3, 10), platform.logs()
        assert not ServiceFault.objects.exists()
        game.refresh_from_db()
        assert game.status == Game.Status.PLAYING


def test_flags_land_on_time_after_a_redis_restart(alice, bob):
    with own_redis() as (url, restart):
        env = {"REDIS_URL": url}
        with live_platform(web=0, worker=True, beat=True, env=env) as platform:
            restart(down_for=2.0)
            # The flag falls ~3 s from now: 10 s delay + 1 s bank, started 8 s ago.
            game = started_in_the_past(alice, bob, 8.0, banks=(1, 1))
            deadline = engine.deadline(engine.from_json(game.state))
            assert deadline is not None

            def settled() -> bool:
                game.refresh_from_db()
                return game.status == Game.Status.FINISHED

            assert wait_for(settled, deadline - time.time() + 5), platform.logs()
            flag = game.actions.order_by("-seq").first()
            assert 0 <= flag.t - deadline < 1.0, platform.logs()
            assert platform.processes[-1].popen.poll() is None, platform.logs()


@pytest.mark.soak  # Redis away for 12 s
def test_open_game_sockets_see_every_move_through_a_redis_restart(alice, bob):
    """Redis restarted without persistence loses the layer's groups and the presence entries.

    Both players' sockets stay open throughout. A move made while Redis is away reaches the
    other player from the database, before Redis is back; one made after it is back comes
    through the layer again, the sockets having joined their groups anew. A socket opened
    during the outage is told to try again later (4503), which autobahn can send (1013
    came out as 1011).
    """
    game = started_in_the_past(alice, bob, 0, banks=(120, 120))
    cookies = (session_cookie(alice), session_cookie(bob))
    with (
        own_redis() as (url, restart),
        live_platform(web=1, worker=False, env={"REDIS_URL": url}) as platform,
    ):

        async def play_through_the_restart() -> dict[str, Any]:
            clients = [
                await LiveClient.open(platform.ws_url(), game.pk, cookie) for cookie in cookies
            ]

            async def move_seen_by_both() -> float:
                mover = next(c for c in clients if choose(c.state["game"]["legal"]))
                reply = await mover.act(choose(mover.state["game"]["legal"]))
                assert reply["type"] == "ack", reply
                for client in clients:
                    await client.until_version(reply["version"])
                return time.monotonic()

            outage = asyncio.ensure_future(asyncio.to_thread(restart, 12.0))
            await asyncio.sleep(1.0)
            seen_during = await move_seen_by_both()
            refused = await websockets.connect(
                f"{platform.ws_url()}/ws/games/{game.pk}/",
                origin=websockets.Origin("http://127.0.0.1"),
                additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookies[0]}"},
            )
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(refused.recv(), 15)
            await outage
            back = time.monotonic()
            await move_seen_by_both()
            await move_seen_by_both()
            for client in clients:
                await client.socket.close()
            return {"early": back - seen_during, "refused": refused.close_code}

        result = asyncio.run(play_through_the_restart())
        logs = platform.logs()
    assert result["early"] > 0, logs  # seen while Redis was still away
    assert result["refused"] == 4503, logs
    assert "Exception inside application" not in logs


@pytest.mark.soak  # until the lobby's next check of its groups (GROUPS_CHECK_SECONDS)
def test_a_lobby_socket_open_through_a_redis_restart_hears_the_lobby_again(alice, bob, carol):
    """The lobby's groups, lost with a Redis restart, are joined again within a check
    (GROUPS_CHECK_SECONDS); what was missed meanwhile is sent: here, the game a
    challenge made for the player while their lobby could not hear it."""
    cookie = session_cookie(carol)
    with (
        own_redis() as (url, restart),
        live_platform(web=1, worker=False, env={"REDIS_URL": url}) as platform,
    ):

        async def listen_through_the_restart() -> tuple[dict[str, Any], dict[str, Any]]:
            socket = await lobby_socket(platform.ws_url(), cookie)

            async def next_of(kind: str) -> dict[str, Any]:
                return await next_message(socket, kind, timeout=25)

            await next_of("challenges")
            await asyncio.to_thread(restart, 1.0)
            game = await asyncio.to_thread(started_in_the_past, carol, alice, 0)
            redirect = await next_of("redirect")
            assert redirect["game"] == game.pk
            # Joined again: a change announced to the lobby reaches this socket.
            layer = SteadyRedisChannelLayer(
                hosts=[{"address": url}], prefix=settings.CHANNELS_PREFIX
            )
            await layer.group_send(
                LOBBY_GROUP,
                {"type": "user.lobby.challenges", "stamp": time.time_ns(), "challenges": []},
            )
            changed = await next_of("challenges")
            await socket.close()
            return redirect, changed

        redirect, changed = asyncio.run(listen_through_the_restart())
        logs = platform.logs()
    assert redirect["url"].endswith(f"/games/{redirect['game']}/"), logs
    assert changed["challenges"] == [], logs


def _beats() -> int:
    from games.models import Heartbeat

    return Heartbeat.objects.count()


def _env(overrides: dict[str, str]) -> dict[str, str]:
    return platform_env(**overrides)


@pytest.mark.soak  # the database away for 10 s
def test_a_10_s_database_stop_loses_no_action_and_voids_no_game(alice, bob, carol):
    if connection.vendor != "postgresql":
        pytest.skip("an outage of a database server: PostgreSQL only (SQLite is a file)")
    proxy, proxied = database_proxy()
    game = started_in_the_past(alice, bob, 0, banks=(120, 120))
    cookies = (session_cookie(alice), session_cookie(bob))
    lobby_cookie = session_cookie(carol)
    try:
        with live_platform(web=1, worker=True, env={"DATABASE_URL": proxied}) as platform:
            assert wait_for(lambda: _beats() >= 2, 10), platform.logs()

            async def play_through_the_outage() -> list[dict[str, Any]]:
                clients = [
                    await LiveClient.open(platform.ws_url(), game.pk, cookie) for cookie in cookies
                ]
                lobby = await lobby_socket(platform.ws_url(), lobby_cookie)

                async def lobby_next(kind: str) -> dict[str, Any]:
                    return await next_message(lobby, kind, timeout=15)

                await lobby_next("challenges")
                await lobby_next("invitations")  # the last of what a socket is sent on opening
                mover = next(c for c in clients if choose(c.state["game"]["legal"]))
                waiter = next(c for c in clients if c is not mover)
                action = choose(mover.state["game"]["legal"])
                proxy.cut()
                cut = time.monotonic()
                request = {"type": "action", "id": "outage-1", "action": action}
                await mover.socket.send(json.dumps(request))
                during = await mover.until(
                    lambda m: m.get("id") == "outage-1" or m["type"] == "error", timeout=10
                )
                # The player who is only waiting is told too (realtime.database_watch).
                told = await waiter.until(
                    lambda m: m["type"] == "service" and m["database"] is False, timeout=10
                )
                told["after"] = time.monotonic() - cut
                lobby_told = await lobby_next("service")
                await asyncio.sleep(max(0.0, 10 - (time.monotonic() - cut)))
                proxy.restore()
                # The page's own retry: the same request id, until it is answered.
                for _ in range(40):
                    await mover.socket.send(json.dumps(request))
                    reply = await mover.until(lambda m: m.get("id") == "outage-1", timeout=5)
                    if reply["type"] == "ack":
                        break
                    await asyncio.sleep(0.5)
                back = await waiter.until(
                    lambda m: m["type"] == "service" and m["database"] is True, timeout=15
                )
                lobby_back = await lobby_next("service")
                await lobby_next("challenges")  # what the lobby shows, afresh
                await lobby.close()
                for client in clients:
                    await client.until_version(reply["version"])
                    await client.socket.close()
                return [during, reply, told, back, lobby_told, lobby_back]

            during, reply, told, back, lobby_told, lobby_back = asyncio.run(
                play_through_the_outage()
            )
            assert during["type"] == "error" and during["code"] == "unavailable", during
            assert reply["type"] == "ack", (reply, platform.logs())
            assert "cannot save moves" in told["message"], told
            assert f"more than {int(settings.FAULT_THRESHOLD_SECONDS)} seconds" in told["message"]
            assert told["after"] < 8, told
            assert "message" not in back, back
            assert lobby_told["database"] is False, lobby_told
            assert "challenges and the queue wait" in lobby_told["message"], lobby_told
            assert lobby_back["database"] is True, lobby_back
            before = _beats()
            assert wait_for(lambda: _beats() > before + 3, 15), platform.logs()
    finally:
        proxy.close()
    assert game.actions.filter(request_id="outage-1").count() == 1
    threshold = float(settings.FAULT_THRESHOLD_SECONDS)
    for fault in ServiceFault.objects.all():  # only a gap that really passed the threshold
        assert (fault.end - fault.start).total_seconds() > threshold
    if not ServiceFault.objects.exists():
        game.refresh_from_db()
        assert game.status == Game.Status.PLAYING
