"""User sockets by the thousand on the production layout.

Starts two Daphne processes (tests/live.py) on the database and channel layer the
environment names (PostgreSQL and Redis for the production layout) and opens N user
sockets (/ws/user/?live=1), the pages of one player who watches the live games list,
half on each Daphne. Measured:

- opened: N divided by the time from the first handshake to the last socket holding its
  opening news (`invitations`, the last of them), at most `--concurrency` opening at once
  (a refused handshake is tried again after the pages' back-off, and counted);
- KB each: the growth of both Daphnes' resident memory (VmRSS) from before the first
  socket to after the last, divided by N;
- live: from calling games.services.game_create to each socket receiving the live list
  that shows the new game, over `--pushes` games;
- invitations: from calling lobby.challenges.challenge_create (a challenge to the player)
  to each of the player's pages receiving the invitations that offer it;
- back after a kill: one Daphne is killed (SIGKILL) under its sockets; each reconnects to
  the other with the pages' back-off (400 ms doubling, capped at 8 s, ±25 %), and counts
  from the kill to its opening news on the other.

The client is one asyncio process on the same machine: its own time is in every figure.
It prints its figures, and last, exactly:

    sockets N: opened X/s, Y KB each, live p99 Z ms, invitations p99 W ms, back after a kill p95 V s

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spectacular \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/sockets.py --sockets 2000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import resource
import secrets
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
PREFIX = "sockets-"  # the benchmark's users (and their games and challenges)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--pushes", type=int, default=5, help="new games, then challenges")
    parser.add_argument("--concurrency", type=int, default=50, help="handshakes at once")
    parser.add_argument("--back-within", type=float, default=120, help="seconds")
    parser.add_argument("--logs", type=Path, help="write the processes' logs to this file")
    return parser.parse_args(argv)


ARGS = parse_args() if __name__ == "__main__" else None
if ARGS is not None:
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
    # This process's changes wait for a connection on a loaded machine rather than fail; the
    # Daphne processes keep the platform's own timeout (taken out of their environment).
    BENCH_POOL_TIMEOUT = "DB_POOL_TIMEOUT" not in os.environ
    if BENCH_POOL_TIMEOUT:
        os.environ["DB_POOL_TIMEOUT"] = "30"

import django  # noqa: E402

django.setup()

import websockets  # noqa: E402
from asgiref.sync import sync_to_async  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402

from bench.sessions import session_cookie  # noqa: E402

OPENING_NEWS = '{"type":"invitations"'
BACKOFF_FIRST, BACKOFF_CAP = 0.4, 8.0


def backoff(attempt: int) -> float:
    """The pages' reconnect delay (realtime/static/realtime/socket.js, backoffDelay)."""
    return min(BACKOFF_CAP, BACKOFF_FIRST * 2**attempt) * (0.75 + random.random() * 0.5)


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def p(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


@dataclass
class Waiting:
    """What every socket is waiting to hear now: a frame that `matches`, since `since`."""

    matches: Callable[[str], bool]
    since: float
    left: int
    heard: list[float] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)


