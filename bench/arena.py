"""An arena of scripted players at a human pace on the production layout.

Starts two Daphne processes and a Celery worker with beat (tests/live.py) on the database
and channel layer the environment names (PostgreSQL and Redis for the production layout),
creates an arena and N players who join it, and plays: each player listens on its user
socket (/ws/lobby/) for the game a wave made for it, closes it (a seat's game page has
none), plays the game on the game socket with a decision every 1 to 3 s (a random legal
one; after 8 to 20 of its decisions it resigns, so that games end and waves keep
pairing), then opens the user socket again for the next. One more client watches the
arena's page socket. Measured:

- wave: from a player's game ending (the client holding the game-over state) to the first
  state of its next game (and, for the first game, from the arena's start);
- move: from sending an action to its acknowledgement;
- standings lag: from a game's end to the first standings push that counts it;
- errors: error answers, refused or failed connections, clients that raised; not the
  `game_over` answers to actions that crossed the opponent's resignation on the way,
  counted apart.

It prints its figures, and last, exactly:

    arena N: wave p99 X.XX s, move p99 X.XX s, standings lag p99 X.XX s, errors N

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/spectacular \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/arena.py --players 200 --minutes 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import signal
import statistics
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
LAST_PAIRING_SECONDS = 30


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--minutes", type=int, default=4, help="the arena's length")
    parser.add_argument("--web", type=int, default=2, help="Daphne processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--logs", type=Path, help="write the processes' logs to this file")
    parser.add_argument(
        "--stop-after",
        type=float,
        default=None,
        help="stop the players after this many seconds, the arena still running (a smoke run)",
    )
    return parser.parse_args()


ARGS = parse_args() if __name__ == "__main__" else None
if ARGS is not None:
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
    os.environ["ARENA_LAST_PAIRING_SECONDS"] = str(LAST_PAIRING_SECONDS)

import django  # noqa: E402

django.setup()

import websockets  # noqa: E402
from asgiref.sync import sync_to_async  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.sessions import session_cookie  # noqa: E402
from games import engine  # noqa: E402
from tournaments.models import Arena  # noqa: E402
from tournaments.services import arena_join  # noqa: E402


@dataclass
class Figures:
    waves: list[float] = field(default_factory=list)
    freed: list[float] = field(default_factory=list)  # when each wave's player became free
    moves: list[float] = field(default_factory=list)
    ends: list[tuple[str, int, float]] = field(default_factory=list)  # user, counted, when
    pushes: list[tuple[float, dict[str, int]]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    crossed: list[str] = field(default_factory=list)  # actions that met the game's end
    games: set[int] = field(default_factory=set)
    client_lags: list[float] = field(default_factory=list)


def bench_players(count: int) -> list[tuple[str, str]]:
    """(username, session cookie) of `count` players, made once and kept between runs."""
    model = get_user_model()
    players = []
    for index in range(count):
        user, created = model.objects.get_or_create(username=f"arena{index:03d}")
        if created:
            user.set_unusable_password()
            user.save()
        players.append((user.get_username(), session_cookie(user)))
    return players


async def open_socket(url: str, cookie: str) -> Any:
    return await websockets.connect(
        url,
        origin=websockets.Origin("http://127.0.0.1"),
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
        open_timeout=60,
        max_size=2**22,
        ping_interval=None,  # as a browser: it answers the server's pings, sends none
    )


async def messages_until(stop: asyncio.Event, socket: Any) -> AsyncIterator[dict[str, Any]]:
    """The socket's messages, parsed, until `stop` is set (checked at least every second)."""
    while not stop.is_set():
        try:
            yield json.loads(await asyncio.wait_for(socket.recv(), 1.0))
        except TimeoutError:
            continue


async def player(
    base: str,
    name: str,
    cookie: str,
    seed: int,
    started_at: float,
    stop: asyncio.Event,
    figures: Figures,
) -> None:
    rng = random.Random(seed)
    free_since = started_at
    counted = 0
    seen: set[int] = set()
    while not stop.is_set():
        game_id = await next_game(base, name, cookie, seen, stop, figures)
        if game_id is None:
            return
        seen.add(game_id)
        times: dict[str, float] = {}
        try:
            ended_with_result = await play_game(base, cookie, game_id, rng, figures, times)
            ended_at = time.monotonic()
            figures.waves.append(times["first"] - free_since)
            figures.freed.append(free_since - started_at)
            if ended_with_result:
                counted += 1
                figures.ends.append((name, counted, ended_at))
            free_since = ended_at
        except Exception as error:
            stage = next((s for s in ("first", "opened") if s in times), "opening")
            at = f"{name}@{time.monotonic() - started_at:.0f}s"
            figures.errors.append(f"{at}: game {game_id}: {stage}: {error!r}")
            free_since = time.monotonic()


