"""Grades, accuracy and luck from valued decisions (docs/review.md says why these numbers).

Pure Python: the thresholds come in as arguments (the platform passes its settings).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

GOOD, INACCURACY, MISTAKE, BLUNDER = "good", "inaccuracy", "mistake", "blunder"
GRADES: tuple[str, ...] = (GOOD, INACCURACY, MISTAKE, BLUNDER)


@dataclass(frozen=True)
class Thresholds:
    """Least win chance lost (0..1) for each grade."""

    inaccuracy: float = 0.04
    mistake: float = 0.08
    blunder: float = 0.16

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy < self.mistake < self.blunder <= 1:
            raise ValueError("thresholds must rise: 0 < inaccuracy < mistake < blunder <= 1")


def grade(loss: float, thresholds: Thresholds) -> str:
    """The grade of a decision that lost `loss` of win chance against the best option."""
    if loss >= thresholds.blunder:
        return BLUNDER
    if loss >= thresholds.mistake:
        return MISTAKE
    if loss >= thresholds.inaccuracy:
        return INACCURACY
    return GOOD


def accuracy(losses: Iterable[float]) -> float | None:
    """0-100 from the mean win chance lost a decision; None without a graded decision.

    The curve is the one lichess fits to chess (103.1668 e^(-0.04354 L) - 3.1669, L in
    percentage points): 100 for no loss, about 80 for an average loss of 5 points.
    """
    values = list(losses)
    if not values:
        return None
    mean = 100.0 * sum(values) / len(values)
    score = 103.1668 * math.exp(-0.04354 * mean) - 3.1669
    return round(max(0.0, min(100.0, score)), 1)


def player_summary(decisions: Sequence[Mapping[str, Any]], seat: int) -> dict[str, Any]:
    """A seat's accuracy (all, tile play, auction), its grade counts and its luck.

    `decisions` are stored decisions (games.review.plan.decision_json); luck, in win
    chance, is the sum of the seat's deals' and runs of draws' entries, and each apart.
    """
    own = [d for d in decisions if d["seat"] == seat]
    graded = [d for d in own if not d["forced"]]
    counts = {g: sum(1 for d in graded if d["grade"] == g) for g in GRADES}
    deals = sum(d.get("luck_deal") or 0.0 for d in own)
    draws = sum(d.get("luck_draws") or 0.0 for d in own)
    return {
        "seat": seat,
        "decisions": len(own),
        "graded": len(graded),
        "accuracy": accuracy(d["loss"] for d in graded),
        "accuracy_tile": accuracy(d["loss"] for d in graded if d["kind"] == "tile"),
        "accuracy_auction": accuracy(d["loss"] for d in graded if d["kind"] == "auction"),
        "grades": counts,
        "luck": round(deals + draws, 4),
        "luck_deals": round(deals, 4),
        "luck_draws": round(draws, 4),
    }
