"""Reads of the lobby: the challenges a player may see, and the games in progress, each
read once for every socket that shows them (lobby.broadcast) and then fitted to one user."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation

from games.clock.timebase import to_ms
from games.selectors import LIVE_GAMES_SHOWN, live_game, live_game_rows
from lobby.messages import ChallengeEntry, LiveGame, SharedChallenge, SharedLiveGame
from lobby.models import Challenge


def open_challenges(*where: Q) -> list[SharedChallenge]:
    """The open, unexpired challenges (those matching `where`), as one read that every
    lobby page shares: usernames and times, and the ids `challenges_for` fits them by."""
    challenges = (
        Challenge.objects.select_related("challenger", "opponent")
        .filter(*where, status=Challenge.Status.OPEN, expires_at__gt=timezone.now())
        .order_by("created_at")
    )
    return [
        {
            "id": c.pk,
            "challenger": c.challenger.get_username(),
            "opponent": c.opponent.get_username() if c.opponent else None,
            "created_at": to_ms(c.created_at.timestamp()),
            "expires_at": to_ms(c.expires_at.timestamp()),
            "challenger_id": c.challenger_id,
            "opponent_id": c.opponent_id,
        }
        for c in challenges
    ]


def challenges_for(shared: list[SharedChallenge], user_id: int) -> list[ChallengeEntry]:
    """Of `open_challenges`, what the lobby shows the user: theirs, addressed to them, and
    open ones, with nothing but usernames and times."""
    return [
        {
            "id": c["id"],
            "challenger": c["challenger"],
            "opponent": c["opponent"],
            "created_at": c["created_at"],
            "expires_at": c["expires_at"],
            "mine": c["challenger_id"] == user_id,
            "to_me": c["opponent_id"] == user_id,
        }
        for c in shared
        if c["opponent_id"] in (None, user_id) or c["challenger_id"] == user_id
    ]


def lobby_snapshot(user: User) -> list[ChallengeEntry]:
    """The challenges the user may see: theirs, addressed to them, and open ones."""
    visible = Q(challenger=user) | Q(opponent=user) | Q(opponent__isnull=True)
    return challenges_for(open_challenges(visible), user.pk)


def invitations_of(user_id: int) -> list[ChallengeEntry]:
    """The open, unexpired challenges addressed to the user: what every page of theirs
    offers to accept or decline."""
    return challenges_for(open_challenges(Q(opponent_id=user_id)), user_id)


def live_games_shared(limit: int = LIVE_GAMES_SHOWN) -> dict[str, list[SharedLiveGame]]:
    """The games in progress, read once, each seat named in every language the site speaks
    (the computer's seat is "Ordenador (difícil)" in Spanish): public facts only."""
    rows = live_game_rows(limit=limit)
    shared: dict[str, list[SharedLiveGame]] = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            shared[language] = [
                {
                    "id": game.pk,
                    "url": reverse("game", kwargs={"game_id": game.pk}),
                    "players": list(listed.players),
                    "ratings": list(listed.ratings) if listed.ratings else None,
                    "playing": listed.playing,
                    "round": listed.round,
                    "balances": list(listed.balances),
                    "same_device": listed.same_device,
                    "player_ids": [game.player0_id, game.player1_id],
                }
                for game in rows
                for listed in [live_game(game, viewer_id=None)]
            ]
    return shared


def live_games_for(shared: list[SharedLiveGame], user_id: int) -> list[LiveGame]:
    """Of `live_games_shared` in one language, what the user's live list shows."""
    return [
        {
            "id": game["id"],
            "url": game["url"],
            "players": game["players"],
            "ratings": game["ratings"],
            "playing": game["playing"],
            "round": game["round"],
            "balances": game["balances"],
            "same_device": game["same_device"],
            "mine": user_id in game["player_ids"],
        }
        for game in shared
    ]


def live_games_snapshot(user: User, limit: int = LIVE_GAMES_SHOWN) -> list[LiveGame]:
    """The games in progress as the lobby's socket sends them, in the active language."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    shared = live_games_shared(limit)
    return live_games_for(shared.get(language) or shared[settings.LANGUAGE_CODE], user.pk)
