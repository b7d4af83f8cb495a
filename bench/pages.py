"""What a player's phone waits for and downloads, page by page, in `make run`'s platform.

Starts the platform as `make run` does (bench/embedded.py), signs a player in, and opens
each page in a fresh Chromium context at 390x844 (a cold cache), in English and Spanish:
the home page, the lobby, Play now, the arenas, an arena, How to play, the rule book, a
profile, and a game against the computer. For each it prints the time to the first byte,
to an interactive document, to the load event and, for the game, to its first state drawn
(`window.__interactiveAt`), and the bytes transferred (compressed, as served: the document,
its scripts, styles and images). Best of --runs.

    .venv/bin/python bench/pages.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.embedded import embedded_platform

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
TIMING = """() => {
  const [nav] = performance.getEntriesByType("navigation");
  const resources = performance.getEntriesByType("resource");
  return {
    first_byte: nav.responseStart,
    interactive: nav.domInteractive,
    load: nav.loadEventEnd,
    bytes: nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0),
    drawn: window.__interactiveAt ?? null,
  };
}"""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="visits per page; the best is kept")
    parser.add_argument(
        "--pages", default="", help="comma-separated names of the pages to open (default: all)"
    )
    parser.add_argument(
        "--languages", default="en,es", help="comma-separated languages to open each page in"
    )
    return parser.parse_args()


def pages_to_visit() -> tuple[dict[str, str], Any]:
    """The paths to open, and the signed-in player (a computer game of theirs included)."""
    import django

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs a loop
    django.setup()
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.computer.moves import computer_game_create
    from tournaments.models import Arena

    user = get_user_model().objects.create_user("pagesbench", password="felt-green-42x")
    arena = Arena.objects.create(
        name="Evening arena", starts_at=timezone.now() + timedelta(hours=1)
    )
    game = computer_game_create(user=user, strength="easy")
    paths = {
        "home": "/",
        "lobby": "/lobby/",
        "play now": "/play-now/",
        "arenas": "/arenas/",
        "arena": f"/arenas/{arena.pk}/",
        "how to play": "/how-to-play/",
        "rules": "/rules/",
        "profile": "/accounts/pagesbench/",
        "game (computer)": f"/games/{game.pk}/",
    }
    return paths, user


def visit(browser: Any, url: str, path: str, cookie: str, language: str) -> dict[str, Any]:
    from django.conf import settings

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_cookies(
        [
            {"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": url},
        ]
    )
    page = context.new_page()
    page.goto(url + path, wait_until="load")
    if path.startswith("/games/"):
        page.wait_for_function("() => window.__interactiveAt !== undefined")
    figures: dict[str, Any] = page.evaluate(TIMING)
    context.close()
    return figures


def main() -> None:
    args = parse_args()
    from playwright.sync_api import sync_playwright

    with embedded_platform() as url:
        paths, user = pages_to_visit()
        wanted = {name.strip() for name in args.pages.split(",") if name.strip()}
        if wanted - set(paths):
            raise SystemExit(f"no such page: {sorted(wanted - set(paths))}; one of {list(paths)}")
        paths = {name: path for name, path in paths.items() if not wanted or name in wanted}
        languages = [code.strip() for code in args.languages.split(",") if code.strip()]
        from bench.sessions import session_cookie

        cookie = session_cookie(user)
        print(f"# {url}, 390x844, a fresh context per visit, best of {args.runs}")
        print("page | language | first byte | interactive | load | first state | transferred")
        with sync_playwright() as manager:
            browser = manager.chromium.launch(executable_path=CHROMIUM)
            for name, path in paths.items():
                for language in languages:
                    runs = [visit(browser, url, path, cookie, language) for _ in range(args.runs)]
                    best = min(runs, key=lambda r: r["load"])
                    drawn = f"{best['drawn']:.0f} ms" if best["drawn"] is not None else "-"
                    print(
                        f"{name} | {language} | {best['first_byte']:.0f} ms | "
                        f"{best['interactive']:.0f} ms | {best['load']:.0f} ms | {drawn} | "
                        f"{best['bytes']:,} B"
                    )
            browser.close()
        print(f"pages: {len(paths) * len(languages)} visited, best of {args.runs}")


if __name__ == "__main__":
    main()
