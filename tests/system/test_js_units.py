"""Runs the JavaScript unit tests (tests/js/*.test.mjs) with Node's built-in runner.

Skipped when node is missing, except under CI=true, where a missing node is a failure.
"""

from __future__ import annotations

import subprocess

from tests.ci_guard import node_or_skip
from tests.live import ROOT


def test_js_units_pass() -> None:
    node = node_or_skip("the JavaScript tests")
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
