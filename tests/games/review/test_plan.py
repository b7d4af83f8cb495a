"""A game's review from its log: the decisions valued, the parts, the summary."""

from __future__ import annotations

from functools import cache
from typing import Any

from games import engine
from games.review.grades import Thresholds
from games.review.plan import (
    Point,
    decision_steps,
    evaluate_steps,
    parts,
    rounds,
    summarize,
    walk,
)
from games.review.selfplay import computer_game
from games.review.table import shipped


@cache
def _game() -> tuple[Any, tuple[Any, ...]]:
    initial, changes = computer_game(12, ("easy", "medium"))
    return initial, tuple(changes)


def test_only_the_reviewed_seats_decisions_are_valued() -> None:
    initial, changes = _game()
    both = decision_steps(initial, changes, (0, 1))
    one = decision_steps(initial, changes, (1,))
    assert set(one) < set(both)
    for step in both:
        change = changes[step - 1]
        assert change.action["do"] in engine.DECISIONS
    assert all(changes[s - 1].seat == 1 for s in one)
    # Start and Continue presses are no decisions.
    assert len(both) < len(changes)


def test_parts_cover_every_step_once() -> None:
    steps = list(range(1, 24))
    cut = parts(steps, 5)
    assert [len(p) for p in cut] == [5, 5, 5, 5, 3]
    assert [s for part in cut for s in part] == steps


def test_parts_valued_apart_equal_the_whole() -> None:
    initial, changes = _game()
    steps = decision_steps(initial, changes, (0,))[:12]
    whole = list(
        evaluate_steps(initial, changes, steps, shipped(), Thresholds(), samples=6, seed="p")
    )
    pieces = [
        d
        for part in parts(steps, 5)
        for d in evaluate_steps(
            initial, changes, part, shipped(), Thresholds(), samples=6, seed="p"
        )
    ]
    assert whole == pieces
    assert [d["step"] for d in whole] == steps


def test_the_summary_gives_each_player_figures_a_curve_and_luck_once_a_round() -> None:
    initial, changes = _game()
    steps = decision_steps(initial, changes, (0, 1))[:60]
    decisions = list(
        evaluate_steps(initial, changes, steps, shipped(), Thresholds(), samples=6, seed="q")
    )
    starts = rounds(initial, changes)
    assert starts["1"] == {"balances": [150, 150], "jockey": None}
    summary = summarize(decisions, starts, shipped(), (0, 1))
    assert [p["seat"] for p in summary["players"]] == [0, 1]
    graded = [d for d in decisions if not d["forced"]]
    assert len(summary["curve"]) == len(graded)
    for (step, chance), d in zip(summary["curve"], graded, strict=True):
        assert step == d["step"]
        assert chance == (d["chance"] if d["seat"] == 0 else round(1 - d["chance"], 4))
    lucky = [(d["seat"], d["round"]) for d in summary["decisions"] if d["luck"] is not None]
    assert len(lucky) == len(set(lucky)) > 0
    for p in summary["players"]:
        assert p["graded"] == sum(1 for d in graded if d["seat"] == p["seat"])


def test_each_view_is_the_deciders_own() -> None:
    initial, changes = _game()
    for point in walk(initial, changes, (0,)):
        if isinstance(point, Point):
            assert point.view["seat"] == 0
            assert point.view["to_act"] == 0
            assert point.view["hand"] is not None
