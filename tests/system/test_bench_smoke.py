"""The benchmarks that start servers run to their last line at tiny sizes (seconds, not
minutes): a benchmark that no longer runs fails here, not on the day its figures are wanted.

Each runs as its own command (`python bench/<name>.py …`) on this test's database and
channel layer (tests/live.py's environment), with DEBUG on so that no collected static
files are needed. Only the shape of the last line is checked, never a figure.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.live import platform_env

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.live, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def run_bench(name: str, args: list[str], *, env: dict[str, str], timeout: float = 240) -> str:
    """The last line the benchmark printed; fails with its output if it did not end well.

    Its collectstatic writes a folder of its own: rewriting var/static would pull files from
    under the tests serving them meanwhile."""
    static_root = tempfile.mkdtemp(prefix="bench-static-")
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / name), *args],
        cwd=ROOT,
        env={**env, "STATIC_ROOT": static_root},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    shutil.rmtree(static_root, ignore_errors=True)
    output = f"stdout:\n{done.stdout[-4000:]}\nstderr:\n{done.stderr[-4000:]}"
    assert done.returncode == 0, output
    lines = done.stdout.strip().splitlines()
    assert lines, output
    return lines[-1]


def test_moves() -> None:
    tiny = ["--spawn", "--web", "1", "--games", "1", "--seconds", "1", "--rounds", "1"]
    tiny += ["--service-moves", "20", "--service-threads", "3", "--flags", "0"]
    last = run_bench("moves.py", tiny, env=platform_env(DEBUG="true"))
    number = r"(\d+\.\d\d|nan)"
    assert re.fullmatch(
        rf"ratio at 50 games: throughput {number}, p99 {number}; at 1 game: p50 {number}", last
    ), last


def test_arena() -> None:
    tiny = ["--players", "4", "--minutes", "1", "--web", "1", "--stop-after", "15"]
    last = run_bench("arena.py", tiny, env=platform_env(DEBUG="true"))
    number = r"(\d+\.\d\d|nan)"
    assert re.fullmatch(
        rf"arena 4: wave p99 {number} s, move p99 {number} s,"
        rf" standings lag p99 {number} s, errors \d+",
        last,
    ), last


def test_broker_burst() -> None:
    env = platform_env()
    env.pop("REDIS_URL", None)  # the embedded broker's benchmark
    last = run_bench(
        "broker_burst.py", ["--seconds", "2", "--producers", "1", "--rate", "5"], env=env
    )
    assert last == "worker survived", last
