"""Computer players: a function from one seat's view to one legal action.

    from games.bots import STRENGTHS, choose
    action = choose(view, "hard", budget=0.5, seed=7)

`view` is exactly what `games.engine.view(state, seat, now)` gives that seat, so a bot sees
what a player sees and nothing more; the action is in the request form a client sends
(`games.engine.ACTIONS`). Pure Python and no Django, like the engine it plays through.
The same (view, strength, seed) gives the same action whenever the time budget is not what
stopped the search (see games/bots/search.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from . import policies, search

STRENGTHS: tuple[str, ...] = ("easy", "medium", "hard")


def choose(view: Mapping[str, Any], strength: str, *, budget: float, seed: int) -> dict[str, Any]:
    """The action `strength` takes in `view`, thinking for at most about `budget` seconds.

    Raises ValueError for an unknown strength or a view that offers its seat no decision.
    """
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}; one of {', '.join(STRENGTHS)}")
    rng = random.Random(f"{strength}/{seed}")
    if strength == "easy":
        return policies.easy(view, rng)
    if strength == "medium":
        return policies.medium(view, rng)
    return search.hard(view, rng, budget=budget)
