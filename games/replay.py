"""Replay a game from its log through the engine, to check it or to settle a dispute.

The log holds every change in order (players' actions and the timed transitions the
service observed, each with the exact engine time it counted at); the deals are recorded
in the engine state. With both, the engine reproduces the game exactly.
"""

from __future__ import annotations

from typing import Any

from games import engine
from games.models import Game


def _initial_state(game: Game) -> Any:
    setup = game.setup
    return engine.new_game(
        # Every deal dealt so far is recorded in the state, the shuffled ones included.
        deals=game.state["deals"],
        balances=tuple(setup.get("balances", (150, 150))),
        banks=tuple(setup.get("banks", (120.0, 120.0))),
        same_device=bool(setup.get("same_device", game.same_device)),
        created_at=float(setup["created_at"]),
    )


def game_replay(game: Game) -> Any:
    """The engine state rebuilt from `game`'s log; equal to the stored one but for the
    deal seed, which only decides deals not dealt yet (the replay has none to deal)."""
    state = _initial_state(game)
    for row in game.actions.filter(error="").order_by("seq"):
        if row.seat is None:
            state, _events = engine.advance(state, row.t)
        else:
            state, _events = engine.apply(state, row.seat, row.action, row.t)
    return state
