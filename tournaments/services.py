"""Writes of the arenas: joining and leaving, the pairing waves, scores, the arena's clock.

A pairing creates its game through games.services.game_create, like every other game, so
the platform's rule holds: a player has at most one active game. Waves, the start and the
end run from Celery beat (tournaments.tasks) and are safe to run twice or in two processes
at once: the start and the end lock the arena's row; a wave reads under that lock, then
takes each pair's players by conditional updates, so a player is paired once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone

from fairplay.selectors import account_marked
from fairplay.services import conduct_arena_sitting, play_allowed, players_waiting
from games.errors import ServiceError
from games.live.yours import players_redirect_on_commit
from games.models import Game
from games.selectors import decisions_by_seat, players_in_games
from games.services import game_create, players_lock
from lobby.services import queue_leave
from ratings.elo import PlayerRating
from ratings.selectors import rating_state, rating_states, snapshot_of
from tournaments import arena as scoring
from tournaments.broadcast import (
    arena_started_on_commit,
    standings_changed_on_commit,
    standings_push_due,
)
from tournaments.errors import ArenaError
from tournaments.models import Arena, ArenaGame, ArenaPlayer, ArenaSchedule

logger = logging.getLogger(__name__)

WAVE_SECONDS = 2.0  # a running arena's free players are paired this often
OPEN = (Arena.Status.SCHEDULED, Arena.Status.RUNNING)
ACTIVE_STATUSES = (Game.Status.WAITING, Game.Status.PLAYING)


def _arena(arena_id: int, *, lock: bool = False) -> Arena:
    rows = Arena.objects.select_for_update() if lock else Arena.objects
    arena = rows.filter(pk=arena_id).first()
    if arena is None:
        raise ArenaError("arena_not_found")
    return arena


def arena_join(*, user: User, arena_id: int, now: datetime | None = None) -> ArenaPlayer:
    """Join (or rejoin after a pause or withdrawal) an arena that has not ended.

    The player leaves the "Play now" queue: arena games come from the waves. A marked
    account is refused, and so is a leaver serving a wait (fairplay.services.LeaverWait).
    """
    if account_marked(user_id=user.pk):
        raise ArenaError("account_marked")
    now = now or timezone.now()
    play_allowed(user_id=user.pk, now=now)
    with transaction.atomic():
        arena = _arena(arena_id, lock=True)
        if arena.status not in OPEN or now >= arena.ends_at:
            raise ArenaError("arena_over")
        if not arena.admits(rating_state(user_id=user.pk).rating):
            raise ArenaError("arena_rating_band")
        entry, _ = ArenaPlayer.objects.get_or_create(
            arena=arena, user=user, defaults={"joined_at": now}
        )
        if entry.state == ArenaPlayer.State.REMOVED:
            raise ArenaError("arena_removed")
        entry.state = ArenaPlayer.State.ACTIVE
        if arena.status == Arena.Status.RUNNING and entry.free_since is None:
            entry.free_since = now
        entry.save()
        queue_leave(user=user)
        standings_changed_on_commit(arena.pk)
    return entry


def _leave(user: User, arena_id: int, state: ArenaPlayer.State) -> ArenaPlayer:
    with transaction.atomic():
        arena = _arena(arena_id, lock=True)
        entry = ArenaPlayer.objects.filter(arena=arena, user=user).first()
        if entry is None:
            raise ArenaError("arena_not_joined")
        if entry.state == ArenaPlayer.State.REMOVED:
            raise ArenaError("arena_removed")
        entry.state = state
        entry.free_since = None
        entry.save(update_fields=["state", "free_since"])
        standings_changed_on_commit(arena.pk)
    return entry


def arena_pause(*, user: User, arena_id: int) -> ArenaPlayer:
    """Stay in the standings but get no new game until rejoining; a game in progress counts."""
    return _leave(user, arena_id, ArenaPlayer.State.PAUSED)


def arena_withdraw(*, user: User, arena_id: int) -> ArenaPlayer:
    """Leave the arena: out of the standings unless a game of theirs counted (then kept)."""
    return _leave(user, arena_id, ArenaPlayer.State.WITHDRAWN)


def players_paused_for_queue(*, user_id: int) -> int:
    """Joining the "Play now" queue pauses the player in the arenas they are playing."""
    return ArenaPlayer.objects.filter(
        user_id=user_id, state=ArenaPlayer.State.ACTIVE, arena__status__in=OPEN
    ).update(state=ArenaPlayer.State.PAUSED, free_since=None)


def players_withdraw_everywhere(*, user_id: int) -> int:
    """A marked or closed account leaves every arena not over (fairplay's mark)."""
    entries = ArenaPlayer.objects.filter(
        user_id=user_id,
        state__in=(ArenaPlayer.State.ACTIVE, ArenaPlayer.State.PAUSED),
        arena__status__in=OPEN,
    )
    arena_ids = list(entries.values_list("arena_id", flat=True))
    left = entries.update(state=ArenaPlayer.State.WITHDRAWN, free_since=None)
    for arena_id in arena_ids:
        standings_changed_on_commit(arena_id)
    return left


def arena_wave(*, arena_id: int, now: datetime | None = None) -> list[Game]:
    """Pair the arena's free players (tournaments.arena.pair_wave); the games it created.

    A player serving a leaver's wait stays free but is not paired until the wait ends.

    Each game is made and committed on its own, so its players are told at once rather
    than after the whole wave, and no lock is held across games: a game ending meanwhile,
    a pause or a cancellation waits for one pairing at the most. Idempotent: a player
    already paired, by this wave or a second run of it, is no longer free and is skipped.
    """
    now = now or timezone.now()
    started = time.monotonic()
    with transaction.atomic():
        arena = _arena(arena_id, lock=True)
        if arena.status != Arena.Status.RUNNING or now >= arena.last_pairing_at:
            return []
        arena.waved_at = now
        arena.save(update_fields=["waved_at"])
        entries = list(
            ArenaPlayer.objects.filter(
                arena=arena, state=ArenaPlayer.State.ACTIVE, free_since__isnull=False
            )
        )
        if len(entries) < 2:
            return []
        user_ids = [entry.user_id for entry in entries]
        # A leaver's wait that began in the arena: passed over until it ends (fair play).
        busy = players_in_games(user_ids) | players_waiting(user_ids=user_ids, now=now)
        free = {entry.user_id: entry for entry in entries if entry.user_id not in busy}
        others_playing = ArenaGame.objects.filter(arena=arena, ended_at__isnull=True).exists()
    states = rating_states(user_ids=list(free))
    pairs = scoring.pair_wave(
        (
            scoring.Free(
                user_id=entry.user_id,
                score=entry.score,
                rating=states[entry.user_id].rating,
                last_opponent=entry.last_opponent_id,
                first_seats=entry.first_seats,
                same_run=entry.same_run,
            )
            for entry in free.values()
        ),
        others_playing=others_playing,
        max_run=settings.ARENA_SAME_OPPONENT_MAX_RUN,
    )
    users = get_user_model().objects.in_bulk([p.user_id for pair in pairs for p in pair])

    games: list[Game] = []
    for first, second in pairs:
        try:
            with transaction.atomic():
                games.append(_pair(arena, users[first.user_id], users[second.user_id], states))
        except (ServiceError, _NoLongerFree):  # paused, removed or paired meanwhile
            continue
        # Still waving: the arenas' tick starts the next wave only once this one is over.
        Arena.objects.filter(pk=arena.pk).update(
            waved_at=now + timedelta(seconds=time.monotonic() - started), standings_dirty=True
        )
    if games:
        standings_changed_on_commit(arena.pk)
    return games


class _NoLongerFree(Exception):
    """A player of the pair is no longer free: the pair's transaction is undone."""


def _pair(arena: Arena, player0: User, player1: User, states: dict[int, PlayerRating]) -> Game:
    """The wave's game for two players still free in it, with the ratings the wave read.

    Each player's entry is taken by one conditional update (no longer free, who they
    played, how many games in a row against them), in the order of their ids so that two
    waves never deadlock.
    """
    opponents = {player0.pk: (player1.pk, 1), player1.pk: (player0.pk, -1)}
    for user_id in sorted(opponents):
        opponent, seat_change = opponents[user_id]
        taken = ArenaPlayer.objects.filter(
            arena=arena, user_id=user_id, state=ArenaPlayer.State.ACTIVE, free_since__isnull=False
        ).update(
            free_since=None,
            same_run=Case(
                When(last_opponent_id=opponent, then=F("same_run") + 1), default=Value(1)
            ),
            last_opponent_id=opponent,
            first_seats=F("first_seats") + seat_change,
        )
        if not taken:
            raise _NoLongerFree
    bank = float(arena.bank_seconds)
    seats = (states[player0.pk], states[player1.pk])
    game = game_create(
        player0=player0,
        player1=player1,
        rated=arena.rated,
        banks=(bank, bank),
        players_snapshot=[snapshot_of(state) for state in seats],
    )
    ArenaGame.objects.create(
        arena=arena,
        game=game,
        player0=player0,
        player1=player1,
        rating0=seats[0].rating,
        rating1=seats[1].rating,
    )
    players_redirect_on_commit(game)
    return game


def _outcomes(game: Game) -> tuple[str, str]:
    none = ArenaGame.Outcome.NONE
    if game.status != Game.Status.FINISHED or game.winner_seat is None:
        return none, none
    if not scoring.counts(decisions_by_seat(game.pk), settings.ARENA_MIN_DECISIONS):
        return ArenaGame.Outcome.SHORT, ArenaGame.Outcome.SHORT
    win, loss = ArenaGame.Outcome.WIN, ArenaGame.Outcome.LOSS
    return (win, loss) if game.winner_seat == 0 else (loss, win)


def arena_game_counts(*, game: Game) -> bool | None:
    """Whether a finished game counts in its arena (both players made a real start at it);
    None when it is no arena's. Asked by the ratings before they rate a game (receivers)."""
    if not ArenaGame.objects.filter(game_id=game.pk).exists():
        return None
    return scoring.counts(decisions_by_seat(game.pk), settings.ARENA_MIN_DECISIONS)


def arena_game_over(*, game: Game, now: datetime | None = None) -> bool:
    """Record an arena game's result, or its void, and recount both players' scores.

    Called in the transaction that ends (or voids) the game; False if it is no arena's.
    Players whose game just ended are free for the next wave, while the arena pairs.
    """
    if game.status in ACTIVE_STATUSES:
        return False
    played = ArenaGame.objects.select_for_update().filter(game=game).first()
    if played is None:
        return False
    now = now or timezone.now()
    first_end = played.ended_at is None
    played.outcome0, played.outcome1 = _outcomes(game)
    if first_end:
        played.ended_at = now
    played.save(update_fields=["outcome0", "outcome1", "ended_at"])
    for user_id in (played.player0_id, played.player1_id):
        _recount(played.arena_id, user_id)
    if first_end:
        # A game aborted because a player never pressed Start: that player is away, and
        # is paused rather than paired again; whoever was there plays on.
        started = game.state.get("started") or [True, True]
        absent = [
            user_id
            for seat, user_id in enumerate((played.player0_id, played.player1_id))
            if game.status == Game.Status.ABORTED and not started[seat]
        ]
        entries = ArenaPlayer.objects.filter(
            arena_id=played.arena_id,
            state=ArenaPlayer.State.ACTIVE,
            arena__status=Arena.Status.RUNNING,
        )
        sitting = list(entries.filter(user_id__in=absent).values_list("user_id", flat=True))
        entries.filter(user_id__in=sitting).update(state=ArenaPlayer.State.PAUSED)
        for user_id in sitting:  # paused for sitting: a leave, for the wait before the next
            conduct_arena_sitting(user_id=user_id, game=game, now=now)
        entries.filter(user_id__in=[played.player0_id, played.player1_id]).exclude(
            user_id__in=absent
        ).update(free_since=now)
    standings_changed_on_commit(played.arena_id)
    return True


def _recount(arena_id: int, user_id: int) -> None:
    """The player's score, streak, wins, losses and performance, from their ended games."""
    rows = list(
        ArenaGame.objects.filter(arena_id=arena_id, ended_at__isnull=False)
        .filter(Q(player0_id=user_id) | Q(player1_id=user_id))
        .order_by("ended_at", "pk")
    )
    points = streak = wins = losses = short = 0
    opponents: list[int] = []
    changed: list[ArenaGame] = []
    for row in rows:
        seat = 0 if row.player0_id == user_id else 1
        outcome = scoring.Outcome(row.outcome0 if seat == 0 else row.outcome1)
        scored = scoring.score(outcome, streak)
        points += scored.points
        streak = scored.streak
        if outcome is not scoring.Outcome.NONE:
            wins += outcome is scoring.Outcome.WIN
            losses += outcome is scoring.Outcome.LOSS
            opponents.append(row.rating1 if seat == 0 else row.rating0)
        short += outcome is scoring.Outcome.SHORT
        field = "points0" if seat == 0 else "points1"
        if getattr(row, field) != scored.points:
            setattr(row, field, scored.points)
            changed.append(row)
    for row in changed:
        row.save(update_fields=["points0", "points1"])
    ArenaPlayer.objects.filter(arena_id=arena_id, user_id=user_id).update(
        score=points,
        streak=streak,
        wins=wins,
        losses=losses,
        short=short,
        performance=scoring.performance(opponents, wins, losses),
    )


def arenas_tick(*, now: datetime | None = None) -> dict[str, int]:
    """The arenas' clock, every second from beat: start and end arenas on time, run each
    running arena's wave when due, and push the standings that changed."""
    now = now or timezone.now()
    started = ended = paired = 0
    for arena_id in Arena.objects.filter(
        status=Arena.Status.SCHEDULED, starts_at__lte=now
    ).values_list("pk", flat=True):
        started += arena_start(arena_id=arena_id, now=now)
    for arena in Arena.objects.filter(status=Arena.Status.RUNNING):
        if now >= arena.ends_at:
            ended += arena_finish(arena_id=arena.pk, now=now)
        elif arena.waved_at is None or (now - arena.waved_at).total_seconds() >= WAVE_SECONDS:
            paired += len(arena_wave(arena_id=arena.pk, now=now))
    pushed = standings_push_due(now=now)
    return {"started": started, "ended": ended, "games": paired, "pushed": pushed}


def arena_start(*, arena_id: int, now: datetime | None = None, waving: bool = False) -> bool:
    """The arena runs; `waving`: its first wave follows at once (so the tick runs none)."""
    now = now or timezone.now()
    with transaction.atomic():
        arena = _arena(arena_id, lock=True)
        if arena.status != Arena.Status.SCHEDULED or arena.starts_at > now:
            return False
        arena.status = Arena.Status.RUNNING
        arena.waved_at = now if waving else None
        arena.save(update_fields=["status", "waved_at"])
        ArenaPlayer.objects.filter(arena=arena, state=ArenaPlayer.State.ACTIVE).update(
            free_since=now
        )
        arena_started_on_commit(arena)
        standings_changed_on_commit(arena.pk)
    return True


# How far ahead the arenas' tick (every second) sees an arena start, to start it on the dot.
START_AHEAD = timedelta(seconds=1.5)


def arenas_starting_soon(*, now: datetime | None = None) -> list[tuple[int, datetime]]:
    """(id, start) of the scheduled arenas starting within START_AHEAD, not yet due."""
    now = now or timezone.now()
    return list(
        Arena.objects.filter(
            status=Arena.Status.SCHEDULED, starts_at__gt=now, starts_at__lte=now + START_AHEAD
        ).values_list("pk", "starts_at")
    )


def arena_start_on_time(*, arena_id: int) -> bool:
    """Start the arena at its start time rather than at the next tick, and pair its first
    wave at once; False if it had started already (the tick, or a second call, did it)."""
    starts_at = Arena.objects.filter(pk=arena_id).values_list("starts_at", flat=True).first()
    if starts_at is None:
        return False
    early = (starts_at - timezone.now()).total_seconds()
    if 0 < early <= START_AHEAD.total_seconds():  # a timer that fired a little early
        time.sleep(early)
    now = max(timezone.now(), starts_at)
    if not arena_start(arena_id=arena_id, now=now, waving=True):
        return False
    arena_wave(arena_id=arena_id, now=now)
    return True


def arena_finish(*, arena_id: int, now: datetime | None = None) -> bool:
    """The arena ends: no more waves; games in progress finish and still count."""
    now = now or timezone.now()
    with transaction.atomic():
        arena = _arena(arena_id, lock=True)
        if arena.status != Arena.Status.RUNNING or now < arena.ends_at:
            return False
        return _close(arena, Arena.Status.FINISHED)


def arena_cancel(*, arena_id: int) -> bool:
    """An admin cancels the arena: no more waves, the standings frozen as they are; games in
    progress are ordinary games between two players and finish (rated if the arena was)."""
    with transaction.atomic():
        arena = _arena(arena_id, lock=True)
        if arena.status not in OPEN:
            return False
        return _close(arena, Arena.Status.CANCELLED)


def _close(arena: Arena, status: Arena.Status) -> bool:
    """No more waves: the arena is over, however it ended; nobody waits for a game."""
    arena.status = status
    arena.save(update_fields=["status"])
    ArenaPlayer.objects.filter(arena=arena).update(free_since=None)
    standings_changed_on_commit(arena.pk)
    return True


def arena_remove_player(*, entry_id: int) -> bool:
    """An admin removes a player: out of the standings, no new game, no rejoining."""
    with transaction.atomic():
        entry = ArenaPlayer.objects.filter(pk=entry_id).first()
        if entry is None or entry.state == ArenaPlayer.State.REMOVED:
            return False
        entry.state = ArenaPlayer.State.REMOVED
        entry.free_since = None
        entry.save(update_fields=["state", "free_since"])
        standings_changed_on_commit(entry.arena_id)
    return True


def arenas_schedule(*, now: datetime | None = None, ahead: timedelta | None = None) -> int:
    """Create the arenas of the active schedules that start within `ahead` (default one
    day); a schedule's arena at a given time is created once (a unique constraint)."""
    now = now or timezone.now()
    horizon = now + (ahead or timedelta(days=1))
    created = 0
    for schedule in ArenaSchedule.objects.filter(active=True):
        for starts_at in _occurrences(schedule, now, horizon):
            _, made = Arena.objects.get_or_create(
                schedule=schedule,
                starts_at=starts_at,
                defaults=schedule.terms(),
            )
            created += made
    return created


def _occurrences(schedule: ArenaSchedule, now: datetime, horizon: datetime) -> Iterable[datetime]:
    """The schedule's start times from now to the horizon: every `every_hours` hours from
    midnight UTC, at `at_minute`."""
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    start = day + timedelta(minutes=schedule.at_minute)
    step = timedelta(hours=schedule.every_hours)
    while start < now:
        start += step
    while start <= horizon:
        yield start
        start += step


def arena_create(
    *,
    user: User,
    name: str,
    starts_at: datetime,
    minutes: int,
    bank_seconds: int,
    rated: bool,
    now: datetime | None = None,
) -> Arena:
    """A player's own arena, within ARENAS_PER_PLAYER_PER_DAY; its creator joins it."""
    now = now or timezone.now()
    play_allowed(user_id=user.pk, now=now)  # before the arena exists: its creator joins it
    with transaction.atomic():
        # Counted under the player's lock, with the arena created before it is released.
        players_lock(user_ids=[user.pk])
        made = Arena.objects.filter(created_by=user, created_at__gt=now - timedelta(days=1))
        if made.count() >= settings.ARENAS_PER_PLAYER_PER_DAY:
            raise ArenaError("too_many_arenas")
        arena = Arena.objects.create(
            name=name,
            starts_at=max(starts_at, now),
            minutes=minutes,
            bank_seconds=bank_seconds,
            rated=rated,
            created_by=user,
        )
        arena_join(user=user, arena_id=arena.pk, now=now)
    return arena
