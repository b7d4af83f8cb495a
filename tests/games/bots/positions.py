"""Random positions for the bot tests: games played with random legal requests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games import engine
from games.bots.selfplay import play_out

STEP = 0.25


def positions(seed: int, count: int, every: int = 1) -> Iterator[tuple[Any, int, float]]:
    """(state, seat to act, now) at `count` decisions of random games, one in `every`."""
    rng = random.Random(seed)

    def random_request(state: Any, seat: int, now: float) -> dict[str, Any]:
        return rng.choice(engine.choices_of(state, seat))

    found = 0
    decision = 0
    while True:
        state = engine.new_game(rng=random.Random(rng.getrandbits(64)), created_at=0.0)
        for position in play_out(state, random_request, step=STEP):
            state, seat, now = position
            if seat is None:
                break
            decision += 1
            if decision % every == 0:
                yield state, seat, now
                found += 1
                if found >= count:
                    return
