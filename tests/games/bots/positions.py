"""Random positions for the bot tests: games played with random legal requests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games import engine

STEP = 0.25


def positions(seed: int, count: int, every: int = 1) -> Iterator[tuple[Any, int, float]]:
    """(state, seat to act, now) at `count` decisions of random games, one in `every`."""
    rng = random.Random(seed)
    found = 0
    decision = 0
    while True:
        state = engine.new_game(rng=random.Random(rng.getrandbits(64)), created_at=0.0)
        now = 0.0
        while state.status in ("waiting", "playing"):
            now += STEP
            seat = state.to_act
            if seat is None:
                state = engine.press_ready(state, now)
                continue
            decision += 1
            if decision % every == 0:
                yield state, seat, now
                found += 1
                if found >= count:
                    return
            legal = engine.legal_actions(state, seat)[:-1]
            state, _ = engine.apply(state, seat, rng.choice(legal), now)
