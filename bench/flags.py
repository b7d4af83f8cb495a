"""The fair-play scan's cost: both automatic flags' scans over a window of N rated games.

    .venv/bin/python bench/flags.py [--games 5000] [--players 200] [--seed 1]

On a throwaway copy of the configured database (Django's test database: SQLite, or
PostgreSQL with DATABASE_URL), two games played through games.services (one resigned
after a decision each, one played out) are cloned, with their actions and ledger entries,
into N rated games between random pairs of P players (a fifth of them quick), among which
a booster wins 6 quick games against one friend. Prints how long each scan takes (the best
of three) and what it flagged; the booster must be among the flags.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

QUICK_SHARE = 0.2
BOOSTER_WINS = 6


def _clone(template: Any, player0: Any, player1: Any, counter: list[int]) -> tuple[Any, list, list]:
    """A copy of `template` (a finished rated game) between two other players, unsaved."""
    from games.models import Game, GameAction
    from ratings.models import RatingEntry

    game = Game.objects.get(pk=template.pk)
    game.pk = None
    game.rematch_game = None
    game.player0, game.player1 = player0, player1
    actions = []
    for action in GameAction.objects.filter(game_id=template.pk).order_by("seq"):
        action.pk = None
        action.user = None if action.seat is None else (player0, player1)[action.seat]
        actions.append(action)
    entries = []
    for entry in RatingEntry.objects.filter(game_id=template.pk, reason="game"):
        entry.pk = None
        entry.player = player0 if entry.player_id == template.player0_id else player1
        entries.append(entry)
    counter[0] += 1
    return game, actions, entries


def fill(*, games: int, players: int, seed: int) -> tuple[str, str]:
    """The database filled as the module says; returns (booster, friend) usernames."""
    from django.contrib.auth import get_user_model

    from games.models import Game, GameAction
    from ratings.models import RatingEntry
    from tests.fairplay.factories import resigned_game
    from tests.games.factories import played_game

    users = get_user_model().objects
    people = [users.create_user(username=f"bench{n}", password=None) for n in range(players)]
    booster, friend = people[0], people[1]
    quick = resigned_game(people[2], people[3])
    played = played_game(people[2], people[3])
    rng = random.Random(seed)
    counter = [0]
    clones = [_clone(quick, booster, friend, counter) for _ in range(BOOSTER_WINS)]
    while len(clones) + 2 < games:
        a, b = rng.sample(people, 2)
        template = quick if rng.random() < QUICK_SHARE else played
        clones.append(_clone(template, a, b, counter))
    for start in range(0, len(clones), 500):
        batch = clones[start : start + 500]
        saved = Game.objects.bulk_create([game for game, _, _ in batch])
        actions, entries = [], []
        for game, (_, game_actions, game_entries) in zip(saved, batch, strict=True):
            for action in game_actions:
                action.game = game
            for entry in game_entries:
                entry.game = game
            actions.extend(game_actions)
            entries.extend(game_entries)
        GameAction.objects.bulk_create(actions, batch_size=2000)
        RatingEntry.objects.bulk_create(entries, batch_size=2000)
    return booster.get_username(), friend.get_username()


def measure(*, games: int, players: int, seed: int) -> dict[str, Any]:
    """Fill the current database, run each scan three times; figures and what was flagged."""
    from django.db import connection

    from fairplay.flags import flags_scan_boosting, flags_scan_early_resignations
    from fairplay.models import Flag

    booster, friend = fill(games=games, players=players, seed=seed)
    figures: dict[str, Any] = {"games": games, "players": players, "vendor": connection.vendor}
    scans = {"boosting": flags_scan_boosting, "early_resign": flags_scan_early_resignations}
    for name, scan in scans.items():
        times = []
        for _ in range(3):
            started = time.perf_counter()
            scan()
            times.append(time.perf_counter() - started)
        figures[f"{name}_seconds"] = min(times)
    flagged = Flag.objects.select_related("player", "opponent")
    figures["flags"] = sorted(
        (f.kind, f.player.get_username(), f.opponent.get_username() if f.opponent else "")
        for f in flagged
    )
    figures["booster_flagged"] = ("boosting", booster, friend) in figures["flags"]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import django

    django.setup()
    from django.test.utils import setup_databases, teardown_databases

    databases = setup_databases(verbosity=0, interactive=False)
    try:
        figures = measure(games=args.games, players=args.players, seed=args.seed)
    finally:
        teardown_databases(databases, verbosity=0)
    print(f"{figures['games']} rated games, {figures['players']} players, {figures['vendor']}")
    print(f"boosting scan: {figures['boosting_seconds'] * 1000:.0f} ms")
    print(f"early-resignation scan: {figures['early_resign_seconds'] * 1000:.0f} ms")
    flagged = figures["booster_flagged"]
    print(f"flags: {len(figures['flags'])}, the planted booster flagged: {flagged}")
    if not figures["booster_flagged"]:
        sys.exit("the planted booster was not flagged")


if __name__ == "__main__":
    main()
