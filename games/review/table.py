"""The win-chance table: a player's chance to win the game between two rounds, from their
balance and who leads the next round, built by self-play of the hard computer.

    python -m games.review.table --seed 1 --games 400 --out games/review/win_table.json

Like backgammon's match-equity tables, it turns any end of a round into one number that
means the same everywhere: a round that ends with the balances (b, 300 - b) and a jockey is
worth `chance(b, situation)` to the player with b. The situation is the player's side of
the next round's lead: "rank" (after a block, or the game's start: the best tile leads,
R2.2), "jockey" (the player went out and the other bids first, R6.1) or "rival".

Building: games start from balances drawn at random (multiples of 5), so that every bucket
sees games; the hard computer plays both seats with a fixed number of play-outs (so the
build is the same on any machine); at every end of a round, and at the start, each seat's
(balance, situation) is recorded with whether that seat went on to win. Each situation's
buckets are the empirical rate shrunk toward a logistic fit of that situation, then made
non-decreasing in the balance. Pure Python, no Django.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games import engine
from games.bots import search

SITUATIONS: tuple[str, ...] = ("rank", "jockey", "rival")
TOTAL = 300  # R1.2: the two balances always add up to this
BUCKET = 10  # points of balance per bucket
BUCKETS = TOTAL // BUCKET
# The hard computer's play-outs a decision during the build: fewer than in play (a second
# buys 1000) so the shipped table builds in minutes, enough that it plays like itself.
BUILD_PLAYOUTS = 16
# Pseudo-games of the logistic fit added to each bucket: a bucket with few games leans on
# the fit of its whole situation, one with many keeps its own rate.
SHRINK = 20.0
TABLE_PATH = Path(__file__).with_name("win_table.json")


def situation_of(seat: int, jockey: int | None) -> str:
    """The seat's side of the next round's lead, from the round's jockey (None: a block)."""
    if jockey is None:
        return "rank"
    return "jockey" if jockey == seat else "rival"


