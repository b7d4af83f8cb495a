"""The benchmarks that drive Chromium run to their last line at tiny sizes.

Each starts `make run`'s platform in a folder of its own (bench/embedded.py), as it does
when measuring; only the shape of the last line is checked, never a figure.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.ci_guard import CHROMIUM, IN_CI
from tests.system.test_bench_smoke import run_bench

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(autouse=True)
def _chromium() -> None:
    if not Path(CHROMIUM).exists():
        if IN_CI:
            pytest.fail(f"CI=true and no Chromium at {CHROMIUM}", pytrace=False)
        pytest.skip(f"no Chromium at {CHROMIUM}")


def environment() -> dict[str, str]:
    return dict(os.environ)


def test_pages() -> None:
    tiny = ["--runs", "1", "--pages", "home,game (computer)", "--languages", "es"]
    assert run_bench("pages.py", tiny, env=environment()) == "pages: 2 visited, best of 1"


def test_computer_push() -> None:
    last = run_bench("computer_push.py", ["--moves", "2"], env=environment())
    assert re.fullmatch(r"computer push: \d+ moves, p50 \d+ ms, p90 \d+ ms, max \d+ ms", last), last
