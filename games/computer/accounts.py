"""The computer's accounts, and whether it has something to do.

A computer player is an account like any other (games.models.Bot says which, and how
strongly it plays), so a game against it is an ordinary game: the same row, log, clock
and broadcasts. Only who decides for its seat differs (games.computer.wakeups).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q

from games import engine
from games.models import Bot, Game

# Games in which either seat is a computer player.
AGAINST_COMPUTER = Q(bot_seat__isnull=False)
# The buttons a computer presses itself, without asking the bot (they are no decision).
READY_ACTIONS = ("start", "continue")


def bot_username(strength: str) -> str:
    # A colon is not allowed in a sign-up username, so no player can hold this name first.
    return f"computer:{strength}"


def bot_account(*, strength: str) -> User:
    """The account of the computer player of this strength, made on first use. Idempotent.

    Inactive and without a usable password: nobody logs in as it, challenges it or meets
    it in the queue; it only plays the games made for it (games.computer.moves).
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
    return [seat for seat in sorted(bots) if engine.choices_of(state, seat)]