class Page:
    """One of the player's pages: a user socket that reads every frame it is sent."""

    def __init__(self, index: int, urls: list[str], cookie: str, bench: Bench) -> None:
        self.index, self.urls, self.cookie, self.bench = index, urls, cookie, bench
        self.server = index % len(urls)
        self.socket: Any = None
        self.waited: Waiting | None = None  # the Waiting this page has not answered yet
        self.back_at: float | None = None  # when it held its news again after a kill
        self.reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Open the socket and read until its opening news (raises if it cannot)."""
        self.socket = await websockets.connect(
            f"{self.urls[self.server]}/ws/user/?live=1",
            origin=websockets.Origin("http://127.0.0.1"),
            additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={self.cookie}"},
            open_timeout=30,
            ping_interval=None,
            max_size=2**22,
        )
        while not (await self.socket.recv()).startswith(OPENING_NEWS):
            pass

    def listen(self) -> None:
        self.reader = asyncio.ensure_future(self.read())

    async def read(self) -> None:
        while True:
            try:
                async for text in self.socket:
                    waiting = self.waited
                    if waiting is not None and waiting.matches(text):
                        self.waited = None
                        waiting.heard.append(time.perf_counter() - waiting.since)
                        waiting.left -= 1
                        if waiting.left == 0:
                            waiting.done.set()
            except websockets.ConnectionClosed:
                pass
            if self.bench.killed_at is None:
                return
            await self.come_back()

    async def come_back(self) -> None:
        """Reconnect as the page would, to the Daphne still up."""
        self.server = 0
        attempt = 0
        while True:
            await asyncio.sleep(backoff(attempt))
            attempt += 1
            try:
                await self.open()
            except (OSError, TimeoutError, websockets.WebSocketException) as error:
                self.bench.refused.append(repr(error))
                continue
            assert self.bench.killed_at is not None
            self.back_at = time.perf_counter() - self.bench.killed_at
            self.bench.back += 1
            if self.bench.back == self.bench.to_come_back:
                self.bench.all_back.set()
            return


@dataclass
class Bench:
    pages: list[Page] = field(default_factory=list)
    killed_at: float | None = None
    refused: list[str] = field(default_factory=list)  # handshakes tried again
    to_come_back: int = 0
    back: int = 0
    all_back: asyncio.Event = field(default_factory=asyncio.Event)

    async def hear(self, matches: Callable[[str], bool], act: Callable[[], Any]) -> list[float]:
        """Run `act` (on the one thread of this process's changes, whose connection stays
        open: it commits a change) and wait until every page heard a frame that `matches`;
        each page's delay from the start of `act`, in seconds."""
        waiting = Waiting(matches, time.perf_counter(), len(self.pages))
        for page in self.pages:
            page.waited = waiting
        waiting.since = time.perf_counter()
        await sync_to_async(act)()
        await asyncio.wait_for(waiting.done.wait(), 120)
        return waiting.heard


def describe(name: str, values: list[float]) -> None:
    print(
        f"# {name}: {len(values)} deliveries, p50 {p(values, 0.5):.0f} ms, "
        f"p99 {p(values, 0.99):.0f} ms, max {max(values):.0f} ms",
        flush=True,
    )


def bench_users(count: int) -> tuple[Any, list[Any]]:
    """The player whose pages the sockets are, and `count` others (kept between runs);
    their games and challenges of earlier runs are deleted."""
    from games.models import Game
    from lobby.models import Challenge

    model = get_user_model()
    users = []
    for name in ["player", *(f"other{index}" for index in range(count))]:
        user, created = model.objects.get_or_create(username=f"{PREFIX}{name}")
        if created:
            user.set_unusable_password()
            user.save()
        users.append(user)
    Game.objects.filter(player0__username__startswith=PREFIX).delete()
    Game.objects.filter(player1__username__startswith=PREFIX).delete()
    Challenge.objects.filter(challenger__username__startswith=PREFIX).delete()
    return users[0], users[1:]


def new_game(first: Any, second: Any) -> Callable[[], Any]:
    from games.services import game_create

    return lambda: game_create(player0=first, player1=second)


