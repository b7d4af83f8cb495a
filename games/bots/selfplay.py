"""A game played on by choosers, for the tests and the benchmarks that need many positions."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from games import engine

Chooser = Callable[[Any, int, float], dict[str, Any]]


def play_out(
    state: Any, choose: Chooser, *, step: float
) -> Iterator[tuple[Any, int | None, float]]:
    """Each decision of the game from `state` on, one every `step` seconds: (state, seat to act,
    now) before `choose(state, seat, now)` gives the seat's action; last, the finished game
    with seat None. Both Start presses are made for the players."""
    now = 0.0
    while state.status in ("waiting", "playing"):
        now += step
        seat = state.to_act
        if seat is None:
            state = engine.press_ready(state, now)
            continue
        yield state, seat, now
        state, _ = engine.apply(state, seat, choose(state, seat, now), now)
    yield state, None, now
