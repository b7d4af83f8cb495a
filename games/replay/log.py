"""Replay a game from its log through the engine, to check it or to settle a dispute.

The log holds every change in order (players' actions and the timed transitions the
service observed, each with the exact engine time it counted at), and every deal dealt, in
its "deal" event; the deals given up front and not dealt yet are in the engine state. With
both, the engine reproduces the game exactly.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games import engine
from games.models import Game, GameAction


def game_deals(game: Game) -> list[dict[str, Any]]:
    """Every deal of the game so far, the shuffled ones included, then those still to come."""
    dealt = [
        {"hands": event["hands"], "boneyard": event["boneyard"]}
        for row in game_changes(game)
        for event in row.events
        if event.get("type") == "deal"
    ]
    upcoming = engine.to_json(engine.from_json(game.state))["deals"]
    return dealt + upcoming


def game_initial_state(game: Game) -> Any:
    """The engine state the game began in, from its setup and its deals."""
    setup = game.setup
    return engine.new_game(
        deals=game_deals(game),
        balances=tuple(setup.get("balances", (150, 150))),
        banks=tuple(setup.get("banks", (120.0, 120.0))),
        same_device=bool(setup.get("same_device", game.same_device)),
        created_at=float(setup["created_at"]),
    )


def game_changes(game: Game) -> QuerySet[GameAction]:
    """The log rows that changed the game, in order (refused requests are logged too)."""
    return game.actions.filter(error="").order_by("seq")


def game_events(game_id: int, *, after_version: int | None = None) -> list[dict[str, Any]]:
    """Every event the game's changes produced, in order: what its game log is built from.

    `after_version`: only those of the changes after it (what a socket that was sent that
    version has not heard of).

    Unfiltered: hidden tiles are in there (deals, draws), so it goes to a client only
    through engine.events_for (games.live.broadcast.state_message's `log` and `events`).
    """
    rows = GameAction.objects.filter(game_id=game_id, error="").order_by("seq")
    if after_version is not None:
        rows = rows.filter(version__gt=after_version)
    return [event for events in rows.values_list("events", flat=True) for event in events]


def replay_change(state: Any, row: GameAction) -> tuple[Any, list[dict[str, Any]]]:
    """One logged change applied again: a void or a timed transition (both seatless), or a
    player's action."""
    if row.seat is None:
        if row.action.get("do") == "void":
            return engine.void(state, row.t, row.action.get("reason") or engine.VOID_REASON)
        return engine.advance(state, row.t)
    return engine.apply(state, row.seat, row.action, row.t)


def game_replay(game: Game) -> Any:
    """The engine state rebuilt from `game`'s log; equal to the stored one but for the
    deal seed, which only decides deals not dealt yet (the replay has none to deal)."""
    state = game_initial_state(game)
    for row in game_changes(game):
        state, _events = replay_change(state, row)
    return state
