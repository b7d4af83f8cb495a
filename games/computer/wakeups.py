"""The computer's wake-ups: a decision asked of a worker once per change that needs one.

Who decides for a computer seat is not a socket but a Celery task (games.tasks.computer_move
-> games.computer.moves), asked for on commit by the game writer (games.services) whenever
a change leaves the computer with something to do (games.computer.accounts.seats_to_act).
A request that got lost (a broker hiccup, a worker killed mid-thought) is sent again by the
clock keeper (`computer_nudge_overdue`): the game never waits on a silent seat.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction

from games.clock import timebase
from games.models import Game

logger = logging.getLogger(__name__)

TASK_NAME = "games.tasks.computer_move"


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
