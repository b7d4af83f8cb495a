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
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.embedded import embedded_platform

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


async def play_human(url: str, cookie: str, game_id: int, states: int) -> None:
    """The human's decisions, each the first non-resigning choice, until the game is over or
    `states` states have arrived, when the human resigns: a whole game can take minutes."""
    import websockets
    from django.conf import settings

    from games import engine

    async with websockets.connect(
        f"{url.replace('http', 'ws')}/ws/games/{game_id}/",
        origin=websockets.Origin(url),
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
    ) as connection:
        sent = received = 0
        while True:
            message = json.loads(await asyncio.wait_for(connection.recv(), 60))
            if message["type"] != "state":
                continue
            received += 1
            view = message["game"]
            if view["status"] not in ("waiting", "playing"):
                return
            if received >= states:
                sent += 1
                request = {"type": "action", "id": f"h{sent}", "action": {"do": "resign"}}
                await connection.send(json.dumps(request))
                continue
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
    with embedded_platform() as url:
        measured = run(url, args.moves, args.strength)
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
                page.wait_for_function("() => window.__connected === true")
                states = 3 * (moves - len(found)) + 10  # about a third are the computer's
                playing = play_human(url, cookie, game_id, states)
                human_side.submit(asyncio.run, playing).result()
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