async def next_game(
    base: str, name: str, cookie: str, seen: set[int], stop: asyncio.Event, figures: Figures
) -> int | None:
    """The player's next game, as a page between games learns it: the user socket, opened
    for the wait and closed for the game (a seat's game page has none), tells of it by a
    `redirect`, or on opening by `your_game` if the wave paired the player meanwhile."""
    try:
        lobby = await open_socket(f"{base}/ws/lobby/", cookie)
    except Exception as error:
        figures.errors.append(f"{name}: lobby socket: {error!r}")
        return None
    try:
        async for message in messages_until(stop, lobby):
            if message["type"] == "redirect":
                game_id = message["game"]
            elif message["type"] == "your_game" and message["game"]:
                game_id = message["game"]["id"]
            else:
                continue
            if game_id not in seen:
                return int(game_id)
        return None
    finally:
        await lobby.close()


async def play_game(
    base: str,
    cookie: str,
    game_id: int,
    rng: random.Random,
    figures: Figures,
    times: dict[str, float],
) -> bool:
    """Play at a human pace; True if the game ended with a result (it then counts)."""
    socket = await open_socket(f"{base}/ws/games/{game_id}/", cookie)
    times["opened"] = time.monotonic()
    resign_after = rng.randint(8, 20)
    decisions = 0
    sent: dict[str, float] = {}
    # The decision to send, and when: a newer state before then replaces it, as a person
    # who sees the table change reconsiders.
    pending: tuple[float, dict[str, Any]] | None = None
    last: dict[str, Any] | None = None  # the newest state received
    asked: dict[str, dict[str, Any]] = {}
    acked = 0  # the newest version this player's own actions made

    def decide(message: dict[str, Any], now: float) -> tuple[float, dict[str, Any]] | None:
        view = message["game"]
        choices = engine.choices(view["legal"] or [])
        if not choices:
            return None
        delay = rng.uniform(1.0, 3.0) if view["status"] == "playing" else 0.0
        action = {"do": "resign"} if decisions >= resign_after else rng.choice(choices)
        return now + delay, action

    try:
        while True:
            # Never 0: a state already received must be read before acting on an older one.
            wait = 180.0 if pending is None else max(0.02, pending[0] - time.monotonic())
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), wait))
            except TimeoutError:
                if pending is None:
                    raise
                decisions += 1
                request_id = f"{game_id}-{decisions}"
                sent[request_id] = time.monotonic()
                asked[request_id] = pending[1]
                request = {"type": "action", "id": request_id, "action": pending[1]}
                await socket.send(json.dumps(request))
                pending = None
                continue
            now = time.monotonic()
            if message["type"] == "ack" and message.get("id") in sent:
                figures.moves.append(now - sent.pop(message["id"]))
                acked = max(acked, message["version"])
                # The state this action made may have come first: decide on it now.
                if last is not None and last["version"] >= acked:
                    pending = decide(last, now)
                continue
            if message["type"] == "error":
                sent.pop(message.get("id"), None)
                action = asked.get(message.get("id"), {}).get("do")
                said = f"game {game_id}: {action}: {message.get('code')}"
                # The opponent ended the game while this action was on its way, as happens
                # to people too: the right answer, not an error of the platform.
                late = message.get("code") == "game_over"
                (figures.crossed if late else figures.errors).append(said)
                continue
            if message["type"] != "state":
                continue
            times.setdefault("first", now)
            figures.games.add(game_id)
            if last is not None and message["version"] < last["version"]:
                continue
            if message["version"] < acked:  # older than what this player's own action made
                continue
            last = message
            if message["game"]["status"] not in ("waiting", "playing"):
                return bool(message["game"]["status"] == "finished")
            pending = None if sent else decide(message, now)
    finally:
        await socket.close()


async def watch_standings(
    base: str, cookie: str, arena_id: int, stop: asyncio.Event, figures: Figures
) -> None:
    socket = await open_socket(f"{base}/ws/arenas/{arena_id}/", cookie)
    try:
        async for message in messages_until(stop, socket):
            if message["type"] == "standings":
                # A game too short to count shows as "short": counted all the same.
                counts = {
                    row["user"]: row["wins"] + row["losses"] + row["short"]
                    for row in message["rows"]
                }
                figures.pushes.append((time.monotonic(), counts))
    finally:
        await socket.close()


