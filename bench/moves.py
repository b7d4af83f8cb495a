"""Moves per second and round trips of real games over WebSockets, beside a bare relay.

For each N, N games run at once, each between two WebSocket clients (the `websockets`
package). In each game the client with a legal move (from the `legal` list of the state it
last received) sends it at once; a round trip runs from sending the action until *both*
clients hold a state with the acknowledged version.

Then, on the same Daphne processes, the same channel layer and the same clients, N pairs
exercise a **bare relay** (bench/relay.py): one client sends a frame the size of a state
message, the relay consumer sends it to the pair's group of two, and the round trip ends
when both clients hold it. The two take turns (--rounds, 3 by default, each measured for
seconds/rounds), so that a machine whose speed drifts weighs on both alike. Each run first
plays for WARMUP_SECONDS unmeasured, and counts only the round trips that end within its
window. The ratios platform / relay are printed per N (the throughput's per round too,
which shows how much the machine moved), and the last line is meant for scripts:

    ratio at 50 games: throughput X.XX, p99 X.XX; at 1 game: p50 X.XX

With --floor (PostgreSQL), a third run per turn measures the **logged relay**: the relay
plus the least any server held to docs/architecture.md must do per move, one durable row in a log
(committed before anyone is told) and an ack to the sender, with psycopg's async driver on
the event loop. Its ratios to the relay are the ceiling a platform could reach, whatever
its game logic; they are printed for information and do not change the last line.

Before the sockets, the service alone is measured in-process: accepted moves per second
through `games.services.game_submit_action`, called the way Daphne calls it (from an event
loop, on a pool thread), broadcast to the channel layer included, on one Python process.

The platform's per-connection, per-user and per-game rate limits hold for the benchmark's
clients too. With --spawn they are raised (environment WS_RATE_LIMIT_*, see --rate-limit)
for the processes started here; against a running server (--url) the clients pace
themselves to the limits in this process's settings, which must match the server's.

The benchmark creates its users, games and sessions here, through Django: against a
running server (--url) run it with the server's environment, so that it writes to the
server's database and signs its sessions with the server's SECRET_KEY (a session
the server cannot read closes the socket with 4401, and the benchmark stops there). With
--spawn, DEBUG is off and SECRET_KEY is a fresh random one unless set, for this process
and the servers it starts alike.

    # PostgreSQL + Redis, two Daphne processes and a worker started here (tests/live.py):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spectacular \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/moves.py --spawn --web 2 --games 1,50,200 --seconds 10

    # embedded mode against `make run` (no relay route there: --no-relay):
    .venv/bin/python bench/moves.py --url ws://127.0.0.1:8000 --no-relay
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import secrets
import signal
import statistics
import sys
import threading
import time
from collections import deque
from collections.abc import MutableMapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

RAISED_LIMIT = 1_000_000
# Run before each measured window, its round trips not counted (see measure).
WARMUP_SECONDS = 2.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", action="append", help="ws://host:port of a Daphne (repeatable)")
    parser.add_argument("--spawn", action="store_true", help="start Daphne and a worker here")
    parser.add_argument("--web", type=int, default=2, help="Daphne processes with --spawn")
    parser.add_argument("--games", default="1,50,200", help="comma-separated N values")
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="time measured per N, platform and relay each"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="per N, the platform and the relay take turns this many times (seconds/rounds each)",
    )
    parser.add_argument(
        "--rate-limit",
        type=int,
        default=RAISED_LIMIT,
        help="with --spawn: messages per window allowed per connection, user and game",
    )
    parser.add_argument("--no-relay", action="store_true", help="skip the relay baseline")
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also measure the logged relay (a durable log row and an ack per frame)",
    )
    parser.add_argument(
        "--service-moves", type=int, default=3000, help="moves of the in-process service run"
    )
    parser.add_argument(
        "--service-threads", type=int, default=8, help="games at once in the service run"
    )
    parser.add_argument(
        "--flags", type=int, default=50, help="games left to flag at once (0: skip)"
    )
    return parser.parse_args()


def spawn_environment(environ: MutableMapping[str, str], rate_limit: int) -> None:
    """With --spawn, before Django reads its settings: the servers started here inherit it.

    Measured as deployed (platform/env.example): with DEBUG on, Django also records every
    SQL statement of every request in memory. Only here: against a running server (--url)
    this process keeps the server's settings, SECRET_KEY first, since the server reads the
    sessions made here (signed with SECRET_KEY) with its own key.
    """
    environ.setdefault("DEBUG", "false")
    environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    environ.setdefault("SECURE_SSL_REDIRECT", "false")
    for name in ("WS_RATE_LIMIT_CONNECTION", "WS_RATE_LIMIT_USER", "WS_RATE_LIMIT_GAME"):
        environ[name] = str(rate_limit)


ARGS = parse_args() if __name__ == "__main__" else None
if ARGS is not None and ARGS.spawn:
    spawn_environment(os.environ, ARGS.rate_limit)

import django  # noqa: E402

django.setup()

import websockets  # noqa: E402
from asgiref.sync import sync_to_async  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402

from bench.relay import LOG_TABLE_SQL  # noqa: E402
from bench.sessions import session_cookie  # noqa: E402
from games import engine, services  # noqa: E402
from games.clock import timebase  # noqa: E402
from games.models import Game  # noqa: E402

# The policy the tests use: play before anything else, bid the minimum, never resign.
from tests.games.factories import choose  # noqa: E402

RATE_LIMIT = min(
    settings.WS_RATE_LIMIT_CONNECTION, settings.WS_RATE_LIMIT_USER, settings.WS_RATE_LIMIT_GAME
)
RATE_WINDOW = settings.WS_RATE_LIMIT_WINDOW


def bench_users(index: int | str) -> tuple[Any, Any]:
    """The two players of slot `index`; no other slot plays with either (one game at a
    time per player)."""
    model = get_user_model()
    users = []
    for side in ("a", "b"):
        user, created = model.objects.get_or_create(username=f"bench{index}{side}")
        if created:
            user.set_unusable_password()
            user.save()
        users.append(user)
    return users[0], users[1]


def bench_pair(index: int) -> tuple[Any, Any, str, str]:
    player0, player1 = bench_users(index)
    return player0, player1, session_cookie(player0), session_cookie(player1)


def new_game(player0: Any, player1: Any) -> int:
    return services.game_create(player0=player0, player1=player1, rated=False).pk


def resign_if_playing(game_id: int, player: Any) -> None:
    """Leave no game of the bench's players running behind it (the next run would find
    them already playing)."""
    if Game.objects.get(pk=game_id).is_active:
        services.game_submit_action(
            game_id=game_id, user=player, action={"do": "resign"}, request_id="bench-resign"
        )


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


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    dropped: int = 0
    failed_connects: int = 0
    games_finished: int = 0
    frame_sizes: list[int] = field(default_factory=list)

    def done(self, clock: dict[str, float], latency: float) -> None:
        """A round trip that ended: counted if it ended within the measured window."""
        if clock["counting"] <= time.monotonic() <= clock["deadline"]:
            self.latencies.append(latency)


class SocketClosed(Exception):
    """The server closed a socket that a client was waiting on."""

    def __init__(self, code: int | None) -> None:
        super().__init__(f"the server closed the socket (code {code})")
        self.code = code


# Closes that mean "do not retry" (games.live.consumer.CLOSE_*): retrying cannot help.
REFUSALS = {
    4401: "the server read no signed-in user from the session cookie made here: run the"
    " benchmark with the server's SECRET_KEY and database (its environment)",
    4403: "the server refused the socket (forbidden)",
    4404: "the server has no such game: run the benchmark with the server's database",
}


class Client:
    """One socket; every frame is parsed as JSON, on the platform and on the relay alike."""

    def __init__(self, socket: Any, stats: Stats) -> None:
        self.socket = socket
        self.stats = stats
        self.state: dict[str, Any] | None = None
        self.pacer = Pacer()
        self.waiters: list[tuple[Any, asyncio.Future]] = []
        self.closing = False
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.socket:
                message = json.loads(raw)
                if message["type"] == "state":
                    self.stats.frame_sizes.append(len(raw))
                    if self.state is None or message["version"] >= self.state["version"]:
                        self.state = message
                for waiter in list(self.waiters):
                    predicate, future = waiter
                    if not future.done() and predicate(message):
                        future.set_result(message)
                        self.waiters.remove(waiter)
        except websockets.ConnectionClosed:
            pass
        # Nothing more will come: whoever waits hears it now rather than at a timeout.
        for _predicate, future in self.waiters:
            if not future.done():
                future.set_exception(SocketClosed(self.socket.close_code))
        self.waiters.clear()
        if not self.closing:
            self.stats.dropped += 1

    async def until(self, predicate: Any, timeout: float = 30) -> dict[str, Any]:
        if self.reader.done():
            raise SocketClosed(self.socket.close_code)
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self.waiters.append((predicate, future))
        return await asyncio.wait_for(future, timeout)

    async def state_where(self, predicate: Any, timeout: float = 60) -> dict[str, Any]:
        """The latest state if it satisfies `predicate`, else the next one that does."""
        if self.state is not None and predicate(self.state):
            return self.state
        return await self.until(lambda m: m["type"] == "state" and predicate(m), timeout)

    async def has_version(self, version: int) -> None:
        if self.state is None or self.state["version"] < version:
            await self.until(lambda m: m["type"] == "state" and m["version"] >= version)

    async def close(self) -> None:
        self.closing = True
        await self.socket.close()
        self.reader.cancel()


_ids = itertools.count(1)


def answers(message: dict[str, Any], rid: str) -> bool:
    """The reply to request `rid` (a rate-limit refusal carries the id it refuses too)."""
    return message["type"] in ("ack", "error") and message.get("id") == rid


async def open_socket(url: str, cookie: str | None = None) -> Any:
    headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"} if cookie else {}
    return await websockets.connect(
        url,
        origin=websockets.Origin("http://127.0.0.1"),
        additional_headers=headers,
        open_timeout=60,
        max_size=2**22,
    )


async def connect(url: str, game_id: int, cookie: str, stats: Stats) -> Client:
    """A game socket holding its first state; retried as a page would, and counted."""
    for attempt in range(5):
        try:
            client = Client(await open_socket(f"{url}/ws/games/{game_id}/", cookie), stats)
            await client.until(lambda m: m["type"] == "state", timeout=60)
            return client
        except SocketClosed as closed:
            if closed.code in REFUSALS:
                raise RuntimeError(
                    f"game {game_id}: closed with {closed.code}: {REFUSALS[closed.code]}"
                ) from closed
            stats.failed_connects += 1
            await asyncio.sleep(0.5 * 2**attempt)
        except (OSError, TimeoutError, websockets.InvalidHandshake, websockets.InvalidMessage):
            stats.failed_connects += 1
            await asyncio.sleep(0.5 * 2**attempt)
    raise RuntimeError(f"could not connect to game {game_id}")


async def run_game_slot(
    index: int, urls: list[str], clock: dict[str, float], stats: Stats, ready: asyncio.Barrier
) -> None:
    """One game after another between the same two users until clock["deadline"]."""
    player0, player1, cookie0, cookie1 = await sync_to_async(bench_pair)(index)
    # Spread the two players over the Daphne processes, as a proxy would.
    url0, url1 = urls[(2 * index) % len(urls)], urls[(2 * index + 1) % len(urls)]

    async def open_game() -> list[Client]:
        game_id = await sync_to_async(new_game)(player0, player1)
        return [
            await connect(url0, game_id, cookie0, stats),
            await connect(url1, game_id, cookie1, stats),
        ]

    try:
        clients = await open_game()
    except BaseException:
        await ready.abort()  # no run can start without this slot: stop the others too
        raise
    await ready.wait()  # every slot connected: the clock starts for all at once
    while time.monotonic() < clock["deadline"]:
        view = clients[0].state["game"]
        if view["status"] not in ("waiting", "playing"):
            stats.games_finished += 1
            for client in clients:
                await client.close()
            clients = await open_game()
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
        stats.done(clock, time.perf_counter() - sent)
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


async def relay_pair(
    url0: str, url1: str, pair: str, stats: Stats, route: str = "relay"
) -> list[Client]:
    """Two relay sockets in one group, each having been relayed a frame (or an error)."""
    clients = [
        Client(await open_socket(f"{url}/ws/{route}/{pair}/"), stats) for url in (url0, url1)
    ]
    for version in range(120):
        await clients[0].socket.send(json.dumps({"type": "state", "version": version}))
        try:
            await asyncio.wait_for(
                asyncio.gather(*(c.has_version(version) for c in clients)), timeout=0.5
            )
            return clients
        except TimeoutError:
            continue
    raise RuntimeError(f"relay pair {pair} never carried a frame")


async def run_relay_slot(
    index: int,
    urls: list[str],
    clock: dict[str, float],
    stats: Stats,
    ready: asyncio.Barrier,
    frame_size: int,
    route: str = "relay",
) -> None:
    """A pair of relay clients taking turns to send a state-sized frame to both."""
    pair = f"{os.getpid()}-{index}"
    url0, url1 = urls[(2 * index) % len(urls)], urls[(2 * index + 1) % len(urls)]
    try:
        clients = await relay_pair(url0, url1, pair, stats, route)
    except BaseException:
        await ready.abort()  # no run can start without this slot: stop the others too
        raise
    version = clients[0].state["version"]
    padding = "x" * max(0, frame_size - len(json.dumps({"type": "state", "version": 10**6})) - 10)
    await ready.wait()
    turn = 0
    while time.monotonic() < clock["deadline"]:
        version += 1
        frame = json.dumps({"type": "state", "version": version, "pad": padding})
        sent = time.perf_counter()
        await clients[turn].socket.send(frame)
        try:
            # A frame the layer lost would stall the pair for good: count it, go on.
            await asyncio.wait_for(
                asyncio.gather(*(c.has_version(version) for c in clients)), timeout=5
            )
        except TimeoutError:
            stats.errors += 1
            continue
        stats.done(clock, time.perf_counter() - sent)
        turn = 1 - turn
    for client in clients:
        await client.close()


async def flag_lateness(urls: list[str], games: int) -> dict[str, Any]:
    """Seconds from each flag's deadline until both of its game's clients hold the result.

    `games` games start at once with a bank of 0.5 s, and nobody moves: each flags at the
    end of its first decision's delay plus the bank, settled by the clock keeper alone
    (which needs a channel layer shared with Daphne: Redis).
    """
    stats = Stats()

    async def one(index: int) -> float:
        player0, player1, cookie0, cookie1 = await sync_to_async(bench_pair)(index)
        game_id = await sync_to_async(
            lambda: (
                services.game_create(
                    player0=player0, player1=player1, rated=False, banks=(0.5, 0.5)
                ).pk
            )
        )()
        clients = [
            await connect(urls[(2 * index) % len(urls)], game_id, cookie0, stats),
            await connect(urls[(2 * index + 1) % len(urls)], game_id, cookie1, stats),
        ]
        for client in clients:
            await client.socket.send(
                json.dumps({"type": "action", "id": f"f{next(_ids)}", "action": {"do": "start"}})
            )
        playing = await clients[0].state_where(lambda m: m["game"]["clock"] is not None)
        deadline = playing["game"]["deadline"] / 1000  # epoch ms, the flag's time
        await asyncio.gather(
            *(c.state_where(lambda m: m["game"]["status"] == "finished") for c in clients)
        )
        lateness = time.time() - deadline
        for client in clients:
            await client.close()
        return lateness

    late = await asyncio.gather(*(one(i) for i in range(games)))
    return {"games": games, "p50": percentile(late, 50), "p99": percentile(late, 99)}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


async def measure(slots: int, seconds: float, make_slot: Any) -> dict[str, Any]:
    stats = Stats()
    ready = asyncio.Barrier(slots + 1)
    clock = {"counting": float("inf"), "deadline": float("inf")}
    tasks = [asyncio.create_task(make_slot(i, clock, stats, ready)) for i in range(slots)]
    try:
        await ready.wait()
    except asyncio.BrokenBarrierError:
        # A slot could not start and aborted the others: raise its own error, which says why.
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, Exception) and not isinstance(
                outcome, asyncio.BrokenBarrierError
            ):
                raise outcome from None
        raise
    started = time.monotonic()
    # Every slot starts at once (all their games wait for Start): the first round trips
    # measure that queue, not the platform's pace.
    clock["counting"] = started + WARMUP_SECONDS
    clock["deadline"] = clock["counting"] + seconds
    await asyncio.gather(*tasks)
    # The window is the run's: what finished after it (moves in flight at the deadline, the
    # games resigned to leave nothing running) is neither counted nor timed.
    elapsed = min(time.monotonic(), clock["deadline"]) - clock["counting"]
    moves = len(stats.latencies)
    return {
        "games": slots,
        "seconds": elapsed,
        "moves": moves,
        "per_second": moves / elapsed,
        "p50": percentile(stats.latencies, 50),
        "p99": percentile(stats.latencies, 99),
        "errors": stats.errors,
        "dropped": stats.dropped,
        "failed_connects": stats.failed_connects,
        "games_finished": stats.games_finished,
        "frame_size": statistics.mean(stats.frame_sizes) if stats.frame_sizes else 0,
        "latencies": stats.latencies,
    }


def combined(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Runs of the same kind as one: counts and times added, percentiles of all round trips."""
    latencies = [latency for run in runs for latency in run["latencies"]]
    seconds = sum(run["seconds"] for run in runs)
    moves = sum(run["moves"] for run in runs)
    counted = ("errors", "dropped", "failed_connects", "games_finished")
    return {
        "games": runs[0]["games"],
        "seconds": seconds,
        "moves": moves,
        "per_second": moves / seconds,
        "p50": percentile(latencies, 50),
        "p99": percentile(latencies, 99),
        **{name: sum(run[name] for run in runs) for name in counted},
        "frame_size": statistics.mean(run["frame_size"] for run in runs),
        "latencies": latencies,
    }


