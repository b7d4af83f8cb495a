"""What a player's every page shows of their games ("your game"), told to their user group.

The user socket (games' part of it: games.live.user_part) joins realtime.groups.user_group:
games sends there, after the commit, one small message per player when their game is
created, starts, ends or changes turn (never per move that leaves the turn where it was),
where the rematch of a finished game stands, and a new game to go to. Whose turn it is
comes from the engine (choices_of); a view's tiles never get here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import F, Q
from django.urls import reverse

from games import engine
from games.clock import timebase
from games.engine.clock import flag_at
from games.engine.game import bank_at
from games.live.messages import UserGameEvent, UserRedirectEvent, UserRematchEvent, YourGame
from games.models import Game
from games.selectors import active_game_of
from realtime.events import send_all_on_commit, send_now
from realtime.groups import user_group


def turn_key(state_json: Mapping[str, Any]) -> tuple[Any, ...]:
    """What "your game" shows changes only when this does (read from the stored state)."""
    return tuple(
        state_json.get(key) for key in ("status", "to_act", "clock_start", "started", "continued")
    )


def human_seats(game: Game) -> list[int]:
    """The seats whose players have pages: not the computer's, none of a shared screen."""
    if game.same_device:
        return []
    return [seat for seat in (0, 1) if seat != game.bot_seat]


def your_game(game: Game, state: Any, seat: int, now: float) -> YourGame | None:
    """`game` as the player in `seat` sees it from any page; None once it is over."""
    return _summaries(game, state, now, [seat])[0]


def _summaries(game: Game, state: Any, now: float, seats: list[int]) -> list[YourGame | None]:
    """`your_game` for each of `seats`, reading what they share once: a broadcast does this
    after every change of turn, so it stays a few dozen microseconds."""
    if not game.is_active:
        return [None for _seat in seats]
    acting = [bool(engine.choices_of(state, seat)) for seat in (0, 1)]
    names, bots = game.player_names(), game.bots()
    summaries: list[YourGame | None] = []
    for seat in seats:
        running = state.to_act == seat and state.clock_start is not None
        summaries.append(
            {
                "id": game.pk,
                "opponent": names[1 - seat],
                "bot": bots.get(1 - seat),
                "status": game.status,
                "your_turn": acting[seat],
                "their_turn": acting[1 - seat],
                "bank": round(bank_at(state, seat, now), 1),
                "flag_at": timebase.to_ms(flag_at(state.banks[seat], state.clock_start))
                if running
                else None,
                "server_time": timebase.to_ms(now),
            }
        )
    return summaries


def your_game_sends(game: Game, state: Any, now: float) -> list[tuple[str, UserGameEvent]]:
    """(group, event) for each player of the game who has pages."""
    players = (game.player0_id, game.player1_id)
    seats = human_seats(game)
    return [
        (user_group(players[seat]), {"type": "user.games.game", "game": summary})
        for seat, summary in zip(seats, _summaries(game, state, now, seats), strict=True)
    ]


def broadcast_your_game(game: Game) -> None:
    """Tell the players' pages of a new game (on commit: games.services.game_create)."""
    send_now(
        lambda: your_game_sends(game, engine.from_json(game.state), timebase.server_now()),
        "your-game notice of game %s",
        game.pk,
    )


def players_redirect_on_commit(game: Game) -> None:
    """Both players' pages go to the new game, whether a challenge, the queue or an arena's
    wave made it."""
    event: UserRedirectEvent = {
        "type": "user.games.redirect",
        "url": reverse("game", kwargs={"game_id": game.pk}),
        "game": game.pk,
    }
    users = {game.player0_id, game.player1_id}
    send_all_on_commit(
        lambda: [(user_group(user_id), event) for user_id in users], "redirect to game %s", game.pk
    )


def your_game_of(user_id: int) -> tuple[Game, YourGame] | None:
    """The player's game in progress and what their pages show of it, if they have one."""
    game = active_game_of(user_id)
    if game is None:
        return None
    seat = game.seats_of(user_id)[0]
    summary = your_game(game, engine.from_json(game.state), seat, timebase.server_now())
    return None if summary is None else (game, summary)


def rematch_event(game: Game, seat: int) -> UserRematchEvent:
    """Where the rematch of finished `game` stands for the player in `seat`."""
    offered = game.rematch_offered_by
    open_to_them = offered is not None and offered != seat and game.rematch_game_id is None
    return {
        "type": "user.games.rematch",
        "game": game.pk,
        "url": reverse("game", kwargs={"game_id": game.pk}),
        "by": game.player_names()[offered] if open_to_them and offered is not None else None,
    }


def rematch_sends(game: Game) -> list[tuple[str, UserRematchEvent]]:
    players = (game.player0_id, game.player1_id)
    return [(user_group(players[seat]), rematch_event(game, seat)) for seat in human_seats(game)]


def rematch_offered_to(user_id: int) -> UserRematchEvent | None:
    """The rematch the opponent offers in the player's latest finished game, if one stands."""
    game = (
        Game.objects.select_related("player0", "player1")
        .defer("state")  # a finished game's position is not what the notice shows
        .filter(Q(player0_id=user_id) | Q(player1_id=user_id), same_device=False)
        .exclude(status__in=Game.ACTIVE_STATUSES)
        .order_by(F("finished_at").desc(nulls_last=True))
        .first()
    )
    if game is None or game.rematch_offered_by is None:
        return None
    event = rematch_event(game, game.seats_of(user_id)[0])
    return event if event["by"] is not None else None