async def watch_own_loop(stop: asyncio.Event, figures: Figures) -> None:
    """How late this process's own event loop wakes: a move's round trip includes it."""
    while not stop.is_set():
        before = time.monotonic()
        await asyncio.sleep(0.05)
        figures.client_lags.append(time.monotonic() - before - 0.05)


def standings_lags(figures: Figures) -> list[tuple[float, str, int]]:
    """(lag, player, game) for each counted game: its end to the first push counting it.

    The push may reach the watcher before the game's last state reaches its player (both
    leave the server at the commit): that lag is 0."""
    lags = []
    for name, counted, ended in figures.ends:
        seen = next((at for at, counts in figures.pushes if counts.get(name, 0) >= counted), None)
        if seen is not None:
            lags.append((max(0.0, seen - ended), name, counted))
    return lags


def p99(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def describe(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: none"
    return (
        f"{name}: {len(values)}, p50 {statistics.median(values):.3f} s, "
        f"p99 {p99(values):.3f} s, max {max(values):.3f} s"
    )


async def run(urls: list[str], players: list[tuple[str, str]], minutes: int) -> Figures:
    figures = Figures()
    starts_at = timezone.now() + timedelta(seconds=5)
    arena = await sync_to_async(Arena.objects.create)(
        name="Benchmark arena", starts_at=starts_at, minutes=minutes, rated=False
    )
    model = get_user_model()
    for name, _cookie in players:
        user = await sync_to_async(model.objects.get)(username=name)
        await sync_to_async(arena_join)(user=user, arena_id=arena.pk)
    started_at = time.monotonic() + (starts_at - timezone.now()).total_seconds()
    stop = asyncio.Event()
    tasks = [
        asyncio.ensure_future(
            player(
                urls[i % len(urls)], name, cookie, ARGS.seed * 10_000 + i, started_at, stop, figures
            )
        )
        for i, (name, cookie) in enumerate(players)
    ]
    tasks.append(asyncio.ensure_future(watch_own_loop(stop, figures)))
    tasks.append(
        asyncio.ensure_future(watch_standings(urls[0], players[0][1], arena.pk, stop, figures))
    )
    # Until the arena ends and its last games (paired before the quiet) are over.
    await asyncio.sleep(ARGS.stop_after if ARGS and ARGS.stop_after else 5 + minutes * 60 + 30)
    stop.set()
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, BaseException):
            figures.errors.append(repr(outcome))
    return figures


def main() -> None:
    assert ARGS is not None
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(143))
    from django.core.management import call_command

    from tests.live import live_platform

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    players = bench_players(ARGS.players)
    with live_platform(web=ARGS.web, worker=True, beat=True) as platform:
        urls = [platform.ws_url(i) for i in range(ARGS.web)]
        try:
            figures = asyncio.run(run(urls, players, ARGS.minutes))
        except BaseException:
            print(platform.logs(), file=sys.stderr)
            raise
        if ARGS.logs:
            ARGS.logs.write_text(
                "\n".join(f"--- {p.name} ---\n{p.log()}" for p in platform.processes)
                + "\n--- errors ---\n"
                + "\n".join(figures.errors)
            )
    lagged = standings_lags(figures)
    lags = [lag for lag, _name, _game in lagged]
    print(f"# {ARGS.players} players, {len(figures.games)} games, {ARGS.web} Daphne processes")
    print("# " + describe("wave", figures.waves))
    print("# " + describe("move", figures.moves))
    print("# " + describe("standings lag", lags))
    print("# " + describe("the clients' own event loop, late by", figures.client_lags))
    print(f"# actions answered game_over, the game ended on their way: {len(figures.crossed)}")
    who = re.compile(r"^(arena\d+(@\d+s)?: )?(game \d+: )?")
    kinds = Counter(who.sub("", error) for error in figures.errors)
    for kind, count in kinds.most_common(5):
        print(f"# errors: {count} of {kind}")
    slowest = sorted(zip(figures.waves, figures.freed, strict=True), reverse=True)[:3]
    for wave, freed in slowest:
        print(f"# slowest wave: {wave:.2f} s for a player free {freed:.0f} s into the arena")
    for lag, name, counted in sorted(lagged, reverse=True)[:3]:
        print(f"# slowest standings: {name}'s game {counted} counted {lag:.2f} s after its end")
    print(
        f"arena {ARGS.players}: wave p99 {p99(figures.waves):.2f} s, "
        f"move p99 {p99(figures.moves):.2f} s, standings lag p99 {p99(lags):.2f} s, "
        f"errors {len(figures.errors)}"
    )


if __name__ == "__main__":
    main()
