"""The win-chance table: built the same from the same seed, read the same way everywhere."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from games.review import table as win_table
from games.review.table import BUCKET, SITUATIONS, TOTAL, WinTable, build, fit, shipped


def test_the_same_seed_and_size_rebuild_the_same_table() -> None:
    first = build(seed=5, games=2, playouts=4)
    second = build(seed=5, games=2, playouts=4)
    assert first.to_json() == second.to_json()
    assert first.meta["records"] > 0


def test_the_command_writes_the_table_it_builds(tmp_path: Path) -> None:
    out = tmp_path / "table.json"
    assert (
        win_table.main(["--seed", "5", "--games", "2", "--playouts", "4", "--out", str(out)]) == 0
    )
    written = WinTable.from_json(__import__("json").loads(out.read_text()))
    assert written.to_json() == build(seed=5, games=2, playouts=4).to_json()


def test_the_fit_recovers_a_known_curve_and_never_falls() -> None:
    rng = random.Random(3)
    records = []
    for _ in range(6000):
        balance = rng.randrange(5, 300, 5)
        for situation, shift in (("rank", 0), ("jockey", 20), ("rival", -20)):
            p = 1 / (1 + math.exp(-(balance - 150 + shift) / 35))
            records.append((balance, situation, rng.random() < p))
    chances = fit(records)
    for situation, shift in (("rank", 0), ("jockey", 20), ("rival", -20)):
        row = chances[situation]
        assert list(row) == sorted(row)
        for i in (5, 15, 24):
            centre = (i + 0.5) * BUCKET
            expected = 1 / (1 + math.exp(-(centre - 150 + shift) / 35))
            assert row[i] == pytest.approx(expected, abs=0.08)


def test_chance_interpolates_between_bucket_centres_and_ends_at_zero_and_one() -> None:
    row = tuple((i + 0.5) / 30 for i in range(30))
    t = WinTable({s: row for s in SITUATIONS}, {})
    assert t.chance(0, "rank") == 0.0
    assert t.chance(TOTAL, "rank") == 1.0
    assert t.chance(15, "rank") == pytest.approx(row[1])
    assert t.chance(20, "rank") == pytest.approx((row[1] + row[2]) / 2)
    values = [t.chance(b, "jockey") for b in range(0, TOTAL + 1)]
    assert values == sorted(values)


def test_a_table_of_other_buckets_is_refused() -> None:
    with pytest.raises(ValueError):
        WinTable.from_json({"bucket": 5, "situations": {}})


def test_the_shipped_table_rises_with_the_balance_and_is_fair_to_both_seats() -> None:
    t = shipped()
    for situation in SITUATIONS:
        values = [t.chance(b, situation) for b in range(0, TOTAL + 1, 5)]
        assert values == sorted(values)
        assert values[1] < 0.2 and values[-2] > 0.8
    for balance in range(10, TOTAL, 10):
        # The same end of a round seen from both seats: the two chances add up to one.
        assert t.chance(balance, "rank") + t.chance(TOTAL - balance, "rank") == pytest.approx(
            1, abs=0.08
        )
        assert t.chance(balance, "jockey") + t.chance(TOTAL - balance, "rival") == pytest.approx(
            1, abs=0.08
        )
    assert t.meta["games"] >= 100
