"""Moves per second and round-trip latency of real games over WebSockets.

N games run at once, each between two WebSocket clients (the `websockets` package). In each
game the client with a legal move (from the `legal` list of the state it last received)
sends it at once; the round trip is measured from sending the action until *both* clients
hold a state with the acknowledged version. Clients respect the server's per-connection
rate limit (100 messages per 20 s), which is what "as fast as allowed" means.

Against a running platform (users, games and session cookies are made here through the
ORM, so this process needs the same DATABASE_URL as the server):

    # embedded mode: `make run` in another terminal, then
    .venv/bin/python bench/moves.py --url ws://127.0.0.1:8000 --games 1,50,200

    # PostgreSQL + Redis, two Daphne processes and a worker started here (tests/live.py):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spectacular \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/moves.py --spawn --web 2 --games 1,50,200 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import websockets  # noqa: E402
from asgiref.sync import sync_to_async  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import (  # noqa: E402
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
)

from games import services  # noqa: E402

# The policy the tests use: play before anything else, bid the minimum, never resign.
from tests.games.factories import choose  # noqa: E402

# The server's per-connection limit (settings; raise WS_RATE_LIMIT_CONNECTION, and the user
# and game limits with it, in the environment of both the servers and this process).
RATE_LIMIT = settings.WS_RATE_LIMIT_CONNECTION
RATE_WINDOW = settings.WS_RATE_LIMIT_WINDOW


def session_cookie(user: Any) -> str:
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


def bench_pair(index: int) -> tuple[Any, Any, str, str]:
    model = get_user_model()
    users = []
    for side in ("a", "b"):
        user, created = model.objects.get_or_create(username=f"bench{index}{side}")
        if created:
            user.set_unusable_password()
            user.save()
        users.append(user)
    return users[0], users[1], session_cookie(users[0]), session_cookie(users[1])


def new_game(player0: Any, player1: Any) -> int:
    return services.game_create(player0=player0, player1=player1, rated=False).pk


class Pacer:
    """Client-side mirror of the server's sliding-window rate limit."""

    def __init__(self) -> None:
        self.sent: deque[float] = deque()

    async def wait(self, deadline: float = float("inf")) -> bool:
        """Wait for a free slot; False when none frees up before `deadline`."""
        now = time.monotonic()
        while self.sent and now - self.sent[0] >= RATE_WINDOW:
            self.sent.popleft()
        if len(self.sent) >= RATE_LIMIT:
            free_at = self.sent[0] + RATE_WINDOW + 0.01
            if free_at >= deadline:
                return False
            await asyncio.sleep(free_at - now)
        self.sent.append(time.monotonic())
        return True


class Client:
    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.state: dict[str, Any] | None = None
        self.pacer = Pacer()
        self.waiters: list[tuple[Any, asyncio.Future]] = []
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.socket:
                message = json.loads(raw)
                if message["type"] == "state" and (
                    self.state is None or message["version"] >= self.state["version"]
                ):
                    self.state = message
                for waiter in list(self.waiters):
                    predicate, future = waiter
                    if not future.done() and predicate(message):
                        future.set_result(message)
                        self.waiters.remove(waiter)
        except websockets.ConnectionClosed:
            pass

    async def until(self, predicate: Any, timeout: float = 30) -> dict[str, Any]:
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self.waiters.append((predicate, future))
        return await asyncio.wait_for(future, timeout)

    async def has_version(self, version: int) -> None:
        if self.state is None or self.state["version"] < version:
            await self.until(lambda m: m["type"] == "state" and m["version"] >= version)

    async def close(self) -> None:
        await self.socket.close()
        self.reader.cancel()


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    games_finished: int = 0


_ids = itertools.count(1)


def answers(message: dict[str, Any], rid: str) -> bool:
    """The reply to request `rid` (a rate-limit refusal carries the id it refuses too)."""
    return message["type"] in ("ack", "error") and message.get("id") == rid


async def connect(url: str, game_id: int, cookie: str) -> Client:
    socket = await websockets.connect(
        f"{url}/ws/games/{game_id}/",
        origin=websockets.Origin("http://127.0.0.1"),
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
        open_timeout=60,
    )
    client = Client(socket)
    await client.until(lambda m: m["type"] == "state", timeout=60)
    return client


