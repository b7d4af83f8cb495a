"""Runs the JavaScript unit tests (tests/js/*.test.mjs) with Node's built-in runner.

Skipped when node is missing, except under CI=true, where a missing node is a failure.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.ci_guard import IN_CI
from tests.live import ROOT


def test_js_units_pass() -> None:
    node = shutil.which("node") or ("/usr/bin/node" if Path("/usr/bin/node").exists() else None)
    if node is None:
        if IN_CI:
            pytest.fail("CI=true but node is not installed: the JavaScript tests cannot run")
        pytest.skip("node is not installed")
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert files, "no JavaScript tests found in tests/js/"
    result = subprocess.run(
        [node, "--import", "./tests/js/register.mjs", "--test", *files],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-4000:]
