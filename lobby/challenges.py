"""Challenges: the services that create games between two players.

A challenge is addressed to one player or open to anyone. Accepting creates the game,
seats the challenger at random, and (on commit) pushes a redirect to both players' lobby
sockets. Every change also tells the lobby to refresh.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from fairplay.services import play_allowed, play_refusal
from games.errors import ServiceError
from games.live.yours import players_redirect_on_commit
from games.models import Game
from games.selectors import active_game_id, players_in_games
from games.services import game_create, players_lock
from lobby.broadcast import (
    challenger_told_declined_on_commit,
    invitations_changed_on_commit,
    lobby_changed_on_commit,
)
from lobby.errors import LobbyError
from lobby.models import Challenge
from ratings.selectors import players_snapshot

CHALLENGE_TTL = timedelta(minutes=10)
MAX_OPEN_CHALLENGES = 5


def _locked_open(challenge_id: int, now: datetime) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger", "opponent")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None:
        raise LobbyError("challenge_not_found")
    # Past its expiry but not yet marked by the beat task: just as expired.
    expired = challenge.status == Challenge.Status.OPEN and challenge.expires_at <= now
    if expired or challenge.status == Challenge.Status.EXPIRED:
        raise LobbyError("challenge_expired")
    if challenge.status != Challenge.Status.OPEN:
        raise LobbyError("challenge_not_open")
    return challenge


def challenge_create(*, challenger: User, opponent_username: str | None = None) -> Challenge:
    """A challenge to `opponent_username`, or an open one when it is empty.

    At most MAX_OPEN_CHALLENGES open at once per challenger, and one to each opponent:
    challenging the same player again answers with the challenge already standing.
    """
    opponent = None
    username = (opponent_username or "").strip()
    if username:
        opponent = (
            get_user_model().objects.filter(username__iexact=username, is_active=True).first()
        )
        if opponent is None:
            raise LobbyError("unknown_user")
        if opponent.pk == challenger.pk:
            raise LobbyError("challenge_self")
    if active_game_id(challenger.pk) is not None:
        raise ServiceError("already_playing")
    now = timezone.now()
    play_allowed(user_id=challenger.pk, now=now)
    with transaction.atomic():
        # Counted under the challenger's lock, with the challenge created before it is released.
        players_lock(user_ids=[challenger.pk])
        standing = Challenge.objects.filter(
            challenger=challenger, status=Challenge.Status.OPEN, expires_at__gt=now
        )
        if opponent is not None:
            same = standing.filter(opponent=opponent).first()
            if same is not None:  # asked again: the same challenge, its opponent told once
                return same
        if standing.count() >= MAX_OPEN_CHALLENGES:
            raise LobbyError("too_many_challenges")
        challenge = Challenge.objects.create(
            challenger=challenger, opponent=opponent, expires_at=now + CHALLENGE_TTL
        )
        lobby_changed_on_commit()
        invitations_changed_on_commit(challenge.opponent_id)
    return challenge


def challenge_accept(*, challenge_id: int, user: User) -> Game:
    """Accept: create the game (the challenger's seat drawn at random) and send both to it.

    Neither player may be serving a leaver's wait (fairplay): the accepter is told theirs
    (LeaverWait), and a challenger's wait that began after the challenge closes it to all.
    """
    now = timezone.now()
    play_allowed(user_id=user.pk, now=now)
    with transaction.atomic():
        challenge = _locked_open(challenge_id, now)
        if challenge.challenger_id == user.pk:
            raise LobbyError("challenge_own")
        if challenge.opponent_id is not None and challenge.opponent_id != user.pk:
            raise LobbyError("challenge_not_yours")
        if play_refusal(user_id=challenge.challenger_id, now=now) is not None:
            raise LobbyError("challenger_waiting")
        addressed = challenge.opponent_id is not None
        # Two acceptances at once by the same player wait for each other here (the two
        # users' rows, in a fixed order); no key lock, which a new seat's row would wait on.
        accounts = get_user_model().objects.filter(pk__in=(challenge.challenger_id, user.pk))
        list(accounts.select_for_update(no_key=True).order_by("pk"))
        busy = players_in_games([user.pk, challenge.challenger_id])
        if user.pk in busy:
            raise ServiceError("already_playing")
        if challenge.challenger_id in busy:
            raise LobbyError("challenger_playing")
        challenger_seat = secrets.randbelow(2)
        players = (
            (challenge.challenger, user) if challenger_seat == 0 else (user, challenge.challenger)
        )
        try:
            game = game_create(
                player0=players[0],
                player1=players[1],
                rated=True,
                players_snapshot=players_snapshot(list(players)),
            )
        except ServiceError:  # a game made meanwhile down a path that locks no account
            if challenge.challenger_id in players_in_games([challenge.challenger_id]):
                raise LobbyError("challenger_playing") from None
            raise
        challenge.status = Challenge.Status.ACCEPTED
        challenge.opponent = user
        challenge.game = game
        challenge.save(update_fields=["status", "opponent", "game"])
        lobby_changed_on_commit()
        if addressed:  # the accepter's other pages drop its toast
            invitations_changed_on_commit(challenge.opponent_id)
        players_redirect_on_commit(game)
    return game


def _challenge_close(challenge_id: int, user: User, status: str) -> Challenge:
    """An open challenge declined by its opponent or cancelled by its challenger."""
    declining = status == Challenge.Status.DECLINED
    with transaction.atomic():
        challenge = _locked_open(challenge_id, timezone.now())
        if user.pk != (challenge.opponent_id if declining else challenge.challenger_id):
            raise LobbyError("challenge_not_yours")
        challenge.status = status
        challenge.save(update_fields=["status"])
        lobby_changed_on_commit()
        invitations_changed_on_commit(challenge.opponent_id)
        if declining:
            challenger_told_declined_on_commit(challenge)
    return challenge


def challenge_decline(*, challenge_id: int, user: User) -> Challenge:
    """Only the player a challenge is addressed to may decline it."""
    return _challenge_close(challenge_id, user, Challenge.Status.DECLINED)


def challenge_cancel(*, challenge_id: int, user: User) -> Challenge:
    """Only the challenger may cancel."""
    return _challenge_close(challenge_id, user, Challenge.Status.CANCELLED)


def challenges_expire(*, now: datetime | None = None) -> int:
    """Mark every open challenge past its expiry as expired; returns how many."""
    with transaction.atomic():
        expiring = Challenge.objects.filter(
            status=Challenge.Status.OPEN, expires_at__lte=now or timezone.now()
        )
        opponents = set(expiring.exclude(opponent=None).values_list("opponent_id", flat=True))
        count = expiring.update(status=Challenge.Status.EXPIRED)
        if count:
            lobby_changed_on_commit()
        for opponent_id in opponents:  # their notices of it go too
            invitations_changed_on_commit(opponent_id)
    return count
