"""A finished game's review from its log: which decisions to value, their values, the summary.

The log is replayed through the engine (as games.replay does); at each decision of a
reviewed seat the engine gives that seat's own view, which is all `evaluate` sees. A review
is cut into parts by decision (`parts`), each valued on its own (`evaluate_steps`, what one
worker does), and put together at the end (`summarize`). Pure Python, no Django.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games import engine

from .evaluate import Evaluation, evaluate, kind_of
from .grades import Thresholds, grade, player_summary
from .table import WinTable, situation_of

ACTION_FIELDS = ("do", "tile", "end", "amount")


@dataclass(frozen=True)
class Change:
    """One row of a game's log that changed it: a seat's action, or a seatless transition."""

    seat: int | None
    action: Mapping[str, Any]
    t: float


@dataclass(frozen=True)
class Point:
    step: int  # the change's number in the log, 1 first (the replay page's step)
    seat: int
    round: int
    view: dict[str, Any]
    action: dict[str, Any]


def replay(state: Any, change: Change) -> Any:
    """One logged change applied again (games.replay.log.replay_change, without the rows)."""
    if change.seat is None:
        if change.action.get("do") == "void":
            reason = change.action.get("reason") or engine.VOID_REASON
            return engine.void(state, change.t, reason)[0]
        return engine.advance(state, change.t)[0]
    return engine.apply(state, change.seat, dict(change.action), change.t)[0]


def walk(
    initial: Any, changes: Sequence[Change], seats: Collection[int]
) -> Iterator[Point | tuple[int, tuple[int, int], int | None]]:
    """The decisions of `seats` in order, each with the view its seat had; and, when a round
    is dealt, (round, balances, jockey) as they stood before the deal."""
    state = initial
    for step, change in enumerate(changes, start=1):
        if (
            change.seat in seats
            and change.action.get("do") in engine.DECISIONS
            and state.to_act == change.seat
        ):
            assert change.seat is not None
            yield Point(
                step,
                change.seat,
                state.round,
                engine.view(state, change.seat, change.t),
                {k: change.action[k] for k in ACTION_FIELDS if k in change.action},
            )
        before = state
        state = replay(state, change)
        if state.round != before.round:
            jockey = before.jockey if before.round else None
            yield state.round, before.balances, jockey


def decision_steps(initial: Any, changes: Sequence[Change], seats: Collection[int]) -> list[int]:
    """The steps a review values: every decision of `seats`."""
    return [p.step for p in walk(initial, changes, seats) if isinstance(p, Point)]


def rounds(initial: Any, changes: Sequence[Change]) -> dict[str, dict[str, Any]]:
    """Each round's balances and jockey as it was dealt, by round number (JSON keys)."""
    return {
        str(item[0]): {"balances": list(item[1]), "jockey": item[2]}
        for item in walk(initial, changes, ())
        if not isinstance(item, Point)
    }


def parts(steps: Sequence[int], size: int) -> list[list[int]]:
    """The steps cut into parts of at most `size` decisions, for workers to value at once."""
    return [list(steps[i : i + size]) for i in range(0, len(steps), size)]


def decision_json(point: Point, evaluation: Evaluation, thresholds: Thresholds) -> dict[str, Any]:
    """A valued decision as a review stores it (chances 0..1, points per round)."""
    forced = evaluation.forced
    return {
        "step": point.step,
        "seat": point.seat,
        "round": point.round,
        "kind": evaluation.kind,
        "forced": forced,
        "played": point.action,
        "options": (
            []
            if forced
            else [
                {"action": o.action, "chance": round(o.chance, 4), "points": round(o.points, 2)}
                for o in evaluation.options
            ]
        ),
        "chosen": evaluation.chosen,
        "chance": None if forced else round(evaluation.options[evaluation.chosen].chance, 4),
        "best_chance": None if forced else round(evaluation.best.chance, 4),
        "loss": 0.0 if forced else round(evaluation.loss, 4),
        "points_lost": 0.0 if forced else round(evaluation.points_lost, 2),
        "spread": round(evaluation.spread, 4),
        "grade": None if forced else grade(evaluation.loss, thresholds),
    }


def evaluate_steps(
    initial: Any,
    changes: Sequence[Change],
    steps: Collection[int],
    table: WinTable,
    thresholds: Thresholds,
    *,
    samples: int,
    seed: str,
) -> Iterator[dict[str, Any]]:
    """The decisions at `steps` valued, in order (one part of a review)."""
    wanted = set(steps)
    seats = {0, 1}
    for point in walk(initial, changes, seats):
        if isinstance(point, Point) and point.step in wanted:
            evaluation = evaluate(
                point.view, point.action, table, samples=samples, seed=f"{seed}/{point.step}"
            )
            yield decision_json(point, evaluation, thresholds)


def summarize(
    decisions: Sequence[dict[str, Any]],
    round_starts: Mapping[str, Mapping[str, Any]],
    table: WinTable,
    seats: Collection[int],
) -> dict[str, Any]:
    """The players' figures and the win-chance curve, from every valued decision.

    Luck: at a seat's first graded decision of a round, its best option's chance (what its
    own tiles made of the round) minus the table's chance as the round was dealt (the
    average deal). The curve is seat 0's chance after each graded decision.
    """
    ordered = sorted(decisions, key=lambda d: d["step"])
    seen: set[tuple[int, int]] = set()
    for d in ordered:
        d["luck"] = None
        key = (d["seat"], d["round"])
        start = round_starts.get(str(d["round"]))
        if d["forced"] or key in seen or start is None:
            continue
        seen.add(key)
        balance = start["balances"][d["seat"]]
        average = table.chance(balance, situation_of(d["seat"], start["jockey"]))
        d["luck"] = round(d["best_chance"] - average, 4)
    curve = [
        [d["step"], d["chance"] if d["seat"] == 0 else round(1 - d["chance"], 4)]
        for d in ordered
        if not d["forced"] and d["chance"] is not None and not math.isnan(d["chance"])
    ]
    return {
        "players": [player_summary(ordered, seat) for seat in sorted(seats)],
        "curve": curve,
        "decisions": ordered,
    }


__all__ = [
    "Change",
    "Point",
    "decision_json",
    "decision_steps",
    "evaluate_steps",
    "kind_of",
    "parts",
    "rounds",
    "summarize",
    "walk",
]
