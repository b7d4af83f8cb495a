"""Replay a scenario file through the engine (docs/engine-api.md, "Scenario files").

    python -m games.engine.scenario FILE.json     # prints the result as JSON on stdout

Exit status 0 for any valid scenario (an illegal step is a result, not a failure); 2 with a
one-line message on stderr when the file is malformed: not JSON, a deal that is not 28
distinct tiles split 7/7/14, a step whose `t` is missing or smaller than the previous one,
an unknown or missing `player` on a step that is not a `tick`, bad `balances`/`banks`.
What a request asks for (`do`, `tile`, `end`, `amount`) is the engine's business: an unknown
`do` or a tile that does not exist is a `bad_request` step, not a malformed file.

The scenario's clock starts at t = 0, which is also the game's creation time (P1 aborts at 60).

Where timed transitions are reported. Before each step the engine looks at the clocks at that
step's `t` (`advance`): a flag, the P1 abort or the P2 automatic Continue (with the next
round's deal, its automatic lead or renounce...) happens at its own instant, which each event
carries in `"t"`, and is reported with the step at which it was observed:

- a `tick` or an accepted request lists them first in its `events`, then the request's own;
- a refused request keeps `"events": []` (it changed nothing) and lists them under
  `"timed_events"`. The state shown after that step includes them: they did happen.

A `{"t": ..., "do": "void"}` step (no player; optional `"reason"`, default
"service_fault") cancels the game with no result, as the platform does on a proven service
fault (R7.10, `engine.void`). It is the one step before which the clocks are not looked
at: the void exists because time could not be measured, so nothing timed is due before it.
On a game already over it is refused with `game_over`.

Each step entry holds `ok`, `error` and `message` (refused only), `t`, `status`, `phase`,
`to_act`, `round`, `jockey`, `balances`, `banks` (as of that step's `t`), `count` and
`events`. Events are unfiltered (the referee's view): a draw's tile and a deal's hands and
boneyard are shown.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .deals import DealError, parse_deal
from .errors import RuleError
from .game import VOID_REASON, advance, apply, bank_at, new_game, void
from .state import State
from .tiles import names_of


class ScenarioError(ValueError):
    """The scenario file itself is malformed (exit status 2)."""


def run_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Replay a parsed scenario and return the output described above."""
    state, steps = _load(data)
    entries: list[dict[str, Any]] = []
    last_t = 0.0
    for t, player, step in steps:
        last_t = t
        entry: dict[str, Any]
        if step.get("do") == "void":
            # No clock look first: a void is for a clock that could not be trusted (R7.10).
            timed: list[dict[str, Any]] = []
            try:
                state, events = void(state, t, step.get("reason", VOID_REASON))
            except RuleError as err:
                entry = {"ok": False, "error": err.code, "message": err.message}
                events = []
            else:
                entry = {"ok": True}
        elif step.get("do") == "tick":
            state, timed = advance(state, t)
            entry = {"ok": True}
            events = timed
        else:
            state, timed = advance(state, t)
            action = {k: v for k, v in step.items() if k not in ("t", "player")}
            try:
                assert player is not None
                state, own = apply(state, player, action, t)
            except RuleError as err:
                entry = {"ok": False, "error": err.code, "message": err.message}
                events = []
            else:
                entry = {"ok": True}
                events = timed + own
        entry.update(_snapshot(state, t))
        entry["events"] = events
        if not entry["ok"]:
            entry["timed_events"] = timed
        entries.append(entry)
    out: dict[str, Any] = {
        "status": state.status,
        "phase": state.phase,
        "winner": state.winner,
        "reason": state.reason,
        "round": state.round,
        "to_act": state.to_act,
        "jockey": state.jockey,
        "balances": list(state.balances),
        "banks": [bank_at(state, 0, last_t), bank_at(state, 1, last_t)],
        "count": state.board.count,
        "hands": [names_of(state.hands[0]), names_of(state.hands[1])],
        "boneyard_left": len(state.boneyard) - state.drawn,
        "steps": entries,
    }
    if "name" in data:
        out = {"name": data["name"], **out}
    return out


def _snapshot(state: State, t: float) -> dict[str, Any]:
    return {
        "t": t,
        "status": state.status,
        "phase": state.phase,
        "to_act": state.to_act,
        "round": state.round,
        "jockey": state.jockey,
        "balances": list(state.balances),
        "banks": [bank_at(state, 0, t), bank_at(state, 1, t)],
        "count": state.board.count,
    }


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _pair(data: dict[str, Any], key: str, default: tuple[Any, Any]) -> tuple[Any, Any]:
    value = data.get(key, default)
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise ScenarioError(f"'{key}' must be a list of two numbers")
    return value[0], value[1]


def _load(data: object) -> tuple[State, list[tuple[float, int | None, dict[str, Any]]]]:
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    balances = _pair(data, "balances", (150, 150))
    if any(type(b) is not int or b < 0 for b in balances):
        raise ScenarioError("'balances' must be two non-negative integers")
    banks = _pair(data, "banks", (120, 120))
    if any(not _number(b) or b < 0 for b in banks):
        raise ScenarioError("'banks' must be two non-negative numbers of seconds")
    same_device = data.get("same_device", False)
    if not isinstance(same_device, bool):
        raise ScenarioError("'same_device' must be true or false")
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise ScenarioError("'rounds' must be a list of deals")
    deals = []
    for i, raw in enumerate(rounds, start=1):
        try:
            parse_deal(raw)
        except DealError as err:
            raise ScenarioError(f"round {i}: {err}") from None
        deals.append(raw)
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list):
        raise ScenarioError("'steps' must be a list")
    steps: list[tuple[float, int | None, dict[str, Any]]] = []
    previous = -math.inf
    for i, step in enumerate(raw_steps, start=1):
        if not isinstance(step, dict):
            raise ScenarioError(f"step {i} is not an object")
        t = step.get("t")
        if not _number(t):
            raise ScenarioError(f"step {i}: 't' must be a number of seconds")
        assert isinstance(t, int | float)
        if t < previous:
            raise ScenarioError(f"step {i}: t={t} is earlier than the previous step")
        previous = t
        player = step.get("player")
        reason = step.get("reason", VOID_REASON)
        if step.get("do") == "void" and (type(reason) is not str or not reason):
            raise ScenarioError(f"step {i}: a void's 'reason' must be a non-empty string")
        if step.get("do") in ("tick", "void"):
            if player is not None and (type(player) is not int or player not in (0, 1)):
                raise ScenarioError(f"step {i}: unknown player {player!r}")
        elif type(player) is not int or player not in (0, 1):
            raise ScenarioError(f"step {i}: unknown player {player!r} (must be 0 or 1)")
        steps.append((float(t), player, step))
    state = new_game(
        deals=deals,
        balances=balances,
        banks=(float(banks[0]), float(banks[1])),
        same_device=same_device,
        created_at=0.0,
    )
    return state, steps


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m games.engine.scenario FILE.json", file=sys.stderr)
        return 2
    try:
        data = json.loads(Path(args[0]).read_text(encoding="utf-8"))
        out = run_scenario(data)
    except (OSError, UnicodeDecodeError, ValueError) as err:
        # ScenarioError and json.JSONDecodeError are both ValueErrors.
        message = " ".join(str(err).split())
        print(f"{args[0]}: malformed scenario: {message}", file=sys.stderr)
        return 2
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
