"""The computer as a player: its accounts, when it has something to do, and its wake-ups.

A computer player is an account like any other (games.models.Bot says which, and how
strongly it plays), so a game against it is an ordinary game: the same row, log, clock
and broadcasts. What differs is who decides for that seat: not a socket but a Celery task
(games.tasks.computer_move -> games.computer_play), scheduled on commit by the game
writer (games.services) whenever a change leaves the computer with something to do.

Nothing here decides a move. This module only knows *whether* the computer has to act,
from the engine's legal actions, and keeps two promises:
- a decision is requested once per change that needs one (`computer_schedule_on_commit`);
- a request that got lost (a broker hiccup, a worker killed mid-thought) is sent again
  by the clock keeper (`computer_nudge_overdue`): the game never waits on a silent seat.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Q

from games import engine, timebase
from games.models import Bot, Game

logger = logging.getLogger(__name__)

TASK_NAME = "games.tasks.computer_move"
# Games in which either seat is a computer player.
AGAINST_COMPUTER = Q(bot_seat__isnull=False)
# The buttons a computer presses itself, without asking the bot (they are no decision).
READY_ACTIONS = ("start", "continue")


def bot_username(strength: str) -> str:
    # A colon is not allowed in a sign-up username, so no player can hold this name first.
    return f"computer:{strength}"


def bot_account(*, strength: str) -> AbstractBaseUser:
    """The account of the computer player of this strength, made on first use. Idempotent.

    Inactive and without a usable password: nobody logs in as it, challenges it or meets
    it in the queue; it only plays the games made for it (games.computer_play).
    """
    if strength not in Bot.Strength.values:
        raise ValueError(f"unknown strength {strength!r}")
    bot = Bot.objects.select_related("user").filter(strength=strength).first()
    if bot is not None:
        return bot.user
    user_model = get_user_model()
    try:
        with transaction.atomic():
            user, _created = user_model._default_manager.get_or_create(
                username=bot_username(strength), defaults={"is_active": False}
            )
            if user.has_usable_password() or user.is_active:
                user.set_unusable_password()
                user.is_active = False
                user.save(update_fields=["password", "is_active"])
            Bot.objects.get_or_create(user=user, defaults={"strength": strength})
    except IntegrityError:  # two first games at once: the other one made it
        pass
    return Bot.objects.select_related("user").get(strength=strength).user


def seats_to_act(game: Game, state: Any) -> list[int]:
    """The computer seats that have something to do in `state` (as of its own time).

    Anything the engine allows besides resigning: a decision, or Start/Continue. `game`'s
    status must be `state`'s.
    """
    bots = game.bots()
    if not bots or not game.is_active:
        return []
    return [
        seat
        for seat in sorted(bots)
        if any(action["do"] != "resign" for action in engine.legal_actions(state, seat))
    ]


def computer_schedule_on_commit(*, game_id: int, version: int, since: float) -> None:
    """Ask a worker for the computer's move once this transaction commits.

    `since` is the server time the computer's turn began; it paces the answer. The
    version makes the request stale as soon as the game moves on without it.
    """
    transaction.on_commit(lambda: _send(game_id=game_id, version=version, since=since))


def _send(*, game_id: int, version: int, since: float) -> None:
    try:
        current_app.send_task(
            TASK_NAME, kwargs={"game_id": game_id, "version": version, "since": since}
        )
    except Exception:
        # The move is committed; the clock keeper sends the request again (bot_since).
        logger.exception("could not ask for the computer's move in game %s", game_id)


def computer_nudge_overdue(*, now: float) -> int:
    """Send again the requests of computer seats silent for too long; returns how many.

    A request normally ends in a move within COMPUTER_ANSWER_SECONDS. One that did not
    (its message lost, its worker killed) is sent again here, from the clock keeper, at
    most every COMPUTER_NUDGE_SECONDS per game; a late duplicate is harmless (the request
    id and the version). Meanwhile the clock runs as for anyone, so a computer that
    cannot move at all loses on time instead of holding the game forever.
    """
    late = timebase.to_datetime(now) - timedelta(seconds=settings.COMPUTER_NUDGE_SECONDS)
    rows = list(
        Game.objects.filter(status__in=Game.ACTIVE_STATUSES, bot_since__lte=late).values_list(
            "pk", "version"
        )[:100]
    )
    for game_id, version in rows:
        # Pushed forward before sending: one nudge per interval, whatever the send does.
        Game.objects.filter(pk=game_id, version=version).update(bot_since=timebase.to_datetime(now))
        logger.warning("computer silent in game %s (version %s): asking again", game_id, version)
        _send(game_id=game_id, version=version, since=now)
    return len(rows)
