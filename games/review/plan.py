"""A finished game's review from its log: which decisions to value, their values, the summary.

The log is replayed through the engine (as games.replay does); at each decision of a
reviewed seat the engine gives that seat's own view, which is all `evaluate` sees. A review
is cut into parts by decision (`parts`), each valued on its own (`evaluate_steps`, what one
worker does), and put together at the end (`summarize`). The luck of a deal or of a run of
draws is weighed with the decision where it ends (`walk`, `weigh`). Pure Python, no Django.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games import engine
from games.engine.state import DECISION_PHASES, PLAY, PLAYING

from .evaluate import Evaluation, chance_of, end_chance, evaluate, kind_of
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
class Luck:
    """Chance that came a seat's way, weighed from its own views: where it found the seat
    (`before`; for a deal, the table's chance of `dealt`, the balance and next lead the
    round was dealt with, the average deal) and where it left it (`after`; or `settled`,
    the state then, when no decision was open: a round or a game over, all of it public)."""

    kind: str  # "deal" or "draws"
    before: dict[str, Any] | None
    dealt: tuple[int, int | None] | None
    after: dict[str, Any] | None
    settled: Any


@dataclass(frozen=True)
class Point:
    step: int  # the change's number in the log, 1 first (the replay page's step)
    seat: int
    round: int
    view: dict[str, Any]
    action: dict[str, Any]
    # The deal on the seat's first decision of a round; a run of draws on its last draw.
    luck: tuple[Luck, ...] = ()


def replay(state: Any, change: Change) -> Any:
    """One logged change applied again (games.replay.log.replay_change, without the rows)."""
    if change.seat is None:
        if change.action.get("do") == "void":
            reason = change.action.get("reason") or engine.VOID_REASON
            return engine.void(state, change.t, reason)[0]
        return engine.advance(state, change.t)[0]
    return engine.apply(state, change.seat, dict(change.action), change.t)[0]


def open_view(state: Any, seat: int, t: float) -> dict[str, Any] | None:
    """`seat`'s view when a decision is open in a round in play, else None."""
    if state.status != PLAYING or state.phase not in DECISION_PHASES:
        return None
    return engine.view(state, seat, t)


def draws_on(state: Any, seat: int) -> bool:
    """Whether `seat` must draw again: nothing it drew fitted, and tiles are left (R5.2)."""
    return (
        state.status == PLAYING
        and state.phase == PLAY
        and state.to_act == seat
        and state.must_play < 0
    )


def walk(initial: Any, changes: Sequence[Change], seats: Collection[int]) -> Iterator[Point]:
    """The decisions of `seats` in order, each with the view its seat had and the luck that
    ends there: a round's deal on the seat's first decision of it, a run of draws on its
    last draw."""
    state = initial
    dealt: dict[int, Luck] = {}  # a seat's deal, until its first decision of the round
    drawing: dict[int, dict[str, Any]] = {}  # a seat's view before its run of draws
    for step, change in enumerate(changes, start=1):
        after = replay(state, change)
        seat = change.seat
        if (
            seat is not None
            and seat in seats
            and change.action.get("do") in engine.DECISIONS
            and state.to_act == seat
        ):
            view = engine.view(state, seat, change.t)
            luck = [dealt.pop(seat)] if seat in dealt else []
            if change.action["do"] == "draw":
                before = drawing.setdefault(seat, view)
                if not draws_on(after, seat):
                    del drawing[seat]
                    luck.append(
                        Luck("draws", before, None, open_view(after, seat, change.t), after)
                    )
            yield Point(
                step,
                seat,
                state.round,
                view,
                {k: change.action[k] for k in ACTION_FIELDS if k in change.action},
                tuple(luck),
            )
        if after.round != state.round:
            jockey = state.jockey if state.round else None
            dealt = {
                s: Luck(
                    "deal", None, (state.balances[s], jockey), open_view(after, s, change.t), after
                )
                for s in seats
            }
            drawing = {}
        state = after


def decision_steps(initial: Any, changes: Sequence[Change], seats: Collection[int]) -> list[int]:
    """The steps a review values: every decision of `seats`."""
    return [p.step for p in walk(initial, changes, seats)]


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
        "luck_deal": None,
        "luck_draws": None,
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
        if point.step in wanted:
            evaluation = evaluate(
                point.view, point.action, table, samples=samples, seed=f"{seed}/{point.step}"
            )
            decision = decision_json(point, evaluation, thresholds)
            for luck in point.luck:
                at = f"{seed}/{point.step}/{luck.kind}"
                decision[f"luck_{luck.kind}"] = weigh(
                    luck, point.seat, table, samples=samples, seed=at
                )
            yield decision


def weigh(luck: Luck, seat: int, table: WinTable, *, samples: int, seed: str) -> float | None:
    """The win chance `luck` gave `seat`: where it left the seat minus where it found it;
    None when a view cannot be valued (a hand not yet revealed on a shared device)."""
    try:
        if luck.after is not None:
            after = chance_of(luck.after, table, samples=samples, seed=f"{seed}/after")
        else:
            after = end_chance(luck.settled, seat, table)
        if luck.before is not None:
            before = chance_of(luck.before, table, samples=samples, seed=f"{seed}/before")
        else:
            assert luck.dealt is not None
            balance, jockey = luck.dealt
            before = table.chance(balance, situation_of(seat, jockey))
    except ValueError:
        return None
    return round(after - before, 4)


def summarize(decisions: Sequence[dict[str, Any]], seats: Collection[int]) -> dict[str, Any]:
    """The players' figures and the win-chance curve, from every valued decision.

    The curve is seat 0's chance after each graded decision.
    """
    ordered = sorted(decisions, key=lambda d: d["step"])
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
    "Luck",
    "Point",
    "decision_json",
    "decision_steps",
    "evaluate_steps",
    "kind_of",
    "parts",
    "summarize",
    "walk",
    "weigh",
]
