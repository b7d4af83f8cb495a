"""Pure rules of the leavers' wait: how long, and why. No Django, no I/O.

A player's games, newest first, each either clean or left (the way the player left it:
never pressing Start while the opponent had, letting a lost game run out on the clock
while away, or sitting out an arena game). The leaves since the last run of `clean_reset`
clean games in a row count: the n-th of them costs `waits[n - 1]` minutes (the last wait
for any beyond), counted from that leave. A run of clean games forgets every leave before it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum


class Left(StrEnum):
    NO_START = "no_start"  # did not press Start while the opponent had
    RAN_OUT = "ran_out"  # let a lost game run out on the clock while away
    ARENA_SITTING = "arena_sitting"  # paused in an arena for not pressing Start


@dataclass(frozen=True, slots=True)
class Played:
    at: datetime
    left: Left | None  # None: a clean game


@dataclass(frozen=True, slots=True)
class Wait:
    until: datetime
    reason: Left
    leaves: int  # leaves counted since the last reset, this one included


def current_wait(
    newest_first: Iterable[Played], *, waits: Sequence[int], clean_reset: int
) -> Wait | None:
    """The wait the player's latest leave set, or None when no leave counts any more.

    Reads `newest_first` only as far as the last run of clean games that resets."""
    if not waits:
        return None
    leaves: list[Played] = []
    clean_run = 0
    for played in newest_first:
        if played.left is None:
            clean_run += 1
            if clean_run >= clean_reset:
                break
            continue
        clean_run = 0
        leaves.append(played)
    if not leaves:
        return None
    latest = leaves[0]
    assert latest.left is not None
    minutes = waits[min(len(leaves), len(waits)) - 1]
    return Wait(latest.at + timedelta(minutes=minutes), latest.left, len(leaves))
