"""Pure pairing logic for the "Play now" queue: no Django, no I/O, no clock.

The widening rule
-----------------
A player who has waited ``w`` seconds accepts an opponent whose rating differs from theirs
by at most::

    accepted_range(w) = 100 + 50 * floor(w / 5)

(±100 at once, 50 more every 5 s, without limit), and a pair is made only when **both**
players accept each other: ``|r_a - r_b| <= min(range_a, range_b)``.

Why these numbers and this form:

* ±100 at once: a 100-point gap means an expected score of 0.36/0.64, a game either player
  can win, so two such players are paired without making anyone wait.
* +50 every 5 s: in steps (not continuously) so that the range a player is shown over the
  lobby socket is a round number that changes at a predictable moment. A 400-point gap —
  beyond which Elo treats every gap alike (``ratings.elo.MAX_RATING_DIFFERENCE``) — is
  reached after 30 s, so even two lone players of very different strength get a game
  within half a minute; there is no cap, so nobody waits forever while someone is queued.
* Mutual (``min``): a player just arriving has not agreed to a lopsided game merely
  because someone else has waited a long time; symmetry also means the outcome does not
  depend on which of the two the pairing pass looks at first.

Among acceptable pairs the closest ratings go first (then the longer wait, then the
earlier arrival), chosen greedily, so each pass pairs everyone it can with their
nearest available opponent and never uses a player twice.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

INITIAL_RANGE = 100
RANGE_STEP = 50
STEP_SECONDS = 5.0


def accepted_range(waited_seconds: float) -> int:
    """Largest rating difference a player who has waited this long accepts."""
    steps = math.floor(max(0.0, waited_seconds) / STEP_SECONDS)
    return INITIAL_RANGE + RANGE_STEP * steps


@dataclass(frozen=True, slots=True)
class Waiting:
    """A queued player: ``joined_at`` and ``now`` share one time axis (epoch seconds)."""

    user_id: int
    rating: int
    joined_at: float

    def range_at(self, now: float) -> int:
        return accepted_range(now - self.joined_at)


def acceptable(a: Waiting, b: Waiting, now: float) -> bool:
    if a.user_id == b.user_id:
        return False
    return abs(a.rating - b.rating) <= min(a.range_at(now), b.range_at(now))


def find_pairs(waiting: Iterable[Waiting], now: float) -> list[tuple[Waiting, Waiting]]:
    """Disjoint pairs to make now; within a pair the earlier arrival comes first.

    A user id that appears more than once (it cannot, with the queue's unique constraint,
    but this function does not rely on it) is considered once.
    """
    players: dict[int, Waiting] = {}
    for entry in waiting:
        players.setdefault(entry.user_id, entry)
    queue: Sequence[Waiting] = sorted(players.values(), key=lambda w: (w.joined_at, w.user_id))
    candidates: list[tuple[int, float, float, int, int]] = []
    for i, a in enumerate(queue):
        for j in range(i + 1, len(queue)):
            b = queue[j]
            if acceptable(a, b, now):
                # a arrived first: sort by gap, then by the pair's longest wait, then by
                # the second player's arrival, then by position for full determinism.
                candidates.append((abs(a.rating - b.rating), a.joined_at, b.joined_at, i, j))
    candidates.sort()
    used: set[int] = set()
    pairs: list[tuple[Waiting, Waiting]] = []
    for _gap, _ja, _jb, i, j in candidates:
        if i in used or j in used:
            continue
        used.update((i, j))
        pairs.append((queue[i], queue[j]))
    return pairs
