"""The computer players' ladder: how strong each strength is, and what its search costs.

    .venv/bin/python bench/bots.py [--games N] [--budget 0.05] [--long-budget 0.5]
                                   [--budget-games M] [--platform-budget 1.0] [--seed S]

1. A round-robin of random, easy, medium and hard: N games per pairing (default 200). Game
   2k and 2k+1 are dealt from the same seed with the seats swapped, so both bots of a
   pairing meet the same deals from both sides. Each pairing's win rate with its 95 % Wilson
   interval, and an Elo estimate per strength (maximum likelihood over all games, anchored
   at easy = 1000; half a win is added to each side of a pairing so that a clean sweep still
   gives a finite number). The hard bot thinks `--budget` seconds per decision (50 ms).
2. How hard grows with its budget: hard at `--long-budget` (500 ms) against hard at
   `--budget`, on a smaller sample (`--budget-games`, default N / 10).
3. Hard's decision time: p50/p99/max per budget, and p99 at the platform's budget
   (`--platform-budget`, COMPUTER_THINK_SECONDS' default) over positions met in the ladder.
4. Speed on one core: the hard bot's play-outs per second (a placement's run six moves on,
   the auction's and the lead's to the end of the round), the engine's random legal play
   in actions per second, and the `dominoes` PyPI package's random play in moves per second,
   measured in the same run.

The games run through the engine as the platform would (both players press Start and
Continue, 0.25 s between requests, so no clock ever flags); the bots see only their seat's
view. The last line is `hard-medium X.XX, hard-easy X.XX, medium-easy X.XX, hard p99 X.XX s`:
win rates of the first over the second and the p99 at the platform's budget.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engine import play_game as random_game
from games import bots, engine
from games.bots import search
from games.bots.selfplay import play_out

STEP = 0.25  # seconds between requests
PLAYERS = ("random", "easy", "medium", "hard")
ANCHOR = ("easy", 1000.0)

Chooser = Callable[[dict[str, Any], int], dict[str, Any]]


def chooser(name: str, budget: float) -> Chooser:
    if name == "random":

        def pick(view: dict[str, Any], seed: int) -> dict[str, Any]:
            legal = engine.choices(view["legal"])
            return random.Random(seed).choice(legal)

        return pick
    strength = name.split("@")[0]

    def think(view: dict[str, Any], seed: int) -> dict[str, Any]:
        return bots.choose(view, strength, budget=budget, seed=seed)

    return think


@dataclass
class Tally:
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    views: list[dict[str, Any]] = field(default_factory=list)

    def add(self, name: str, seconds: float, cpu: float) -> None:
        self.times.setdefault(name, []).append(seconds)
        self.cpu.setdefault(name, []).append(cpu)


def play(
    names: tuple[str, str],
    choosers: tuple[Chooser, Chooser],
    deal_seed: int,
    tally: Tally,
    keep_views: int = 0,
) -> int:
    """One game; the winning seat."""
    decision = 0

    def timed_choice(state: Any, seat: int, now: float) -> dict[str, Any]:
        nonlocal decision
        view = engine.view(state, seat, now)
        decision += 1
        started, cpu = time.perf_counter(), time.process_time()
        action = choosers[seat](view, deal_seed * 100_003 + decision)
        tally.add(names[seat], time.perf_counter() - started, time.process_time() - cpu)
        if keep_views and len(view["legal"]) > 2 and decision % 7 == 0:
            tally.views.append(view)
        return action

    dealt = engine.new_game(rng=random.Random(deal_seed), created_at=0.0)
    *_, (state, _seat, _now) = play_out(dealt, timed_choice, step=STEP)  # last: the end
    assert state.winner is not None, state.reason
    return state.winner


def match(a: str, b: str, games: int, seed: int, budgets: dict[str, float], tally: Tally) -> int:
    """Games of a against b, seats alternated on mirrored deals; a's wins."""
    ca, cb = chooser(a, budgets.get(a, 0.0)), chooser(b, budgets.get(b, 0.0))
    wins = 0
    for k in range(games):
        deal_seed = seed + k // 2
        keep = 1 if "hard" in (a, b) else 0
        if k % 2 == 0:
            wins += play((a, b), (ca, cb), deal_seed, tally, keep) == 0
        else:
            wins += play((b, a), (cb, ca), deal_seed, tally, keep) == 1
    return wins


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(
    results: dict[tuple[str, str], tuple[float, int]], names: tuple[str, ...]
) -> dict[str, float]:
    """Maximum-likelihood Elo from (wins of first, games) per pairing, anchored at ANCHOR."""
    rating = dict.fromkeys(names, 0.0)
    smoothed = {pair: (w + 0.5, n + 1) for pair, (w, n) in results.items()}
    for _ in range(5000):
        grad = dict.fromkeys(names, 0.0)
        for (a, b), (w, n) in smoothed.items():
            expected = n / (1 + 10 ** ((rating[b] - rating[a]) / 400))
            grad[a] += w - expected
            grad[b] -= w - expected
        for name in names:
            rating[name] += 4.0 * grad[name] / max(1, sum(n for _w, n in smoothed.values()))
    shift = ANCHOR[1] - rating[ANCHOR[0]]
    return {name: r + shift for name, r in rating.items()}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def timing_line(label: str, times: list[float], cpu: list[float]) -> str:
    return (
        f"  {label:<22} {len(times):>6} decisions  p50 {statistics.median(times) * 1000:7.1f} ms"
        f"  p99 {percentile(times, 0.99) * 1000:7.1f} ms  max {max(times) * 1000:7.1f} ms"
        f"  (CPU p99 {percentile(cpu, 0.99) * 1000:.1f} ms)"
    )


