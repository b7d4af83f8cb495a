"""Engine throughput: random legal games on one core.

    .venv/bin/python bench/engine.py [--games N] [--seed S] [--profile]

Each game is created with a seeded deal generator; both players press Start (and Continue
after every round); then the seat to act picks uniformly among `legal_actions` (never
`resign`), with the clock advancing 0.25 s per request so that nobody loses on time. Every
request goes through the public `apply`, which also runs `advance`. Counted as actions: plays,
leads, draws and auction decisions (start/continue are reported apart). The rate includes
`legal_actions` and the random choice, i.e. what a self-play or fuzzing loop really pays.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import engine

STEP = 0.25  # seconds between requests: far below the 10 s delay, so no clock ever flags
COUNTED = frozenset(engine.DECISIONS)


Request = tuple[int, dict[str, object], float]


def play_game(seed: int, log: list[Request] | None = None) -> tuple[int, int, int]:
    """Play one random game; returns (counted actions, other requests, rounds).

    With `log`, every request is appended to it so that `replay` can time `apply` alone.
    """
    rng = random.Random(seed)
    state = engine.new_game(rng=random.Random(seed), created_at=0.0)
    now = 0.0
    actions = 0
    other = 0
    apply = engine.apply
    legal_actions = engine.legal_actions
    choice = rng.choice
    while state.status != "finished":
        now += STEP
        seat = state.to_act
        if seat is None:
            # Start or round over: both seats press the button.
            for s in (0, 1):
                if state.status == "finished" or state.phase not in ("start", "round_over"):
                    break
                action = legal_actions(state, s)[0]
                state, _ = apply(state, s, action, now)
                other += 1
                if log is not None:
                    log.append((s, action, now))
            continue
        legal = legal_actions(state, seat)
        legal.pop()  # resign is always listed last
        action = choice(legal)
        state, _ = apply(state, seat, action, now)
        actions += 1
        if log is not None:
            log.append((seat, action, now))
    return actions, other, state.round


def replay_rate(games: int, seed: int) -> float:
    """Requests per second of `apply` alone, replaying the logged requests of the same games."""
    logs = []
    for i in range(games):
        log: list[Request] = []
        play_game(seed + i, log)
        logs.append(log)
    apply = engine.apply
    new_game = engine.new_game
    started = time.perf_counter()
    count = 0
    for i, log in enumerate(logs):
        state = new_game(rng=random.Random(seed + i), created_at=0.0)
        for seat, action, now in log:
            state, _ = apply(state, seat, action, now)
        count += len(log)
    return count / (time.perf_counter() - started)


def run(games: int, seed: int) -> None:
    total_actions = total_other = total_rounds = 0
    started = time.perf_counter()
    for i in range(games):
        a, o, r = play_game(seed + i)
        total_actions += a
        total_other += o
        total_rounds += r
    elapsed = time.perf_counter() - started
    print(f"games:            {games} in {elapsed:.2f} s (seed {seed})")
    print(f"games per second: {games / elapsed:,.1f}")
    print(f"actions/s:        {total_actions / elapsed:,.0f}  (plays, leads, draws, auction)")
    print(f"requests/s:       {(total_actions + total_other) / elapsed:,.0f}  (+ start/continue)")
    print(
        f"per game:         {total_actions / games:.1f} actions, {total_rounds / games:.2f} rounds"
    )
    rate = replay_rate(games, seed)
    print(f"apply alone:      {rate:,.0f} requests/s  (same games replayed, no legal_actions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="print the top cProfile entries")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(args.games, args.seed)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(18)
    else:
        run(args.games, args.seed)


if __name__ == "__main__":
    main()
