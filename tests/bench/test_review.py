"""bench/review.py's smoke run: a tiny review benchmark prints its last line exactly."""

from __future__ import annotations

import re

import pytest

from bench import review

LAST_LINE = re.compile(
    r"review: 2 games, median \d+\.\d s, p95 \d+\.\d s a game on one core, agreement \d+ %,"
    r" accuracy easy [\d.]+ / medium [\d.]+ / hard -"
)


def test_a_tiny_run_prints_the_figures_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert review.main(["--games", "2", "--samples", "3"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert LAST_LINE.fullmatch(lines[-1]), lines[-1]
