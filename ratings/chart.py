"""The rating-history chart as plain numbers for an inline SVG (no JavaScript, no library)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ratings.elo import INITIAL_RATING

WIDTH = 600
HEIGHT = 240
PAD_X = 14  # the scale's labels are text beside the drawing (_rating_chart.html)
PAD_Y = 14
MIN_SPAN = 100  # a flat history still gets a readable vertical scale


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    rating: int
    date: datetime | None = None  # when the rating was reached (none for the initial one)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: list[ChartPoint]
    polyline: str
    top: int  # rating at the top edge
    bottom: int  # rating at the bottom edge
    baseline_y: float  # where the initial rating (1500) lies, if inside the chart
    first_date: datetime | None = None  # the first rated game's, under the chart's left end
    last_date: datetime | None = None  # the last one's, under its right end


def rating_chart(
    ratings: Sequence[int],
    *,
    dates: Sequence[datetime] | None = None,
    width: int = WIDTH,
    height: int = HEIGHT,
) -> Chart:
    """Points for ``ratings`` (oldest first), preceded by the initial rating; ``dates``, one
    per rating, say when each was reached."""
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

    when: list[datetime | None] = [None, *(dates or [])]
    when += [None] * (len(values) - len(when))
    points = [
        ChartPoint(x=round(PAD_X + i * step, 1), y=y_of(r), rating=r, date=when[i])
        for i, r in enumerate(values)
    ]
    return Chart(
        width=width,
        height=height,
        points=points,
        polyline=" ".join(f"{p.x},{p.y}" for p in points),
        top=high,
        bottom=low,
        baseline_y=y_of(INITIAL_RATING),
        first_date=dates[0] if dates else None,
        last_date=dates[-1] if dates else None,
    )
