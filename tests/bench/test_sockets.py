"""bench/sockets.py runs to its last line with a handful of sockets (its smoke run).

Two Daphne processes share a private Redis (the in-memory layer cannot reach across
processes); the database is the test's. Nothing here reads the figures: only that each
step ran and the line says so.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.live import ROOT, own_redis, platform_env

LAST_LINE = re.compile(
    r"^sockets 4: opened \d+/s, -?\d+ KB each, live p99 \d+ ms, "
    r"invitations p99 \d+ ms, back after a kill p95 \d+\.\d s$"
)


@pytest.mark.live
@pytest.mark.django_db(transaction=True)
def test_the_sockets_benchmark_runs_to_its_last_line(tmp_path):
    with own_redis() as (url, _restart):
        run = subprocess.run(
            [sys.executable, "bench/sockets.py", "--sockets", "4", "--pushes", "1"],
            cwd=ROOT,
            env=platform_env(REDIS_URL=url, STATIC_ROOT=str(tmp_path / "static")),
            capture_output=True,
            text=True,
            timeout=240,
        )
    lines = run.stdout.strip().splitlines()
    assert run.returncode == 0 and lines, run.stderr[-4000:]
    assert LAST_LINE.match(lines[-1]), run.stdout + run.stderr[-4000:]