def bench_platform(urls: list[str], games: int, seconds: float) -> dict[str, Any]:
    def slot(i: int, clock: dict[str, float], stats: Stats, ready: asyncio.Barrier) -> Any:
        return run_game_slot(i, urls, clock, stats, ready)

    return asyncio.run(measure(games, seconds, slot))


def bench_relay(
    urls: list[str], pairs: int, seconds: float, frame_size: int, route: str = "relay"
) -> dict[str, Any]:
    def slot(i: int, clock: dict[str, float], stats: Stats, ready: asyncio.Barrier) -> Any:
        return run_relay_slot(i, urls, clock, stats, ready, frame_size, route)

    return asyncio.run(measure(pairs, seconds, slot))


def service_rate(moves: int, threads: int) -> dict[str, float]:
    """Accepted moves per second of the game service alone, in this one Python process.

    `threads` games are played at once, one per thread, as Daphne's pool threads serve
    several games (one core for Python: the GIL; PostgreSQL commits of concurrent games
    share their WAL flushes, as they do on the platform). Each thread calls
    `game_submit_action` directly, broadcast to the channel layer included, and picks its
    next move from its own copy of the state (the engine, a few microseconds), reading the
    game again only when that copy went stale.
    """
    per_thread = -(-moves // threads)
    lock = threading.Lock()
    timed: list[float] = []

    def next_move(state: Any) -> tuple[int, dict[str, Any]] | None:
        for seat in (0, 1):
            action = choose(engine.legal_actions(state, seat))
            if action is not None:
                return seat, action
        return None

    def play(index: int) -> None:
        # A pair of its own per thread: a player has one game at a time.
        player0, player1 = users = bench_users(f"service{index}-")
        game_id = new_game(player0, player1)
        state = engine.from_json(Game.objects.get(pk=game_id).state)
        done = 0
        try:
            while done < per_thread:
                move = next_move(state) if state.status in ("waiting", "playing") else None
                if move is None:
                    game_id = new_game(player0, player1)
                    state = engine.from_json(Game.objects.get(pk=game_id).state)
                    continue
                seat, action = move
                started = time.perf_counter()
                result = services.game_submit_action(
                    game_id=game_id, user=users[seat], action=action, request_id=f"s{done}"
                )
                elapsed = time.perf_counter() - started
                if not result.ok:
                    raise RuntimeError(f"the service refused {action}: {result.code}")
                done += 1
                with lock:
                    timed.append(elapsed)
                try:
                    state, _events = engine.apply(state, seat, action, timebase.server_now())
                except engine.RuleError:  # the clock moved the game on: read it again
                    state = engine.from_json(Game.objects.get(pk=game_id).state)
            resign_if_playing(game_id, player0)
        finally:
            connection.close()

    started, cpu = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(play, range(threads)))
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {
        "moves": len(timed),
        "threads": threads,
        "per_second": len(timed) / elapsed,
        # What one core can carry: this process's CPU time per move (it is one core's
        # worth at most, the GIL), whatever else the machine was busy with meanwhile.
        "per_cpu_second": len(timed) / cpu,
        "p50": percentile(timed, 50),
        "p99": percentile(timed, 99),
    }


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def rewrites_game_table() -> bool:
    return bool(ARGS and ARGS.spawn) and connection.vendor == "postgresql"


