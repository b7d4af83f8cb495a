"""How soon the computer's moves reach a player's page in `make run`'s embedded mode.

Starts the platform as `make run` does (SQLite, the in-memory channel layer, the filesystem
broker: Daphne, and a Celery worker whose changes reach Daphne through the embedded relay)
in a folder of its own, opens a game against the computer in Chromium as its human player,
and plays the human's decisions from a second socket of the same player, at once. For each
of the computer's actions it compares the time the action was logged (`received_at` of its
row in the game's log) with the time the page's socket received the state it made. One
machine, one clock. Prints, last:

    computer push: N moves, p50 X ms, p90 Y ms, max Z ms

    .venv/bin/python bench/computer_push.py [--moves 30] [--strength easy]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CHROMIUM = "/usr/bin/chromium"

# Every state the page's sockets receive, with the page's clock: wraps WebSocket before the
# page's own scripts run.
RECORD_ARRIVALS = """
window.__arrivals = [];
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      const at = performance.timeOrigin + performance.now();
      try {
        const message = JSON.parse(event.data);
        // A state carrying the whole log is the one sent on connecting, not a push.
        if (message.type === "state" && message.log) window.__connected = true;
        else if (message.type === "state") window.__arrivals.push([message.version, at]);
      } catch (error) { /* not JSON: not a state */ }
    });
  }
};
"""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30, help="the computer's actions to time")
    parser.add_argument("--strength", default="easy", choices=("easy", "medium", "hard"))
    return parser.parse_args()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def platform_environment(folder: Path, port: int) -> dict[str, str]:
    """`make run`'s defaults, with the database, broker and secret of this run's own folder."""
    env = dict(os.environ)
    for name in ("REDIS_URL", "DATABASE_URL"):
        env.pop(name, None)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "BROKER_DIR": str(folder / "broker"),
            "BEAT_SCHEDULE": str(folder / "beat-schedule"),
            "SECRET_KEY": secrets.token_urlsafe(50),
            "WEB_PORT": str(port),
            "PYTHONUNBUFFERED": "1",
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        }
    )
    return env


def wait_for_http(url: str, platform: subprocess.Popen[bytes], timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if platform.poll() is not None:
            raise RuntimeError("the platform exited while starting")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer in {timeout:.0f} s")


async def play_human(url: str, cookie: str, game_id: int) -> None:
    """The human's decisions, each the first non-resigning choice, until the game is over."""
    import websockets
    from django.conf import settings

    from games import engine

    async with websockets.connect(
        f"{url.replace('http', 'ws')}/ws/games/{game_id}/",
        origin=websockets.Origin(url),
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
    ) as connection:
        sent = 0
        while True:
            message = json.loads(await asyncio.wait_for(connection.recv(), 60))
            if message["type"] != "state":
                continue
            view = message["game"]
            if view["status"] not in ("waiting", "playing"):
                return
            choices = engine.choices(view["legal"] or [])
            if choices:
                sent += 1
                request = {"type": "action", "id": f"h{sent}", "action": choices[0]}
                await connection.send(json.dumps(request))


def lags(game_ids: list[int], computer: Any, arrivals: list[tuple[int, int, float]]) -> list[float]:
    """Seconds from each computer action's log row to its state reaching the page."""
    from games.models import GameAction

    seen = {(game, version): at for game, version, at in arrivals}
    rows = GameAction.objects.filter(game_id__in=game_ids, user=computer, error="")
    found = []
    for game_id, version, logged in rows.values_list("game_id", "version", "received_at"):
        at = seen.get((game_id, version))
        if at is not None:
            found.append(at / 1000 - logged.timestamp())
    return found


def main() -> None:
    args = parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="computer-push-") as folder_name:
        folder = Path(folder_name)
        env = platform_environment(folder, port)
        os.environ.update(env)
        log = (folder / "platform.log").open("wb")
        platform = subprocess.Popen(
            [sys.executable, "-m", "tools.local_run"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            wait_for_http(url, platform, timeout=120)
            measured = run(url, args.moves, args.strength)
        except Exception:
            sys.stderr.write((folder / "platform.log").read_text(errors="replace")[-3000:])
            raise
        finally:
            os.killpg(platform.pid, signal.SIGINT)
            platform.wait(60)
    report(measured)


def run(url: str, moves: int, strength: str) -> list[float]:
    import django

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs a loop
    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from playwright.sync_api import sync_playwright

    from games.computer.moves import computer_game_create
    from games.models import Game

    human = get_user_model().objects.create_user("pushbench", password=secrets.token_hex(16))
    from bench.sessions import session_cookie

    cookie = session_cookie(human)
    game_ids: list[int] = []
    found: list[float] = []
    with sync_playwright() as manager:
        browser = manager.chromium.launch(executable_path=CHROMIUM)
        context = browser.new_context(viewport={"width": 390, "height": 844})
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])
        context.add_init_script(RECORD_ARRIVALS)
        page = context.new_page()
        arrivals: list[tuple[int, int, float]] = []
        while len(found) < moves and len(game_ids) < 20:
            with ThreadPoolExecutor(1) as human_side:  # off Playwright's event loop
                game = human_side.submit(computer_game_create, user=human, strength=strength)
                game_id = game.result().pk
                game_ids.append(game_id)
                page.goto(f"{url}/games/{game_id}/")
                page.wait_for_function("window.__connected === true")
                human_side.submit(asyncio.run, play_human(url, cookie, game_id)).result()
            page.wait_for_timeout(500)  # the last states' arrival
            arrivals += [(game_id, v, at) for v, at in page.evaluate("window.__arrivals")]
            page.evaluate("window.__arrivals = []")
            played = Game.objects.get(pk=game_id)
            [seat] = played.seats_of(human.pk)
            computer = played.player(1 - seat)
            found = lags(game_ids, computer, arrivals)
        browser.close()
    return found


def report(found: list[float]) -> None:
    if not found:
        print("computer push: no move measured")
        sys.exit(1)
    ms = sorted(value * 1000 for value in found)
    p90 = statistics.quantiles(ms, n=10, method="inclusive")[-1] if len(ms) > 1 else ms[0]
    print(
        f"computer push: {len(ms)} moves, p50 {statistics.median(ms):.0f} ms, "
        f"p90 {p90:.0f} ms, max {ms[-1]:.0f} ms"
    )


if __name__ == "__main__":
    main()