@dataclass(frozen=True)
class WinTable:
    """Chances by situation and bucket; `chance` interpolates between bucket centres."""

    chances: Mapping[str, tuple[float, ...]]
    meta: Mapping[str, Any]

    def chance(self, balance: int, situation: str) -> float:
        """The chance that the player with `balance` wins, between rounds, in `situation`."""
        if balance <= 0:
            return 0.0
        if balance >= TOTAL:
            return 1.0
        row = self.chances[situation]
        x = balance / BUCKET - 0.5  # bucket i's centre is at i + 0.5 buckets
        if x <= 0:
            # Between 0 points (a loss) and the first bucket's centre.
            return row[0] * balance / (BUCKET / 2)
        if x >= BUCKETS - 1:
            return row[-1] + (1.0 - row[-1]) * (balance - (TOTAL - BUCKET / 2)) / (BUCKET / 2)
        i = int(x)
        frac = x - i
        return row[i] * (1 - frac) + row[i + 1] * frac

    def to_json(self) -> dict[str, Any]:
        return {
            "bucket": BUCKET,
            "situations": {s: list(self.chances[s]) for s in SITUATIONS},
            "meta": dict(self.meta),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WinTable:
        if data.get("bucket") != BUCKET:
            raise ValueError(f"a table of {BUCKET}-point buckets is needed")
        chances = {s: tuple(float(p) for p in data["situations"][s]) for s in SITUATIONS}
        if any(len(row) != BUCKETS for row in chances.values()):
            raise ValueError(f"each situation needs {BUCKETS} buckets")
        return cls(chances, dict(data.get("meta") or {}))


_SHIPPED: WinTable | None = None


def shipped() -> WinTable:
    """The table shipped beside this module, read once."""
    global _SHIPPED
    if _SHIPPED is None:
        _SHIPPED = WinTable.from_json(json.loads(TABLE_PATH.read_text()))
    return _SHIPPED


# ----------------------------------------------------------------------------- building

Record = tuple[int, str, bool]  # (balance, situation, won)


def self_play_game(seed: str, balances: tuple[int, int], playouts: int) -> Iterator[Record]:
    """One game of the hard computer against itself from `balances`: a record per seat at
    the start and at every end of a round."""
    rng = random.Random(f"{seed}/moves")
    state = engine.new_game(balances=balances, rng=random.Random(f"{seed}/deals"))
    marks: list[tuple[tuple[int, int], int | None]] = []
    now = 0.0
    while state.status in ("waiting", "playing"):
        now += 1.0  # well inside the delay: no bank is ever charged
        seat = state.to_act
        if seat is None:
            marks.append((state.balances, state.jockey if state.phase == "round_over" else None))
            state = engine.press_ready(state, now)
            continue
        view = engine.view(state, seat, now)
        action = search.hard(view, rng, budget=1e9, playouts=playouts)
        state, _ = engine.apply(state, seat, action, now)
    if state.winner is None:
        return
    for (b0, b1), jockey in marks:
        for seat, balance in ((0, b0), (1, b1)):
            yield balance, situation_of(seat, jockey), state.winner == seat


def _logistic(points: Sequence[tuple[int, bool]]) -> tuple[float, float]:
    """(a, k) of p = 1 / (1 + exp(-(a + k * (b - 150) / 50))), by Newton's method."""
    a, k = 0.0, 1.0
    for _ in range(25):
        ga = gk = haa = hak = hkk = 0.0
        for balance, won in points:
            x = (balance - TOTAL / 2) / 50
            p = 1 / (1 + math.exp(-(a + k * x)))
            r = (1.0 if won else 0.0) - p
            w = p * (1 - p) + 1e-9
            ga += r
            gk += r * x
            haa += w
            hak += w * x
            hkk += w * x * x
        # A weak prior keeps the fit finite when a situation's games all end one way.
        haa += 0.01
        hkk += 0.01
        det = haa * hkk - hak * hak
        da = (hkk * ga - hak * gk) / det
        dk = (haa * gk - hak * ga) / det
        a, k = a + da, k + dk
        if abs(da) + abs(dk) < 1e-10:
            break
    return a, k


def _non_decreasing(values: list[float], weights: list[float]) -> list[float]:
    """The closest non-decreasing sequence (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [value, weight, length]
    for v, w in zip(values, weights, strict=True):
        blocks.append([v, w, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            v2, w2, n2 = blocks.pop()
            v1, w1, n1 = blocks.pop()
            blocks.append([(v1 * w1 + v2 * w2) / (w1 + w2), w1 + w2, n1 + n2])
    out: list[float] = []
    for v, _w, n in blocks:
        out.extend([v] * int(n))
    return out


def fit(records: Sequence[Record]) -> dict[str, tuple[float, ...]]:
    """Each situation's bucket chances from the records (see the module's docstring)."""
    chances: dict[str, tuple[float, ...]] = {}
    for situation in SITUATIONS:
        points = [(b, won) for b, s, won in records if s == situation and 0 < b < TOTAL]
        a, k = _logistic(points)
        wins = [0] * BUCKETS
        games = [0] * BUCKETS
        for balance, won in points:
            i = min(BUCKETS - 1, balance // BUCKET)
            games[i] += 1
            wins[i] += won
        rates: list[float] = []
        for i in range(BUCKETS):
            x = ((i + 0.5) * BUCKET - TOTAL / 2) / 50
            prior = 1 / (1 + math.exp(-(a + k * x)))
            rates.append((wins[i] + SHRINK * prior) / (games[i] + SHRINK))
        smooth = _non_decreasing(rates, [g + SHRINK for g in games])
        chances[situation] = tuple(round(p, 4) for p in smooth)
    return chances


def build(*, seed: int, games: int, playouts: int = BUILD_PLAYOUTS) -> WinTable:
    """The table from `games` self-play games; the same seed and size give the same table."""
    draw = random.Random(f"win-table/{seed}")
    records: list[Record] = []
    for n in range(games):
        b0 = draw.randrange(1, TOTAL // 5) * 5
        records.extend(self_play_game(f"win-table/{seed}/{n}", (b0, TOTAL - b0), playouts))
    meta = {"seed": seed, "games": games, "playouts": playouts, "records": len(records)}
    return WinTable(fit(records), meta)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--playouts", type=int, default=BUILD_PLAYOUTS)
    parser.add_argument("--out", type=Path, default=TABLE_PATH)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    table = build(seed=args.seed, games=args.games, playouts=args.playouts)
    args.out.write_text(json.dumps(table.to_json(), indent=1) + "\n")
    seconds = time.perf_counter() - started
    print(
        f"win table: {args.games} games, {table.meta['records']} records, {seconds:.0f} s"
        f" -> {args.out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
