"""What one seat knows about the tiles it cannot see, read from its view alone.

The unseen tiles are the 28 minus the seat's hand and the table; the opponent holds
`hand_count` of them and the boneyard the rest. The view's trail says more: a player who
drew or passed held nothing matching the ends then showing, and a round opened by the
automatic lead (R2.2) shows that the other player held nothing ranked above that tile.
Tiles drawn later may match again, so each fact bounds how many matching tiles the opponent
can hold now: at most the tiles it drew and kept after it learned nothing more.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.determinize import Position, tile_ids
from games.engine.tiles import BIT, RANK_ORDER, VALUE_MASK, tiles_of


@dataclass(frozen=True)
class Knowledge:
    seat: int
    hand: int  # mask of the seat's own tiles
    unseen: int  # mask of the tiles in the opponent's hand or the boneyard
    opponent_count: int
    boneyard_count: int
    # (tiles the opponent is known to have lacked, how many of them it may hold now)
    limits: tuple[tuple[int, int], ...]


def _values_mask(values: list[int]) -> int:
    mask = 0
    for v in values:
        mask |= VALUE_MASK[v]
    return mask


def read(view: Mapping[str, Any], position: Position | None = None) -> Knowledge:
    """What `view`'s seat knows (`position`: the same view, already read by the engine)."""
    pos = position if position is not None else Position(view)
    seat = pos.seat
    other = 1 - seat
    unseen = pos.unseen
    trail = view.get("trail") or []
    # Which of the opponent's draws it kept: a drawn tile that fits is played at once (R5.2).
    lacks: list[tuple[int, int]] = []  # (mask of tiles it lacked, index of the entry)
    kept_at: list[int] = []
    for i, entry in enumerate(trail):
        if entry["player"] != other:
            continue
        do = entry["do"]
        if do in ("draw", "pass"):
            lacks.append((_values_mask(entry["ends"]), i))
        if do == "draw":
            following = trail[i + 1] if i + 1 < len(trail) else None
            played_it = (
                following is not None and following["player"] == other and following["do"] == "play"
            )
            if not played_it:
                kept_at.append(i)
    limits = [(mask & unseen, sum(1 for k in kept_at if k > i)) for mask, i in lacks]
    if trail and trail[0]["do"] == "lead" and trail[0].get("auto") and trail[0]["player"] == seat:
        # R2.2: the opponent's dealt hand held no tile ranked above the one that led.
        led = BIT[tile_ids([trail[0]["tile"]])[0]]
        above = 0
        for t in RANK_ORDER:
            if BIT[t] == led:
                break
            above |= BIT[t]
        limits.append((above & unseen, len(kept_at)))
    return Knowledge(
        seat=seat,
        hand=pos.own,
        unseen=unseen,
        opponent_count=pos.other_count,
        boneyard_count=pos.boneyard_count,
        limits=tuple((m, n) for m, n in limits if m),
    )


def sample(know: Knowledge, rng: random.Random) -> tuple[list[int], list[int]]:
    """One deal of the unseen tiles: (opponent's hand, boneyard in draw order).

    Tiles are taken in random order and given to the opponent while every limit allows,
    so each sample is consistent with what the seat saw. When the limits cannot all be met
    (they are bounds, not an exact model), the last ones are dropped rather than fail.
    """
    pool = list(tiles_of(know.unseen))
    limits = list(know.limits)
    while True:
        rng.shuffle(pool)
        room = [n for _m, n in limits]
        hand: list[int] = []
        rest: list[int] = []
        for t in pool:
            if len(hand) < know.opponent_count:
                bit = BIT[t]
                fits = all(room[k] > 0 for k, (m, _n) in enumerate(limits) if m & bit)
                if fits:
                    for k, (m, _n) in enumerate(limits):
                        if m & bit:
                            room[k] -= 1
                    hand.append(t)
                    continue
            rest.append(t)
        if len(hand) == know.opponent_count:
            return hand, rest
        if not limits:
            raise ValueError("the view shows fewer unseen tiles than the opponent holds")
        limits.pop()
