"""Grades by lost win chance, and the accuracy figure."""

from __future__ import annotations

from typing import Any

import pytest

from games.review.grades import (
    BLUNDER,
    GOOD,
    INACCURACY,
    MISTAKE,
    Thresholds,
    accuracy,
    grade,
    player_summary,
)


def test_grades_follow_the_thresholds() -> None:
    t = Thresholds(inaccuracy=0.04, mistake=0.08, blunder=0.16)
    assert grade(0.0, t) == GOOD
    assert grade(0.0399, t) == GOOD
    assert grade(0.04, t) == INACCURACY
    assert grade(0.08, t) == MISTAKE
    assert grade(0.159, t) == MISTAKE
    assert grade(0.16, t) == BLUNDER
    assert grade(1.0, t) == BLUNDER


@pytest.mark.parametrize("values", [(0.0, 0.1, 0.2), (0.05, 0.05, 0.2), (0.05, 0.2, 1.5)])
def test_thresholds_must_rise(values: tuple[float, float, float]) -> None:
    with pytest.raises(ValueError):
        Thresholds(*values)


def test_accuracy_is_100_without_loss_and_falls_with_the_average_loss() -> None:
    assert accuracy([]) is None
    assert accuracy([0.0, 0.0]) == 100.0
    scores = [accuracy([loss]) or 0.0 for loss in (0.0, 0.01, 0.05, 0.1, 0.3, 1.0)]
    assert scores == sorted(scores, reverse=True)
    assert 75 < accuracy([0.05]) < 85  # type: ignore[operator]
    assert accuracy([1.0]) == 0.0
    # An average: one blunder among many good decisions costs less than all blunders.
    assert accuracy([0.2] + [0.0] * 9) > accuracy([0.2] * 10)  # type: ignore[operator]


def _decision(
    seat: int,
    kind: str,
    loss: float,
    forced: bool = False,
    deal: float | None = None,
    draws: float | None = None,
) -> dict[str, Any]:
    return {
        "seat": seat,
        "kind": kind,
        "loss": loss,
        "forced": forced,
        "grade": None if forced else grade(loss, Thresholds()),
        "luck_deal": deal,
        "luck_draws": draws,
    }


def test_a_players_summary_splits_tile_play_and_auction_and_skips_forced_decisions() -> None:
    decisions = [
        _decision(0, "tile", 0.0, deal=0.05),
        _decision(0, "tile", 0.2),
        _decision(0, "auction", 0.0, deal=-0.02),
        _decision(0, "tile", 0.9, forced=True, draws=0.07),
        _decision(0, "tile", 0.0, draws=-0.01),
        _decision(1, "tile", 0.1),
    ]
    summary = player_summary(decisions, 0)
    assert summary["decisions"] == 5
    assert summary["graded"] == 4
    assert summary["accuracy_tile"] == accuracy([0.0, 0.2, 0.0])
    assert summary["accuracy_auction"] == 100.0
    assert summary["accuracy"] == accuracy([0.0, 0.2, 0.0, 0.0])
    assert summary["grades"] == {"good": 3, "inaccuracy": 0, "mistake": 0, "blunder": 1}
    # A forced draw is not graded, yet what it brought counts.
    assert summary["luck_deals"] == pytest.approx(0.03)
    assert summary["luck_draws"] == pytest.approx(0.06)
    assert summary["luck"] == pytest.approx(0.09)