async def measure(urls: list[str], pids: list[int], sockets: int, pushes: int) -> dict[str, Any]:
    from games.services import game_submit_action
    from lobby import challenges

    player, others = await sync_to_async(bench_users)(2 * pushes)
    cookie = await sync_to_async(session_cookie)(player)
    bench = Bench()
    bench.pages = [Page(index, urls, cookie, bench) for index in range(sockets)]
    assert ARGS is not None
    limit = asyncio.Semaphore(ARGS.concurrency)

    async def open_one(page: Page) -> None:
        async with limit:
            for attempt in range(6):  # a refused handshake is tried again, as a page would
                try:
                    await page.open()
                    return
                except (OSError, TimeoutError, websockets.WebSocketException) as error:
                    bench.refused.append(repr(error))
                    await asyncio.sleep(backoff(attempt))
            await page.open()

    before = sum(rss_kb(pid) for pid in pids)
    started = time.perf_counter()
    await asyncio.gather(*(open_one(page) for page in bench.pages))
    opened = sockets / (time.perf_counter() - started)
    await asyncio.sleep(3)  # the last sockets' groups kept, their reads done
    grown = sum(rss_kb(pid) for pid in pids) - before
    print(f"# opened {opened:.0f}/s, {grown / sockets:.1f} KB each ({grown} KB)", flush=True)
    for page in bench.pages:
        page.listen()

    # One game made and ended unmeasured: this process's first send opens its Redis client.
    warm_up = await sync_to_async(new_game(others[0], others[1]))()
    await sync_to_async(game_submit_action)(
        game_id=warm_up.pk, user=others[0], action={"do": "resign"}, request_id=None
    )
    await asyncio.sleep(1)
    live: list[float] = []
    for index in range(pushes):
        first, second = others[2 * index], others[2 * index + 1]
        made: list[Any] = []

        def create(first: Any = first, second: Any = second, made: list[Any] = made) -> None:
            made.append(new_game(first, second)())

        # The game's id is known once made: every live list holding a game of these two.
        names = f'"players":["{first.username}","{second.username}"]'
        live += await bench.hear(lambda text, names=names: names in text, create)
        game = made[0]
        await bench.hear(
            lambda text: text.startswith('{"type":"live_games"') and '"id"' not in text,
            lambda game=game, first=first: game_submit_action(
                game_id=game.pk, user=first, action={"do": "resign"}, request_id=None
            ),
        )

    describe("live", [1000 * value for value in live])
    invitations: list[float] = []
    for index in range(pushes):
        challenger = others[index]
        made = []

        def challenge(challenger: Any = challenger, made: list[Any] = made) -> None:
            made.append(
                challenges.challenge_create(
                    challenger=challenger, opponent_username=player.username
                )
            )

        needle = f'"challenger":"{challenger.username}"'
        invitations += await bench.hear(
            lambda text, needle=needle: text.startswith(OPENING_NEWS) and needle in text,
            challenge,
        )
        await bench.hear(
            lambda text: text.startswith(OPENING_NEWS) and '"challenges":[]' in text,
            lambda made=made: challenges.challenge_decline(challenge_id=made[0].pk, user=player),
        )

    describe("invitations", [1000 * value for value in invitations])
    # One Daphne killed under its sockets: they come back on the other.
    victims = [page for page in bench.pages if page.server == 1]
    bench.to_come_back = len(victims)
    bench.killed_at = time.perf_counter()
    os.kill(pids[1], signal.SIGKILL)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(bench.all_back.wait(), ARGS.back_within)
    # A page not back within the wait counts as back at its end: the p95 is then a floor.
    back = [ARGS.back_within if page.back_at is None else page.back_at for page in victims]
    print(f"# not back within {ARGS.back_within:.0f} s: {bench.to_come_back - bench.back}")
    for page in bench.pages:
        bench.killed_at = None
        if page.reader is not None:
            page.reader.cancel()
    await asyncio.gather(
        *(page.socket.close() for page in bench.pages if page.socket), return_exceptions=True
    )
    return {
        "refused": bench.refused,
        "opened": opened,
        "kb": grown / sockets,
        "live": [1000 * value for value in live],
        "invitations": [1000 * value for value in invitations],
        "back": back,
    }


def main() -> None:
    assert ARGS is not None
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(143))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * ARGS.sockets)), hard))
    from django.core.management import call_command

    from tests.live import live_platform

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    if BENCH_POOL_TIMEOUT:
        del os.environ["DB_POOL_TIMEOUT"]
    with live_platform(web=2, worker=False) as platform:
        urls = [platform.ws_url(i) for i in range(2)]
        pids = [process.popen.pid for process in platform.processes[:2]]
        try:
            figures = asyncio.run(measure(urls, pids, ARGS.sockets, ARGS.pushes))
        except BaseException:
            print(platform.logs(), file=sys.stderr)
            raise
        finally:
            if ARGS.logs:
                ARGS.logs.write_text(
                    "\n".join(f"--- {p.name} ---\n{p.log()}" for p in platform.processes)
                )
    n = ARGS.sockets
    refused = figures["refused"]
    print(f"# handshakes tried again: {len(refused)}" + (f", e.g. {refused[0]}" if refused else ""))
    back = figures["back"]
    print(
        f"# back after a kill: {len(back)} sockets, p50 {p(back, 0.5):.1f} s, "
        f"p95 {p(back, 0.95):.1f} s, last {max(back):.1f} s"
    )
    print(
        f"sockets {n}: opened {figures['opened']:.0f}/s, {figures['kb']:.0f} KB each, "
        f"live p99 {p(figures['live'], 0.99):.0f} ms, "
        f"invitations p99 {p(figures['invitations'], 0.99):.0f} ms, "
        f"back after a kill p95 {p(back, 0.95):.1f} s"
    )


if __name__ == "__main__":
    main()
