"""Reads of stored reviews: a player's accuracy over their last reviewed games."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from games.models import GameReview

PROFILE_GAMES = 20  # reviewed games the profile's accuracy chart shows
CHART_WIDTH, CHART_HEIGHT = 300, 100
CHART_PAD = 6  # a point's circle (radius 3) whole at the edges, 0 or 100, first or last


def accuracy_history(*, user_id: int, limit: int = PROFILE_GAMES) -> list[dict[str, Any]]:
    """The player's accuracy in their last `limit` reviewed games, oldest first."""
    reviews = (
        GameReview.objects.filter(status=GameReview.Status.DONE)
        .filter(Q(game__player0_id=user_id) | Q(game__player1_id=user_id))
        .select_related("game")
        .order_by("-finished_at")[: limit * 2]
    )
    seen: set[int] = set()
    out: list[dict[str, Any]] = []
    for review in reviews:
        if review.game_id in seen:
            continue  # an older version's review of the same game
        seen.add(review.game_id)
        seat = 0 if review.game.player0_id == user_id else 1
        accuracy = review.accuracy0 if seat == 0 else review.accuracy1
        if accuracy is not None:
            out.append({"game": review.game_id, "accuracy": accuracy, "at": review.finished_at})
        if len(out) == limit:
            break
    return out[::-1]


def accuracy_chart(history: list[dict[str, Any]]) -> dict[str, Any] | None:
    """An SVG polyline of the history on a 0-100 scale; None without two games to join."""
    if len(history) < 2:
        return None
    step = (CHART_WIDTH - 2 * CHART_PAD) / (len(history) - 1)
    inner_height = CHART_HEIGHT - 2 * CHART_PAD
    points = [
        {
            "x": round(CHART_PAD + i * step, 1),
            "y": round(CHART_PAD + inner_height * (1 - h["accuracy"] / 100), 1),
            "accuracy": h["accuracy"],
            "game": h["game"],
        }
        for i, h in enumerate(history)
    ]
    mean = sum(h["accuracy"] for h in history) / len(history)
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "points": points,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
        "mean": round(mean, 1),
        "count": len(history),
    }
