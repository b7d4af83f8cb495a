"""Deterministic games for tests: fixed deals, and a policy that picks legal actions."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games import engine, services
from games.clock import timebase
from games.engine.deals import written_deal
from games.models import ActiveSeat, Game

ALL_TILES = [f"{high}-{low}" for high in range(7) for low in range(high + 1)]

# Seat 0 holds every six and leads 6-6 by rank (R2.2); seat 1 has no six, and no tile of the
# boneyard is a six: seat 1 must draw all 14 tiles (R5.2) and then pass (R5.3). Lots of hidden
# tiles moving about, which is what the secrecy tests want.
SIXES_DEAL = written_deal(
    "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
    "5-5 5-4 5-3 5-2 5-1 5-0 4-4",
    "0-0 1-0 1-1 2-0 2-1 2-2 3-0 3-1 3-2 3-3 4-0 4-1 4-2 4-3",
)

# Scenario 04's deal: seat 0 leads 5-5 by rank and scores 10; seat 1 then holds 5-0, which
# fits both main arms of the spinner (end_required), and may not draw (cannot_draw).
SPINNER_DEAL = written_deal(
    "5-5 1-0 2-1 3-2 4-0 6-4 6-0",
    "5-0 3-3 1-1 4-2 4-3 3-1 6-2",
    "0-0 2-2 4-4 6-6 2-0 3-0 4-1 5-1 6-1 5-2 5-3 6-3 5-4 6-5",
)


def seeded_deals(seed: int, rounds: int = 40) -> list[dict[str, Any]]:
    """`rounds` shuffled deals, the same for the same seed."""
    rng = random.Random(seed)
    deals = []
    for _ in range(rounds):
        tiles = ALL_TILES[:]
        rng.shuffle(tiles)
        deals.append({"hands": [tiles[:7], tiles[7:14]], "boneyard": tiles[14:]})
    return deals


def make_game(
    player0: AbstractBaseUser,
    player1: AbstractBaseUser,
    *,
    deals: list[dict[str, Any]] | None = None,
    balances: tuple[int, int] | None = None,
    banks: tuple[float, float] | None = None,
    same_device: bool = False,
    created_at: float | None = None,
) -> Game:
    """A game through the real service, with fixed deals (default: SPINNER_DEAL then shuffles).

    The players' seats are freed first: the clock, fault and socket tests play several games
    of the same players at once, as data from before the one-game rule may hold (the rule
    itself: test_one_active_game.py).
    """
    ActiveSeat.objects.filter(user__in=[player0, player1]).delete()
    return services.game_create(
        player0=player0,
        player1=player1,
        rated=not same_device,
        same_device=same_device,
        deals=deals if deals is not None else [SPINNER_DEAL, *seeded_deals(4)],
        balances=balances,
        banks=banks,
        created_at=created_at,
    )


# A policy that ends games: play before anything else, bid the minimum, never resign.
PREFERENCE = ["play", "lead", "draw", "start", "continue", "reveal", "accept", "bid", "renounce"]


def choose(legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    for do in PREFERENCE:
        for action in legal:
            if action["do"] == do:
                return action
    return None


def hidden_tiles(state_json: dict[str, Any], seat: int | None) -> set[str]:
    """Tiles `seat` (None: a spectator) must not see now: the other hands and the boneyard."""
    hidden = set(state_json["boneyard"][state_json["drawn"] :])
    for other in (0, 1):
        if other != seat:
            hidden |= set(state_json["hands"][other])
    return hidden


def drive(game_id: int, users: tuple[AbstractBaseUser, AbstractBaseUser], until: Any) -> Game:
    """Play through the service with `choose` until `until(view)` holds for the public view."""
    for _ in range(2000):
        game = Game.objects.get(pk=game_id)
        state = engine.from_json(game.state)
        public = engine.view(state, None, 0.0)
        if until(public):
            return game
        for seat in (0, 1):
            action = choose(engine.legal_actions(state, seat))
            if action is not None:
                break
        else:
            raise AssertionError(f"nobody can act: {public['status']} {public['phase']}")
        result = services.game_submit_action(
            game_id=game_id, user=users[seat], action=action, request_id=None
        )
        assert result.ok, (action, result)
    raise AssertionError("the game did not reach the wanted point")


# With these balances and seeded_deals(7), `choose` ends the game within a few dozen
# actions, both seats having played tiles: seat 0 wins with 10 each, seat 1 with 20.
BALANCES_FOR_WINNER = {0: (10, 10), 1: (20, 20)}


def played_game(p0: AbstractBaseUser, p1: AbstractBaseUser, winner: int = 0) -> Game:
    """A rated game of p0 and p1 played to its end through the service, `winner`'s seat won."""
    game = make_game(p0, p1, balances=BALANCES_FOR_WINNER[winner], deals=seeded_deals(7))
    game = drive(game.pk, (p0, p1), lambda view: view["status"] == "finished")
    assert game.winner_seat == winner
    return game


def started_in_the_past(player0: Any, player1: Any, seconds_ago: float, **options: Any) -> Game:
    """A game whose first decision began `seconds_ago`, so its flag falls soon."""
    real = timebase.server_now
    timebase.server_now = lambda: real() - seconds_ago  # type: ignore[assignment]
    try:
        game = make_game(player0, player1, **options)
        for user in (player0, player1):
            result = services.game_submit_action(
                game_id=game.pk, user=user, action={"do": "start"}, request_id=None
            )
            assert result.ok
    finally:
        timebase.server_now = real  # type: ignore[assignment]
    game.refresh_from_db()
    return game
