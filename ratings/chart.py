"""The rating-history chart as plain numbers for an inline SVG (no JavaScript, no library)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratings.elo import INITIAL_RATING

WIDTH = 600
HEIGHT = 180
PAD_X = 44  # room for the rating labels on the left
PAD_Y = 14
MIN_SPAN = 100  # a flat history still gets a readable vertical scale


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    rating: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: list[ChartPoint]
    polyline: str
    top: int  # rating at the top edge
    bottom: int  # rating at the bottom edge
    baseline_y: float  # where the initial rating (1500) lies, if inside the chart


def rating_chart(ratings: Sequence[int], *, width: int = WIDTH, height: int = HEIGHT) -> Chart:
    """Points for ``ratings`` (oldest first), preceded by the initial rating."""
    values = [INITIAL_RATING, *ratings]
    low, high = min(values), max(values)
    if high - low < MIN_SPAN:
        middle = (high + low) / 2
        low, high = round(middle - MIN_SPAN / 2), round(middle + MIN_SPAN / 2)
    span = high - low
    inner_w = width - PAD_X - PAD_Y
    inner_h = height - 2 * PAD_Y
    step = inner_w / max(1, len(values) - 1)

    def y_of(rating: float) -> float:
        return round(PAD_Y + (high - rating) / span * inner_h, 1)

    points = [
        ChartPoint(x=round(PAD_X + i * step, 1), y=y_of(r), rating=r) for i, r in enumerate(values)
    ]
    return Chart(
        width=width,
        height=height,
        points=points,
        polyline=" ".join(f"{p.x},{p.y}" for p in points),
        top=high,
        bottom=low,
        baseline_y=y_of(INITIAL_RATING),
    )