def compact_game_table() -> None:
    """Rewrite the games table before a run, with --spawn on PostgreSQL.

    Every run leaves thousands of dead game rows (each move writes the row anew), which
    pile up where autovacuum is off and slow each run down (bench/RESULTS.md); each run
    starts from the same tables instead.
    """
    if not rewrites_game_table():
        return
    table = connection.ops.quote_name(Game._meta.db_table)
    with connection.cursor() as cursor:  # the log is only ever inserted into: no dead rows
        cursor.execute(f"VACUUM (FULL, ANALYZE) {table}")


def report(urls: list[str], sizes: list[int], seconds: float, relay: bool) -> None:
    backend = "redis" if settings.REDIS_URL else "in-memory"
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(
        f"# {database} + {backend} channel layer, {len(urls)} Daphne process(es),"
        f" DEBUG {'on' if settings.DEBUG else 'off'}",
        flush=True,
    )
    print(
        f"# rate limit: {settings.WS_RATE_LIMIT_CONNECTION} per connection,"
        f" {settings.WS_RATE_LIMIT_USER} per user, {settings.WS_RATE_LIMIT_GAME} per game,"
        f" per {RATE_WINDOW:g} s",
        flush=True,
    )
    if rewrites_game_table():
        print("# the games table is rewritten (VACUUM FULL) before each N", flush=True)
    if FLAGS and not settings.REDIS_URL:
        # The clock keeper runs in the Celery worker, and an in-memory layer ends at its
        # process: the flags it settles reach no socket (the page learns of them through
        # its own `tick`: docs/architecture.md, "Run modes"), so the clients would wait forever.
        print("# flags: skipped: the in-memory channel layer cannot carry the clock keeper's")
        print("# results to the sockets (embedded mode: pages learn of a flag by ticking)")
    elif FLAGS:
        flags = asyncio.run(flag_lateness(urls, FLAGS))
        print(
            f"# flags: {flags['games']} games flagging at once reach both clients"
            f" p50 {ms(flags['p50'])}, p99 {ms(flags['p99'])} after their deadline",
            flush=True,
        )
    if relay and ROUNDS > 1:
        print(
            f"# per N, the platform and the relay take turns {ROUNDS} times,"
            f" {seconds / ROUNDS:g} s each: a machine whose speed drifts meanwhile slows both",
            flush=True,
        )
    floor = FLOOR and relay and connection.vendor == "postgresql"
    if floor:
        with connection.cursor() as cursor:
            cursor.execute(LOG_TABLE_SQL)
    elif FLOOR:
        print("# logged relay: skipped (it needs PostgreSQL and the relay)", flush=True)
    ratios: dict[int, dict[str, float]] = {}
    for games in sizes:
        compact_game_table()
        mines: list[dict[str, Any]] = []
        bases: list[dict[str, Any]] = []
        floors: list[dict[str, Any]] = []
        turns = ROUNDS if relay else 1
        for _turn in range(turns):
            mines.append(bench_platform(urls, games, seconds / turns))
            if relay:
                frame_size = round(mines[0]["frame_size"]) or 2000
                bases.append(bench_relay(urls, games, seconds / turns, frame_size))
                if floor:
                    floors.append(
                        bench_relay(urls, games, seconds / turns, frame_size, "relay-logged")
                    )
        mine = combined(mines)
        print(
            f"N={games:>4} platform: {mine['moves']:>6} moves in {mine['seconds']:.1f} s ="
            f" {mine['per_second']:7.1f} moves/s; p50 {ms(mine['p50'])}, p99 {ms(mine['p99'])};"
            f" errors {mine['errors']}, dropped sockets {mine['dropped']},"
            f" failed connects {mine['failed_connects']},"
            f" games finished {mine['games_finished']}, state frame {mine['frame_size']:.0f} B",
            flush=True,
        )
        if not relay:
            continue
        base = combined(bases)
        print(
            f"N={games:>4} relay:    {base['moves']:>6} frames in {base['seconds']:.1f} s ="
            f" {base['per_second']:7.1f} frames/s; p50 {ms(base['p50'])},"
            f" p99 {ms(base['p99'])}; errors {base['errors']}, dropped sockets {base['dropped']}",
            flush=True,
        )
        if floors:
            logged = combined(floors)
            print(
                f"N={games:>4} logged relay: {logged['moves']:>6} frames in"
                f" {logged['seconds']:.1f} s = {logged['per_second']:7.1f} frames/s;"
                f" p50 {ms(logged['p50'])}, p99 {ms(logged['p99'])}; errors {logged['errors']},"
                f" dropped sockets {logged['dropped']}; over the relay: throughput"
                f" {logged['per_second'] / base['per_second']:.2f},"
                f" p50 {logged['p50'] / base['p50']:.2f}, p99 {logged['p99'] / base['p99']:.2f}",
                flush=True,
            )
        ratios[games] = {
            "throughput": mine["per_second"] / base["per_second"],
            "p50": mine["p50"] / base["p50"],
            "p99": mine["p99"] / base["p99"],
        }
        each = ", ".join(
            f"{platform['per_second'] / baseline['per_second']:.2f}"
            for platform, baseline in zip(mines, bases, strict=True)
        )
        print(
            f"N={games:>4} platform/relay: throughput {ratios[games]['throughput']:.2f}"
            f" (by round: {each}), p50 {ratios[games]['p50']:.2f},"
            f" p99 {ratios[games]['p99']:.2f}",
            flush=True,
        )
    if relay:
        at50 = ratios.get(50, {})
        at1 = ratios.get(1, {})
        nan = float("nan")
        print(
            f"ratio at 50 games: throughput {at50.get('throughput', nan):.2f},"
            f" p99 {at50.get('p99', nan):.2f}; at 1 game: p50 {at1.get('p50', nan):.2f}"
        )


