"""The engine's command line (python -m games.engine.scenario FILE): on every spec scenario
(tests/games/engine/scenarios) exit 0 and the JSON run_scenario returns; on a malformed file
exit 2 with one line on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine.scenario import run_scenario
from tests.games.engine.test_scenarios import FILES, _valid_scenario
from tests.live import ROOT


def _cli(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine.scenario", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_cli_exit_0_and_json_output(path: Path) -> None:
    result = _cli(path)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out == json.loads(json.dumps(run_scenario(json.loads(path.read_text()))))


def _bad_deal() -> dict[str, Any]:
    data = _valid_scenario()
    data["rounds"][0]["boneyard"][0] = data["rounds"][0]["hands"][0][0]  # a tile twice
    return data


def _short_hand() -> dict[str, Any]:
    data = _valid_scenario()
    data["rounds"][0]["hands"][1] = data["rounds"][0]["hands"][1][:6]
    return data


def _time_goes_back() -> dict[str, Any]:
    data = _valid_scenario()
    data["steps"][2]["t"] = 0.5
    return data


def _unknown_player() -> dict[str, Any]:
    data = _valid_scenario()
    data["steps"][0]["player"] = 2
    return data


MALFORMED = {
    "bad_json": "{not json",
    "duplicate_tile": _bad_deal,
    "six_tile_hand": _short_hand,
    "time_goes_back": _time_goes_back,
    "unknown_player": _unknown_player,
    "not_an_object": "[1, 2, 3]",
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_cli_malformed_file_exits_2_with_one_line(case: str, tmp_path: Path) -> None:
    source = MALFORMED[case]
    text = source if isinstance(source, str) else json.dumps(source())
    path = tmp_path / f"{case}.json"
    path.write_text(text, encoding="utf-8")
    result = _cli(path)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
