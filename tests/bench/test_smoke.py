"""The benchmarks that start no process run to their last line at tiny sizes.

Only that they run is checked, never a figure: the figures are for bench/RESULTS.md. The
benchmarks that start servers or a browser have theirs in tests/system/test_bench_smoke.py
and tests/e2e/test_bench_smoke.py.
"""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def run_script(
    name: str, args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    """The script run as `python bench/<name> <args>` in this process; its last line."""
    monkeypatch.setattr(sys, "argv", [str(BENCH / name), *args])
    runpy.run_path(str(BENCH / name), run_name="__main__")
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines, f"bench/{name} printed nothing"
    return lines[-1]


def test_engine(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    last = run_script("engine.py", ["--games", "3"], monkeypatch, capsys)
    assert re.fullmatch(r"apply alone: +[\d,]+ requests/s .*", last), last


def test_bots(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    tiny = ["--games", "2", "--budget", "0.002", "--long-budget", "0.004", "--budget-games", "2"]
    tiny += ["--platform-positions", "2", "--platform-budget", "0.01", "--speed-games", "3"]
    last = run_script("bots.py", tiny, monkeypatch, capsys)
    number = r"(\d\.\d\d|nan)"
    assert re.fullmatch(
        rf"hard-medium {number}, hard-easy {number}, medium-easy {number}, hard p99 {number} s",
        last,
    ), last
