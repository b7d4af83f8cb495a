"""Reads of the lobby: the challenges a player may see, and the socket groups it uses."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.clock.timebase import to_ms
from games.selectors import LIVE_GAMES_SHOWN, live_games
from lobby.messages import ChallengeEntry, LiveGame
from lobby.models import Challenge

# Every user socket joins its user's own group (realtime.groups.user_group: their game,
# the challenges addressed to them, a redirect to a new game); a page that shows the
# challenge list asks for LOBBY_GROUP too (/ws/lobby/?challenges=1), and one that shows the
# games in progress for LIVE_GROUP (?live=1), so that the sockets of every other page are
# not sent lists they never show.
LOBBY_GROUP = "lobby"
LIVE_GROUP = "lobby_live"


def challenges_visible_to(user: User) -> list[Challenge]:
    """Open, unexpired challenges the user may see: theirs, addressed to them, and open ones."""
    return list(
        Challenge.objects.select_related("challenger", "opponent")
        .filter(status=Challenge.Status.OPEN, expires_at__gt=timezone.now())
        .filter(Q(challenger=user) | Q(opponent=user) | Q(opponent__isnull=True))
        .order_by("created_at")
    )


def challenge_public(challenge: Challenge, user: User) -> ChallengeEntry:
    """What the lobby shows of a challenge: usernames and times, nothing else."""
    return {
        "id": challenge.pk,
        "challenger": challenge.challenger.get_username(),
        "opponent": challenge.opponent.get_username() if challenge.opponent else None,
        "created_at": to_ms(challenge.created_at.timestamp()),
        "expires_at": to_ms(challenge.expires_at.timestamp()),
        "mine": challenge.challenger_id == user.pk,
        "to_me": challenge.opponent_id == user.pk,
    }


def lobby_snapshot(user: User) -> list[ChallengeEntry]:
    return [challenge_public(c, user) for c in challenges_visible_to(user)]


def invitations_of(user: User) -> list[ChallengeEntry]:
    """The open, unexpired challenges addressed to the user: what every page of theirs
    offers to accept or decline."""
    challenges = (
        Challenge.objects.select_related("challenger", "opponent")
        .filter(status=Challenge.Status.OPEN, expires_at__gt=timezone.now(), opponent=user)
        .order_by("created_at")
    )
    return [challenge_public(c, user) for c in challenges]


def live_games_snapshot(user: User, limit: int = LIVE_GAMES_SHOWN) -> list[LiveGame]:
    """The games in progress as the lobby's socket sends them: public facts only."""
    return [
        {
            "id": game.pk,
            "url": reverse("game", kwargs={"game_id": game.pk}),
            "players": list(game.players),
            "ratings": list(game.ratings) if game.ratings else None,
            "playing": game.playing,
            "round": game.round,
            "balances": list(game.balances),
            "same_device": game.same_device,
            "mine": game.mine,
        }
        for game in live_games(viewer=user, limit=limit)
    ]
