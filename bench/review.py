"""Game reviews: how long one takes on one core, how stable its grades are, and whether its
accuracy figure tells the computer's strengths apart.

    .venv/bin/python bench/review.py [--games N] [--samples S] [--seed K] [--hard-budget B]

N games (default 36) between the computer's strengths, the pairings easy-medium,
medium-hard and easy-hard in turn with the seats swapped every other game (games.review.
selfplay: the hard computer thinks B = 0.2 s a decision, one decision a second so no
clock flags). Each game is reviewed whole (both seats' decisions, as for two humans) with the
platform's samples per decision (REVIEW_SAMPLES' default), timed in CPU seconds of this
process (one core), then reviewed again with another seed: the agreement is the share of
graded decisions given the same grade by both. Accuracy per strength is the mean of its
seats' figures with a 95 % interval (mean ± 1.96 standard errors).

The last line is exactly `review: N games, median X.X s, p95 Y.Y s a game on one core,
agreement Z %, accuracy easy A / medium B / hard C` (one line).
Goals (docs/review.md): median <= 10 s, p95 <= 30 s, agreement >= 95 %, easy < medium <
hard with intervals that do not overlap.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.review.evaluate import SAMPLES
from games.review.grades import Thresholds
from games.review.plan import decision_steps, evaluate_steps, summarize
from games.review.selfplay import computer_game
from games.review.table import shipped

# The hard computer's thinking a decision in these games: 200 play-outs, a fifth of what it
# gets in play; at 0.05 s it is too close to medium for their accuracy to be told apart.
HARD_BUDGET = 0.2
PAIRINGS = (("easy", "medium"), ("medium", "hard"), ("easy", "hard"))


def interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=36)
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hard-budget", type=float, default=HARD_BUDGET, help="seconds a decision")
    args = parser.parse_args(argv)
    table = shipped()
    thresholds = Thresholds()
    seconds: list[float] = []
    same = graded = 0
    accuracy: dict[str, list[float]] = {"easy": [], "medium": [], "hard": []}
    for n in range(args.games):
        pairing = PAIRINGS[(n // 2) % len(PAIRINGS)]
        strengths = pairing if n % 2 == 0 else (pairing[1], pairing[0])
        initial, changes = computer_game(args.seed * 1000 + n, strengths, args.hard_budget)
        started = time.process_time()
        steps = decision_steps(initial, changes, (0, 1))
        first = list(
            evaluate_steps(
                initial, changes, steps, table, thresholds, samples=args.samples, seed=f"a{n}"
            )
        )
        summary = summarize(first, (0, 1))
        seconds.append(time.process_time() - started)
        second = evaluate_steps(
            initial, changes, steps, table, thresholds, samples=args.samples, seed=f"b{n}"
        )
        for a, b in zip(first, second, strict=True):
            if not a["forced"]:
                graded += 1
                same += a["grade"] == b["grade"]
        for player in summary["players"]:
            if player["accuracy"] is not None:
                accuracy[strengths[player["seat"]]].append(player["accuracy"])
        print(
            f"game {n + 1}: {strengths[0]}-{strengths[1]}, {len(steps)} decisions,"
            f" {seconds[-1]:.1f} s, accuracy"
            f" {summary['players'][0]['accuracy']} / {summary['players'][1]['accuracy']}",
            file=sys.stderr,
        )
    for strength, values in accuracy.items():
        if values:
            mean, low, high = interval(values)
            print(
                f"{strength}: accuracy {mean:.1f} (95 % {low:.1f}-{high:.1f}, {len(values)} seats)"
            )
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    agreement = 100.0 * same / graded if graded else 100.0

    def acc(strength: str) -> str:
        values = accuracy[strength]
        return f"{statistics.fmean(values):.1f}" if values else "-"

    print(
        f"review: {args.games} games, median {statistics.median(seconds):.1f} s,"
        f" p95 {p95:.1f} s a game on one core, agreement {agreement:.0f} %,"
        f" accuracy easy {acc('easy')} / medium {acc('medium')} / hard {acc('hard')}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