FLAGS = ARGS.flags if ARGS is not None else 0
FLOOR = bool(ARGS and ARGS.floor)
ROUNDS = max(1, ARGS.rounds) if ARGS is not None else 1


def main() -> None:
    assert ARGS is not None
    # A benchmark stopped with SIGTERM still stops the servers it started (tests.live).
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(143))
    sizes = [int(n) for n in ARGS.games.split(",") if n.strip()]
    if ARGS.spawn:
        from django.core.management import call_command

        from tests.live import live_platform

        call_command("migrate", verbosity=0)
        # DEBUG off serves the hashed files collectstatic writes, as `make run` does.
        call_command("collectstatic", interactive=False, verbosity=0)
    if ARGS.service_moves:
        alone = service_rate(ARGS.service_moves, ARGS.service_threads)
        print(
            f"# service alone (one Python process, {alone['threads']} games at once,"
            f" broadcast included): {alone['per_second']:.0f} accepted moves/s over"
            f" {alone['moves']} moves, {alone['per_cpu_second']:.0f} per second of its CPU"
            f" time; each call p50 {ms(alone['p50'])},"
            f" p99 {ms(alone['p99'])}",
            flush=True,
        )
    if ARGS.spawn:
        with live_platform(
            web=ARGS.web, worker=True, beat=True, asgi="bench.relay:application"
        ) as platform:
            urls = [platform.ws_url(i) for i in range(ARGS.web)]
            try:
                report(urls, sizes, ARGS.seconds, relay=not ARGS.no_relay)
            except BaseException:
                print(platform.logs(), file=sys.stderr)  # what the servers saw
                raise
    else:
        if not ARGS.url:
            raise SystemExit("give --url ws://127.0.0.1:8000 (or --spawn)")
        report(ARGS.url, sizes, ARGS.seconds, relay=not ARGS.no_relay)


if __name__ == "__main__":
    main()