async def run_slot(
    index: int, urls: list[str], clock: dict[str, float], stats: Stats, ready: asyncio.Barrier
) -> None:
    """One game after another between the same two users until clock["deadline"]."""
    player0, player1, cookie0, cookie1 = await sync_to_async(bench_pair)(index)
    # Spread the two players over the Daphne processes, as a proxy would.
    url0, url1 = urls[(2 * index) % len(urls)], urls[(2 * index + 1) % len(urls)]
    game_id = await sync_to_async(new_game)(player0, player1)
    clients = [await connect(url0, game_id, cookie0), await connect(url1, game_id, cookie1)]
    await ready.wait()  # every slot connected: the clock starts for all at once
    while time.monotonic() < clock["deadline"]:
        view = clients[0].state["game"]
        if view["status"] not in ("waiting", "playing"):
            stats.games_finished += 1
            for client in clients:
                await client.close()
            game_id = await sync_to_async(new_game)(player0, player1)
            clients = [await connect(url0, game_id, cookie0), await connect(url1, game_id, cookie1)]
            continue
        mover = next((c for c in clients if choose(c.state["game"]["legal"])), None)
        if mover is None:  # the other client's state is behind: wait for it
            await clients[1].has_version(clients[0].state["version"])
            await clients[0].has_version(clients[1].state["version"])
            continue
        action = choose(mover.state["game"]["legal"])
        if not await mover.pacer.wait(clock["deadline"]):
            # Rate-limited until the end of the run: that is this game's pace.
            await asyncio.sleep(max(0.0, clock["deadline"] - time.monotonic()))
            break
        rid = f"b{next(_ids)}"
        sent = time.perf_counter()
        await mover.socket.send(json.dumps({"type": "action", "id": rid, "action": action}))
        reply = await mover.until(lambda m, rid=rid: answers(m, rid))
        if reply["type"] != "ack":
            stats.errors += 1
            await asyncio.sleep(0.05)
            continue
        await asyncio.gather(*(c.has_version(reply["version"]) for c in clients))
        stats.latencies.append(time.perf_counter() - sent)
    # Leave no game running behind the bench (if the rate limit allows; else its clock will).
    live = clients[0].state["game"]["status"] in ("waiting", "playing")
    if live and await clients[0].pacer.wait(time.monotonic() + 1):
        rid = f"b{next(_ids)}"
        await clients[0].socket.send(
            json.dumps({"type": "action", "id": rid, "action": {"do": "resign"}})
        )
        await clients[0].until(lambda m: answers(m, rid))
    for client in clients:
        await client.close()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


async def bench(urls: list[str], games: int, seconds: float) -> dict[str, Any]:
    stats = Stats()
    ready = asyncio.Barrier(games + 1)
    clock = {"deadline": float("inf")}
    slots = [asyncio.create_task(run_slot(i, urls, clock, stats, ready)) for i in range(games)]
    await ready.wait()
    started = time.monotonic()
    clock["deadline"] = started + seconds
    await asyncio.gather(*slots)
    elapsed = time.monotonic() - started
    moves = len(stats.latencies)
    return {
        "games": games,
        "seconds": round(elapsed, 2),
        "moves": moves,
        "moves_per_second": round(moves / elapsed, 1),
        "p50_ms": round(percentile(stats.latencies, 50) * 1000, 2),
        "p99_ms": round(percentile(stats.latencies, 99) * 1000, 2),
        "errors": stats.errors,
        "games_finished": stats.games_finished,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", action="append", help="ws://host:port of a Daphne (repeatable)")
    parser.add_argument("--spawn", action="store_true", help="start Daphne and a worker here")
    parser.add_argument("--web", type=int, default=1, help="Daphne processes with --spawn")
    parser.add_argument("--games", default="1,50,200", help="comma-separated N values")
    parser.add_argument("--seconds", type=float, default=10.0, help="duration of each run")
    args = parser.parse_args()
    sizes = [int(n) for n in args.games.split(",") if n.strip()]
    if args.spawn:
        from django.core.management import call_command

        from tests.live import live_platform

        call_command("migrate", verbosity=0)
        with live_platform(web=args.web, worker=True, beat=True) as platform:
            urls = [platform.ws_url(i) for i in range(args.web)]
            report(urls, sizes, args.seconds)
    else:
        if not args.url:
            parser.error("give --url ws://127.0.0.1:8000 (or --spawn)")
        report(args.url, sizes, args.seconds)


def report(urls: list[str], sizes: list[int], seconds: float) -> None:
    backend = "redis" if settings.REDIS_URL else "in-memory"
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"# {database} + {backend} channel layer, {len(urls)} Daphne process(es)")
    for games in sizes:
        result = asyncio.run(bench(urls, games, seconds))
        print(
            f"N={result['games']:>4} games: {result['moves']:>6} moves in {result['seconds']} s"
            f" = {result['moves_per_second']:>7} moves/s; round trip p50 {result['p50_ms']} ms,"
            f" p99 {result['p99_ms']} ms; errors {result['errors']},"
            f" games finished {result['games_finished']}",
            flush=True,
        )


if __name__ == "__main__":
    main()
