"""bench/flags.py's smoke run: a small window, scanned, the planted booster flagged."""

from __future__ import annotations

import pytest

from bench import flags

pytestmark = pytest.mark.django_db


def test_the_scan_benchmark_flags_its_planted_booster() -> None:
    figures = flags.measure(games=40, players=6, seed=1)
    assert figures["booster_flagged"]
    assert figures["boosting_seconds"] > 0 and figures["early_resign_seconds"] > 0
