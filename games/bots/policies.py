"""The easy and medium bots: one look at the view, no search.

Both read what a placement would count from the view's `play_preview` or from the engine's
own board (games.engine.determinize.board_from_view), so neither knows a counting rule.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engine.actions import choices
from games.engine.board import END_INDEX, Board, lead_board
from games.engine.determinize import board_from_view, tile_ids
from games.engine.game import points_for_count
from games.engine.tiles import IS_DOUBLE, PIPS, TILE_BY_NAME, VALUE_MASK, tiles_of

from .knowledge import Knowledge, read

Action = dict[str, Any]


def decisions(view: Mapping[str, Any]) -> list[Action]:
    """The legal actions other than resigning; ValueError when the seat has none."""
    legal = choices(view.get("legal") or ())
    if not legal:
        raise ValueError("this view offers its seat nothing to decide")
    return legal


def _best(options: list[Action], score: list[float], rng: random.Random) -> Action:
    top = max(score)
    return rng.choice([a for a, s in zip(options, score, strict=True) if s >= top - 1e-9])


def _preview_points(view: Mapping[str, Any], action: Action) -> int:
    end = action.get("end", "lead")
    entry = (view.get("play_preview") or {}).get(f"{action['tile']}:{end}")
    return int(entry["points"]) if entry else 0


def easy(view: Mapping[str, Any], rng: random.Random) -> Action:
    """A legal tile, the one that scores most. In the auction it bids only the minimum, and
    only with a tile that would score as the lead; it never raises."""
    legal = decisions(view)
    if len(legal) == 1:
        return legal[0]
    kinds = {a["do"] for a in legal}
    if "bid" in kinds:
        hand = tile_ids(view["hand"])
        if any(points_for_count(lead_board(t).count) for t in hand):
            return min((a for a in legal if a["do"] == "bid"), key=lambda a: a["amount"])
        return {"do": "renounce"}
    if "accept" in kinds:
        return {"do": "accept"}
    return _best(legal, [_preview_points(view, a) for a in legal], rng)


# ----------------------------------------------------------------------------- medium


def possible_opponent_tiles(know: Knowledge) -> int:
    """Unseen tiles minus those the opponent is known to lack outright."""
    mask = know.unseen
    for lacked, room in know.limits:
        if room == 0:
            mask &= ~lacked
    return mask


def _threat(board: Board, possible: int) -> int:
    """The most the opponent could score on its reply with one of `possible`."""
    worst = 0
    for t in tiles_of(possible & board.fit_mask):
        for end in board.fitting_ends(t):
            worst = max(worst, points_for_count(board.place(t, end).count))
    return worst


def placement_score(board: Board, tile: int, hand: int, possible: int, pts: int) -> float:
    """Medium's worth of leaving `board` after placing `tile` (which scored `pts`)."""
    threat = _threat(board, possible) if possible else 0
    score = pts - 0.6 * threat
    if IS_DOUBLE[tile]:
        score += 3.0  # doubles are the hardest tiles to place later
    score += 0.15 * PIPS[tile]  # shed weight: a block pays the lighter hand
    # Keep a value the hand can follow: ends that the hand still matches are worth a little.
    rest = hand & ~(1 << tile)
    for v in board.ends:
        if v >= 0 and rest & VALUE_MASK[v]:
            score += 0.5
    return score


LEAD_BASE = -6.0  # leading is worth less than the minimum bid (tuned with bench/bots.py)


def hand_value(hand: int) -> float:
    """What leading is worth to this hand, in points: the best scoring lead, its doubles and
    its longest suit (the tiles that keep the leader playing)."""
    tiles = tiles_of(hand)
    if not tiles:
        return 0.0
    best_lead = max(points_for_count(lead_board(t).count) for t in tiles)
    doubles = sum(1 for t in tiles if IS_DOUBLE[t])
    longest = max((hand & VALUE_MASK[v]).bit_count() for v in range(7))
    return LEAD_BASE + 0.8 * best_lead + 3.0 * doubles + 3.0 * max(0, longest - 2)


def outbids(value: float, cost: int, forgone: int) -> bool:
    """Whether to bid or raise: leading (worth `value` over letting the other lead) beats
    paying `cost` if it is accepted plus `forgone`, what accepting would have earned."""
    return cost + forgone < value


def _auction(view: Mapping[str, Any], legal: list[Action], value: float) -> Action:
    auction = view["auction"]
    costs = {int(k): v for k, v in (auction.get("net_cost") or {}).items()}
    moves = [a for a in legal if a["do"] in ("bid", "raise")]
    if moves:
        cheapest = min(moves, key=lambda a: a["amount"])
        if outbids(value, costs[cheapest["amount"]], auction.get("accept_cost") or 0):
            return cheapest
    return {"do": "renounce"} if any(a["do"] == "renounce" for a in legal) else {"do": "accept"}


def medium(view: Mapping[str, Any], rng: random.Random) -> Action:
    """Greedy with simple defence: weighs its points against the opponent's best reply on
    the tiles it may hold, plays doubles early, and bids from the strength of its hand."""
    legal = decisions(view)
    if len(legal) == 1:
        return legal[0]
    know = read(view)
    if view["phase"] == "auction":
        return _auction(view, legal, hand_value(know.hand))
    possible = possible_opponent_tiles(know)
    board = board_from_view(view["board"])
    scores: list[float] = []
    for action in legal:
        tile = TILE_BY_NAME[action["tile"]]
        after = (
            lead_board(tile)
            if action["do"] == "lead"
            else board.place(tile, END_INDEX[action["end"]])
        )
        pts = points_for_count(after.count)
        scores.append(placement_score(after, tile, know.hand, possible, pts))
    return _best(legal, scores, rng)
