"""Games between the computer's strengths, logged as a review reads them: for the tests and
bench/review.py. Pure Python."""

from __future__ import annotations

import random
from typing import Any

from games import engine
from games.bots import choose

from .plan import Change

# A decision's thinking time in these games: the hard computer's play-outs follow from it
# (games.bots.search.PLAYOUTS_PER_SECOND), its clock never stops a search that finishes.
BUDGET = 0.05


def computer_game(
    seed: int, strengths: tuple[str, str], budget: float = BUDGET
) -> tuple[Any, list[Change]]:
    """(the game's first state, its log) for a game of `strengths[0]` against
    `strengths[1]`, one decision a second so that no clock is ever charged."""
    state = engine.new_game(rng=random.Random(f"review-game/{seed}"))
    initial = state
    changes: list[Change] = []
    now = 0.0
    while state.status in ("waiting", "playing"):
        now += 1.0
        seat = state.to_act
        if seat is None:
            for button_seat in (0, 1):
                buttons = engine.choices_of(state, button_seat)
                if buttons:
                    changes.append(Change(button_seat, buttons[0], now))
                    state, _ = engine.apply(state, button_seat, buttons[0], now)
            continue
        view = engine.view(state, seat, now)
        action = choose(view, strengths[seat], budget=budget, seed=seed * 100_003 + len(changes))
        changes.append(Change(seat, action, now))
        state, _ = engine.apply(state, seat, action, now)
    return initial, changes