def playouts_per_second(views: list[dict[str, Any]], budget: float) -> float:
    """Play-outs the hard search runs per second of its own time, over recorded positions."""
    done = 0
    original = search.rollout

    def counted(*args: Any) -> float:
        nonlocal done
        done += 1
        return original(*args)

    search.rollout = counted  # type: ignore[assignment]
    try:
        started = time.perf_counter()
        for i, view in enumerate(views):
            bots.choose(view, "hard", budget=budget, seed=i)
        elapsed = time.perf_counter() - started
    finally:
        search.rollout = original  # type: ignore[assignment]
    return done / elapsed


def engine_actions_per_second(games: int, seed: int) -> float:
    """bench/engine.py's random legal games: decisions (plays, draws, bids…) per second."""
    started = time.perf_counter()
    actions = sum(random_game(seed + i)[0] for i in range(games))
    return actions / (time.perf_counter() - started)


def dominoes_moves_per_second(games: int, seed: int) -> float:
    """The `dominoes` package's own random player (players.random), moves per second."""
    import dominoes

    random.seed(seed)  # the package shuffles and chooses with the module-level generator
    moves = 0
    started = time.perf_counter()
    for _ in range(games):
        game = dominoes.Game.new()
        while game.result is None:
            dominoes.players.random(game)
            game.make_move(*game.valid_moves[0])
            moves += 1
    return moves / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing (even)")
    parser.add_argument("--budget", type=float, default=0.05, help="hard's seconds per decision")
    parser.add_argument("--long-budget", type=float, default=0.5)
    parser.add_argument("--budget-games", type=int, default=None, help="default: games / 10")
    parser.add_argument("--platform-budget", type=float, default=1.0)
    parser.add_argument("--platform-positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rate",
        type=int,
        default=search.PLAYOUTS_PER_SECOND,
        help="hard's play-outs per second of budget (games.bots.search.PLAYOUTS_PER_SECOND)",
    )
    parser.add_argument("--only", default="", help="comma-separated pairings, e.g. hard-medium")
    parser.add_argument(
        "--speed-games", type=int, default=300, help="games of the engine's and PyPI's speed runs"
    )
    args = parser.parse_args()
    games = args.games + args.games % 2
    search.PLAYOUTS_PER_SECOND = args.rate
    started, started_cpu = time.perf_counter(), time.process_time()
    tally = Tally()
    budgets = {"hard": args.budget}
    results: dict[tuple[str, str], tuple[float, int]] = {}
    only = {tuple(p.split("-")) for p in args.only.split(",") if p}

    print(f"Round-robin: {games} games per pairing, hard at {args.budget * 1000:.0f} ms")
    for j, b in enumerate(PLAYERS):
        for a in PLAYERS[j + 1 :]:
            if only and (a, b) not in only:
                continue
            t, cpu = time.perf_counter(), time.process_time()
            wins = match(a, b, games, args.seed + 10_000 * len(results), budgets, tally)
            results[(a, b)] = (wins, games)
            low, high = wilson(wins, games)
            print(
                f"  {a:>6} vs {b:<6} {wins / games:5.2f}  (95 % {low:.2f}-{high:.2f})"
                f"  {wins}/{games}  {time.perf_counter() - t:5.0f} s"
                f" ({time.process_time() - cpu:.0f} s CPU)",
                flush=True,
            )
    ladder_wall, ladder_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    print(f"  round-robin: {ladder_wall:.0f} s, {ladder_cpu:.0f} s of CPU (one core)")
    names = tuple(p for p in PLAYERS if any(p in pair for pair in results))
    if results:
        ratings = elo(results, names)
        print("Elo (easy = 1000): " + ", ".join(f"{n} {ratings[n]:.0f}" for n in names))

    long_name = f"hard@{args.long_budget * 1000:.0f}ms"
    budget_games = args.budget_games if args.budget_games is not None else max(2, games // 10)
    budget_games += budget_games % 2
    if budget_games and not only:
        t = time.perf_counter()
        budgets[long_name] = args.long_budget
        wins = match(long_name, "hard", budget_games, args.seed + 99_000, budgets, tally)
        low, high = wilson(wins, budget_games)
        print(
            f"Budget: hard at {args.long_budget * 1000:.0f} ms vs {args.budget * 1000:.0f} ms"
            f" {wins / budget_games:.2f} (95 % {low:.2f}-{high:.2f}), {wins}/{budget_games}"
            f"  {time.perf_counter() - t:.0f} s",
            flush=True,
        )

    print("Decision time (one core, whole decision including reading the view):")
    for name, times in sorted(tally.times.items()):
        if name.startswith("hard"):
            print(timing_line(name, times, tally.cpu[name]))
    step = max(1, len(tally.views) // max(1, args.platform_positions))
    views = tally.views[::step][: args.platform_positions]
    platform_times: list[float] = []
    platform_cpu: list[float] = []
    for i, view in enumerate(views):
        t, cpu = time.perf_counter(), time.process_time()
        bots.choose(view, "hard", budget=args.platform_budget, seed=i)
        platform_times.append(time.perf_counter() - t)
        platform_cpu.append(time.process_time() - cpu)
    if platform_times:
        label = f"hard@{args.platform_budget:g}s positions"
        print(timing_line(label, platform_times, platform_cpu))
    rate = playouts_per_second(views, args.budget) if views else 0.0

    print("Speed (one core, this run):")
    print(f"  hard play-outs/s:        {rate:,.0f}  (six moves on, or to the round's end)")
    engine_rate = engine_actions_per_second(args.speed_games, args.seed)
    print(f"  engine actions/s:        {engine_rate:,.0f}")
    pypi_rate = dominoes_moves_per_second(10 * args.speed_games, args.seed)
    print(f"  dominoes (PyPI) moves/s: {pypi_rate:,.0f}")
    print(
        f"Total {time.perf_counter() - started:.0f} s,"
        f" {time.process_time() - started_cpu:.0f} s of CPU"
    )

    def rate_of(a: str, b: str) -> float:
        w, n = results.get((a, b), (0, 0))
        return w / n if n else float("nan")

    p99 = percentile(platform_times, 0.99) if platform_times else float("nan")
    print(
        f"hard-medium {rate_of('hard', 'medium'):.2f}, hard-easy {rate_of('hard', 'easy'):.2f}, "
        f"medium-easy {rate_of('medium', 'easy'):.2f}, hard p99 {p99:.2f} s"
    )


if __name__ == "__main__":
    main()
