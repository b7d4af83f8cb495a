"""Reads of games that pages list: the games in progress anyone signed in may watch, and
the game a player is in."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Count, F, Q, QuerySet

from games import engine
from games.models import Game, GameAction

LIVE_GAMES_SHOWN = 50


def _two_player_games_of(user_ids: Collection[int]) -> QuerySet[Game]:
    """The two-player games these users are playing or about to start.

    One at a time: every way into a new game (the queue, a challenge, the computer) sends a
    player who has one to it instead. A same-device game is not counted: nobody waits on it.
    """
    return Game.objects.filter(status__in=Game.ACTIVE_STATUSES, same_device=False).filter(
        Q(player0_id__in=user_ids) | Q(player1_id__in=user_ids)
    )


def active_game_id(user_id: int) -> int | None:
    """The two-player game this user is in, if any (see _two_player_games_of)."""
    return _two_player_games_of([user_id]).values_list("pk", flat=True).first()


def active_game_of(user_id: int) -> Game | None:
    """The two-player game this user is in, with both players' accounts, if any."""
    return _two_player_games_of([user_id]).select_related("player0", "player1").first()


def players_in_games(user_ids: Collection[int]) -> set[int]:
    """Which of these users are in a two-player game (see _two_player_games_of), in one read."""
    pairs = _two_player_games_of(user_ids).values_list("player0_id", "player1_id")
    return {player for pair in pairs for player in pair} & set(user_ids)


def decisions_by_seat(game_id: int) -> tuple[int, int]:
    """How many decisions of their own each seat made in the game, from its log.

    A decision is one of engine.DECISIONS accepted from that seat: not Start, Continue,
    Reveal or Resign, and not an automatic action (logged inside a transition, seatless).
    """
    counts = dict(
        GameAction.objects.filter(
            game_id=game_id, error="", seat__isnull=False, action__do__in=list(engine.DECISIONS)
        )
        .order_by()
        .values("seat")
        .annotate(made=Count("pk"))
        .values_list("seat", "made")
    )
    return counts.get(0, 0), counts.get(1, 0)


@dataclass(frozen=True)
class LiveGame:
    """What a list of games in progress shows: public facts only, never a tile."""

    pk: int
    players: tuple[str, str]  # what the game page calls each seat (games.models.seat_name)
    # None where ratings mean nothing: a same-device game (one account, two names) and a
    # game against the computer (neither rated).
    ratings: tuple[str, str] | None
    playing: bool  # False while the players have not both pressed Start
    round: int
    balances: tuple[int, int]
    started_at: datetime | None
    same_device: bool
    mine: bool  # the viewer plays in it: the link opens their seat, not a spectator's view


def live_game_rows(*, limit: int = LIVE_GAMES_SHOWN) -> list[Game]:
    """The games a live list shows, most recently started first, read once for every
    viewer and language (`live_game`)."""
    return list(
        Game.objects.filter(status__in=Game.ACTIVE_STATUSES)
        .select_related("player0", "player1")
        .order_by(F("started_at").desc(nulls_last=True), "-created_at")[:limit]
    )


def live_game(game: Game, *, viewer_id: int | None) -> LiveGame:
    """What a live list shows of `game`, its seats named in the active language."""
    # The round and the balances are public (every view shows them); the stored state is
    # read for them only, so that a list costs no engine call per game.
    state = game.state
    snapshot = game.players_snapshot
    return LiveGame(
        pk=game.pk,
        players=(game.seat_name(0), game.seat_name(1)),
        ratings=None
        if game.same_device or game.against_computer
        else (str(snapshot[0]["rating_label"]), str(snapshot[1]["rating_label"])),
        playing=game.status == Game.Status.PLAYING,
        round=int(state.get("round", 0)),
        balances=(int(state["balances"][0]), int(state["balances"][1])),
        started_at=game.started_at,
        same_device=game.same_device,
        mine=viewer_id is not None and viewer_id in (game.player0_id, game.player1_id),
    )


def live_games(*, viewer: User | None, limit: int = LIVE_GAMES_SHOWN) -> list[LiveGame]:
    """Games waiting for their start or being played, the most recently started first."""
    viewer_id = getattr(viewer, "pk", None)
    return [live_game(game, viewer_id=viewer_id) for game in live_game_rows(limit=limit)]
