"""Rated games for the fair-play tests and bench/flags.py, through the real game service."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games import engine, services
from games.models import Game, GameAction
from tests.games.factories import drive, make_game, seeded_deals


def own_decisions(game_id: int, seat: int) -> int:
    return GameAction.objects.filter(
        game_id=game_id, seat=seat, error="", action__do__in=list(engine.DECISIONS)
    ).count()


def resigned_game(winner: AbstractBaseUser, loser: AbstractBaseUser, decisions: int = 1) -> Game:
    """A rated game `loser` resigns once each seat has made at least `decisions` decisions of
    its own (1: a quick game; a real start is more): the winner holds seat 0."""
    game = make_game(winner, loser, deals=seeded_deals(11))

    def enough(view: Any) -> bool:
        return view["status"] == "finished" or (
            own_decisions(game.pk, 0) >= 1 and own_decisions(game.pk, 1) >= decisions
        )

    drive(game.pk, (winner, loser), enough)
    result = services.game_submit_action(
        game_id=game.pk, user=loser, action={"do": "resign"}, request_id=None
    )
    assert result.ok, result
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0
    assert own_decisions(game.pk, 1) >= decisions
    return game
