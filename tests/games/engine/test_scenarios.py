"""Replays every spec scenario (scenarios/*.json here, copies of the spec's) and checks its
`expect` block as docs/engine-api.md "The expect block" describes (the CLI,
a subprocess, is driven in tests/system/test_engine_cli.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine.scenario import run_scenario

# Copies of the spec's scenarios: a clone tests itself with nothing beside it.
SCENARIOS = Path(__file__).resolve().parent / "scenarios"
FILES = sorted(SCENARIOS.glob("*.json"))
BANK_TOLERANCE = 0.001


def test_scenario_folder_is_present_and_not_empty() -> None:
    # A missing contract must fail loudly, not turn every test below into a silent skip.
    assert SCENARIOS.is_dir(), f"scenario folder missing: {SCENARIOS}"
    assert FILES, f"no scenario files in {SCENARIOS}"


def _matches(expected: dict[str, Any], event: dict[str, Any]) -> bool:
    return all(key in event and event[key] == value for key, value in expected.items())


def _check_events_include(wanted: list[dict[str, Any]], events: list[dict[str, Any]]) -> None:
    """`wanted` must appear in this order among `events`, each matching on the keys it names."""
    position = 0
    for want in wanted:
        while position < len(events) and not _matches(want, events[position]):
            position += 1
        assert position < len(events), f"event {want} not found in order among {events}"
        position += 1


def _check_value(key: str, expected: Any, actual: Any) -> None:
    if key == "banks":
        assert len(actual) == len(expected)
        for want, got in zip(expected, actual, strict=True):
            assert got == pytest.approx(want, abs=BANK_TOLERANCE), f"banks: {actual} != {expected}"
    else:
        assert actual == expected, f"{key}: {actual!r} != {expected!r}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_expect_block(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    expect = data["expect"]
    out = run_scenario(data)
    for key, value in expect.items():
        if key != "steps":
            assert key in out, f"output has no {key!r}"
            _check_value(key, value, out[key])
    expected_steps = expect.get("steps", [])
    assert len(out["steps"]) >= len(expected_steps)
    for i, (want, got) in enumerate(zip(expected_steps, out["steps"], strict=False)):
        for key, value in want.items():
            if key == "events_include":
                try:
                    _check_events_include(value, got["events"])
                except AssertionError as err:
                    raise AssertionError(f"step {i}: {err}") from None
            else:
                assert key in got, f"step {i}: output has no {key!r}"
                try:
                    _check_value(key, value, got[key])
                except AssertionError as err:
                    raise AssertionError(f"step {i}: {err}") from None


def _valid_scenario() -> dict[str, Any]:
    return json.loads(FILES[0].read_text(encoding="utf-8"))


def test_unknown_request_is_a_bad_request_step_not_a_malformed_file() -> None:
    data = _valid_scenario()
    data["steps"].append({"t": 20, "player": 0, "do": "dance"})
    out = run_scenario(data)
    assert out["steps"][-1]["ok"] is False
    assert out["steps"][-1]["error"] == "bad_request"
    assert out["steps"][-1]["events"] == []


def test_no_deal_listed_stops_the_replay() -> None:
    data = json.loads((SCENARIOS / "06-block-pays-lower-hand.json").read_text(encoding="utf-8"))
    data["rounds"] = data["rounds"][:1]
    data["steps"].append({"t": 200, "do": "tick"})
    out = run_scenario(data)
    assert out["status"] == "no_deal"
    assert out["round"] == 1
    assert out["to_act"] is None


def test_refused_step_reports_timed_events_separately() -> None:
    data = json.loads((SCENARIOS / "04-loss-on-time.json").read_text(encoding="utf-8"))
    # Drop the tick at t=18: the flag is then observed by the late move at t=19.
    data["steps"] = [s for s in data["steps"] if s["t"] != 18]
    out = run_scenario(data)
    last = out["steps"][-1]
    assert last["ok"] is False and last["error"] == "game_over"
    assert last["events"] == []
    kinds = [e["type"] for e in last["timed_events"]]
    assert kinds == ["flag", "game_over"]
    assert last["timed_events"][0]["t"] == pytest.approx(18.0)
