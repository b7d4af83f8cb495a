"""`make run`'s platform pushes the worker's changes to the sockets: in embedded mode through
the relay to the web process (realtime.relay), with Redis through the channel layer."""

from __future__ import annotations

import asyncio
import json
import signal
import time

import pytest
import websockets
from django.conf import settings

from games.computer.moves import computer_game_create
from games.models import GameAction
from tests.games.wsclient import session_cookie
from tests.live import BIN, free_port, platform_env, spawn, wait_for_http, wait_for_log
from tools.local_run import local_environment

pytestmark = [pytest.mark.live]


def test_the_computers_moves_reach_the_page_without_it_asking(transactional_db, alice, tmp_path):
    port = free_port()
    environ = platform_env(WEB_PORT=str(port), BEAT_SCHEDULE=str(tmp_path / "beat-schedule"))
    environ.pop("DEBUG", None)
    environ["SECRET_KEY"] = settings.SECRET_KEY  # so that this process's session is valid there
    env = local_environment(environ, tmp_path)
    supervisor = spawn("supervisor", [str(BIN / "python"), "-m", "tools.local_run"], env, tmp_path)
    try:
        wait_for_http(f"http://127.0.0.1:{port}/", supervisor, timeout=60)
        wait_for_log(supervisor, "ready.", timeout=40)
        cookie = session_cookie(alice)

        async def watch() -> list[tuple[int, float]]:
            game = await asyncio.to_thread(
                computer_game_create, user=alice, strength="easy", seat=1
            )
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/games/{game.pk}/",
                origin=websockets.Origin(f"http://127.0.0.1:{port}"),
                additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
            ) as socket:
                versions = []
                end = time.monotonic() + 20
                # Only listening: no tick, no ping, nothing that would make the server read.
                while len(versions) < 2 and time.monotonic() < end:
                    message = json.loads(await asyncio.wait_for(socket.recv(), 20))
                    if message["type"] == "state":
                        versions.append((message["version"], time.time()))
                return versions

        versions = asyncio.run(watch())
        # The state on connecting, then the one the worker made: the computer's Start.
        assert len(versions) == 2 and versions[1][0] > versions[0][0], supervisor.log()[-4000:]
        logged = GameAction.objects.get(game__player1=alice, version=versions[1][0])
        lag = versions[1][1] - logged.received_at.timestamp()
        print(f"\nthe computer's Start reached the page {lag * 1000:.0f} ms after it was logged")
    finally:
        supervisor.stop(signal.SIGINT, timeout=45)
