"""The computer's games and moves.

A move: the computer seat's view, built by the engine exactly as that seat's page gets
it (so the bot sees what a player in that chair would see, nothing more), goes to the bot
(games.bots.choose); its answer goes through the same door as any player's
(games.services.game_submit_action), with a request id and the version it was decided
on. Running twice, or late, changes nothing: the second run finds its request id, or a
game that has moved on.
"""

from __future__ import annotations

import hashlib
import logging
import random
import secrets
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import engine, services
from games.bots import choose
from games.clock import timebase
from games.computer.accounts import AGAINST_COMPUTER, READY_ACTIONS, bot_account, seats_to_act
from games.errors import ServiceError
from games.models import Game, default_players_snapshot

logger = logging.getLogger(__name__)

# The computer answers within this many seconds of its turn starting, far
# inside the 10 s delay, so its bank never runs while the worker is healthy.
ANSWER_SECONDS = 2.0
# Kept free at the end of those 2 s for the submission itself (one locked transaction).
SUBMIT_MARGIN = 0.3
MIN_BUDGET = 0.01


def decision_seed(*parts: object) -> int:
    """A seed fixed by what is decided: the same request thinks the same way if run again."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


# COMPUTER_GAMES_PER_HOUR counts the games a player started in this long before now.
COMPUTER_GAMES_WINDOW = timedelta(hours=1)


def computer_games_wait(*, user: User) -> timedelta | None:
    """How long before `user` may start another game against the computer, or None if now.

    At most COMPUTER_GAMES_PER_HOUR in any hour (0: no limit), counted from the games
    themselves, so the count is exact across processes and outlives a cache flush.
    """
    limit = int(settings.COMPUTER_GAMES_PER_HOUR)
    if limit <= 0:
        return None
    now = timezone.now()
    recent = list(
        Game.objects.filter(Q(player0=user) | Q(player1=user))
        .filter(AGAINST_COMPUTER, created_at__gt=now - COMPUTER_GAMES_WINDOW)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:limit]
    )
    if len(recent) < limit:
        return None
    # The oldest of those leaves the hour then, and makes room for one more.
    return recent[-1] + COMPUTER_GAMES_WINDOW - now


def computer_game_create(
    *,
    user: User,
    strength: str,
    seat: int | None = None,
    snapshot: dict[str, Any] | None = None,
    deals: list[dict[str, Any]] | None = None,
    balances: tuple[int, int] | None = None,
    practice: bool = False,
) -> Game:
    """A game of `user` against the computer, started at once; unrated. A `practice` game
    is marked so, and its page shows the player a hint at each decision.

    The seats are alike (round 1's lead goes by rank, R2.2), so the player's is drawn at
    random unless given. Choosing to play the computer is the player's Start; the
    computer presses its own as soon as the game is committed (games.computer.accounts).
    `snapshot` is the player's {"rating", "rating_label"} to show beside their name (the
    caller reads ratings; games does not); the computer shows none. `deals` and
    `balances` exist for tests and tools, as in games.services.game_create. Raises
    ServiceError("computer_games_limit") past COMPUTER_GAMES_PER_HOUR (computer_games_wait).
    """
    if seat is None:
        seat = secrets.randbelow(2)
    if seat not in (0, 1):
        raise ValueError("seat")
    bot = bot_account(strength=strength)
    players = (user, bot) if seat == 0 else (bot, user)
    ratings = default_players_snapshot()
    if snapshot is not None:
        ratings[seat] = snapshot
    with transaction.atomic():
        # Counted under the player's lock, with the game created before it is released.
        services.players_lock(user_ids=[user.pk])
        if computer_games_wait(user=user) is not None:
            raise ServiceError("computer_games_limit")
        game = services.game_create(
            player0=players[0],
            player1=players[1],
            rated=False,
            deals=deals,
            balances=balances,
            players_snapshot=ratings,
        )
        # Before the first change, so that its writer already asks the computer to move.
        game.bot_seat, game.bot_strength, game.practice = 1 - seat, strength, practice
        game.save(update_fields=["bot_seat", "bot_strength", "practice"])
        result = services.game_submit_action(
            game_id=game.pk, user=user, action={"do": "start"}, request_id="start"
        )
        if not result.ok:  # a new game always takes its player's Start: a bug if not
            raise RuntimeError(f"a new game refused its player's Start: {result.code}")
        game.refresh_from_db()
    return game


def computer_game_in_progress(*, user: User) -> Game | None:
    """The player's game against the computer that is not over yet, if any."""
    return (
        Game.objects.filter(status__in=Game.ACTIVE_STATUSES)
        .filter(Q(player0=user) | Q(player1=user))
        .filter(AGAINST_COMPUTER)
        .order_by("-created_at")
        .first()
    )


def _fallback(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The engine's first legal choice other than resigning: a failing bot still moves."""
    return engine.choices(legal)[0]


def _decide(
    state: Any, seat: int, strength: str, *, since: float, now: float, seed: int, game_id: int
) -> dict[str, Any]:
    legal = engine.legal_actions(state, seat)
    for action in legal:
        if action["do"] in READY_ACTIONS:
            return action
    view = engine.view(state, seat, now)
    budget = since + ANSWER_SECONDS - SUBMIT_MARGIN - now
    budget = max(MIN_BUDGET, min(float(settings.COMPUTER_THINK_SECONDS), budget))
    try:
        return choose(view, strength, budget=budget, seed=seed)
    except Exception:
        logger.exception(
            "the %s computer failed in game %s; it plays a legal move", strength, game_id
        )
        return _fallback(legal)


def _pause(*, since: float, seed: int) -> None:
    """Wait, if the thinking was quicker, until a human-like moment after the turn began."""
    pause = float(settings.COMPUTER_PAUSE_SECONDS) * random.Random(seed).uniform(0.6, 1.4)
    answer_at = since + min(pause, ANSWER_SECONDS - SUBMIT_MARGIN)
    wait = answer_at - timebase.server_now()
    if wait > 0:
        time.sleep(wait)


def computer_move(*, game_id: int, version: int, since: float) -> services.ActionResult | None:
    """Decide and submit the computer's action in `game_id` as of `version`.

    None when there is nothing to do: the game is gone, over or has moved on, or a timed
    change is due first (the clock keeper commits it, which asks again if needed).
    """
    game = Game.objects.select_related("player0", "player1").filter(pk=game_id).first()
    if game is None or game.version != version or not game.is_active:
        return None
    now = timebase.server_now()
    stored = engine.from_json(game.state)
    state, _events = engine.advance(stored, now)
    if state is not stored:
        return None
    seats = seats_to_act(game, state)
    if not seats:
        return None
    seat = seats[0]
    strength = game.bots()[seat]
    seed = decision_seed(game_id, version)
    action = _decide(state, seat, strength, since=since, now=now, seed=seed, game_id=game_id)
    _pause(since=since, seed=seed)
    request_id = f"computer-{version}"
    result = services.game_submit_action(
        game_id=game_id,
        user=game.player(seat),
        action=action,
        request_id=request_id,
        expected_version=version,
    )
    if not result.ok and not result.duplicate and result.code != "stale":
        # The bot answered something the engine refused: a bug to fix, not a reason for
        # the game to wait. The refusal is in the log; a legal move follows.
        logger.error(
            "the %s computer's %s was refused in game %s (%s); it plays a legal move",
            strength,
            action.get("do"),
            game_id,
            result.code,
        )
        result = services.game_submit_action(
            game_id=game_id,
            user=game.player(seat),
            action=_fallback(engine.legal_actions(state, seat)),
            request_id=f"{request_id}-fallback",
            expected_version=version,
        )
    return result
