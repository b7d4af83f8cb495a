"""Arenas: timed tournaments where free players are paired in waves (docs/architecture.md).

Scores are never typed in: each player's row is recomputed from their arena games
(tournaments.arena) whenever one of those games ends or is voided.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game

# The bank a player can choose for an arena's games; the 10 s delay per decision stays.
BANK_CHOICES = [
    (60, _("1 minute")),
    (120, _("2 minutes (standard)")),
    (180, _("3 minutes")),
    (300, _("5 minutes")),
]


class ArenaTerms(models.Model):
    """What an arena is played for, shared by an arena and the schedule that makes it."""

    name = models.CharField(_("name"), max_length=80)
    minutes = models.PositiveSmallIntegerField(
        _("duration (minutes)"),
        default=60,
        validators=[MinValueValidator(5), MaxValueValidator(360)],
    )
    bank_seconds = models.PositiveSmallIntegerField(
        _("clock bank"), choices=BANK_CHOICES, default=120
    )
    rated = models.BooleanField(_("rated"), default=True)
    min_rating = models.IntegerField(_("lowest rating"), null=True, blank=True)
    max_rating = models.IntegerField(_("highest rating"), null=True, blank=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.name

    def terms(self) -> dict[str, object]:
        """These fields' values, for an arena made from a schedule."""
        return {field: getattr(self, field) for field in TERMS}


TERMS = ("name", "minutes", "bank_seconds", "rated", "min_rating", "max_rating")


class ArenaSchedule(ArenaTerms):
    """A recurring arena ("hourly at :00"): Celery beat creates each one ahead of its start."""

    every_hours = models.PositiveSmallIntegerField(
        _("every (hours)"), default=1, validators=[MinValueValidator(1), MaxValueValidator(168)]
    )
    at_minute = models.PositiveSmallIntegerField(
        _("at minute"), default=0, validators=[MaxValueValidator(59)]
    )
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("arena schedule")
        verbose_name_plural = _("arena schedules")


class Arena(ArenaTerms):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("starts soon")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    starts_at = models.DateTimeField(_("starts"), db_index=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.SCHEDULED, db_index=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="arenas_created",
        verbose_name=_("created by"),
    )
    schedule = models.ForeignKey(
        ArenaSchedule,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="arenas",
        verbose_name=_("schedule"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    waved_at = models.DateTimeField(null=True, blank=True)  # the last pairing wave
    # The standings changed since they were last pushed (at most one push a second).
    standings_dirty = models.BooleanField(default=False)
    standings_pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("arena")
        verbose_name_plural = _("arenas")
        ordering = ["-starts_at"]
        constraints = [
            models.UniqueConstraint(fields=["schedule", "starts_at"], name="arena_scheduled_once"),
        ]

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.minutes)

    @property
    def last_pairing_at(self) -> datetime:
        """Waves stop then: a game paired later could not end in time."""
        return self.ends_at - timedelta(seconds=settings.ARENA_LAST_PAIRING_SECONDS)

    def admits(self, rating: int) -> bool:
        """Whether a player of this rating may join (the arena's rating band)."""
        if self.min_rating is not None and rating < self.min_rating:
            return False
        return self.max_rating is None or rating <= self.max_rating


class ArenaPlayer(models.Model):
    class State(models.TextChoices):
        ACTIVE = "active", _("playing")
        PAUSED = "paused", _("paused")
        WITHDRAWN = "withdrawn", _("withdrawn")
        REMOVED = "removed", _("removed")

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arena_entries"
    )
    joined_at = models.DateTimeField(_("joined"))
    state = models.CharField(_("state"), max_length=16, choices=State.choices, default=State.ACTIVE)
    # Waiting for a game since then; null while in a game, paused, or before the start.
    free_since = models.DateTimeField(null=True, blank=True)
    score = models.IntegerField(_("score"), default=0)
    streak = models.PositiveSmallIntegerField(_("wins in a row"), default=0)
    wins = models.PositiveSmallIntegerField(_("wins"), default=0)
    losses = models.PositiveSmallIntegerField(_("losses"), default=0)
    performance = models.IntegerField(_("performance"), null=True, blank=True)
    last_opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    first_seats = models.SmallIntegerField(default=0)  # sat first minus sat second
    # Games in a row against last_opponent, the last one included (ARENA_SAME_OPPONENT_MAX_RUN).
    same_run = models.PositiveSmallIntegerField(default=0)
    # Games over before both players made a real start (ARENA_MIN_DECISIONS): counted nothing.
    short = models.PositiveSmallIntegerField(_("too short"), default=0)

    class Meta:
        verbose_name = _("arena player")
        verbose_name_plural = _("arena players")
        constraints = [
            models.UniqueConstraint(fields=["arena", "user"], name="arena_player_once"),
        ]
        indexes = [models.Index(fields=["arena", "state", "free_since"], name="arena_free")]

    def __str__(self) -> str:
        return f"{self.user} @ {self.arena}"


class ArenaGame(models.Model):
    class Outcome(models.TextChoices):
        WIN = "win", _("win")
        LOSS = "loss", _("loss")
        NONE = "none", _("counts nothing")
        SHORT = "short", _("too short: counts nothing")

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="arena_game")
    player0 = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    player1 = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    rating0 = models.IntegerField()  # at pairing: the opponent's side of performance
    rating1 = models.IntegerField()
    ended_at = models.DateTimeField(null=True, blank=True, db_index=True)
    outcome0 = models.CharField(max_length=8, choices=Outcome.choices, blank=True)
    outcome1 = models.CharField(max_length=8, choices=Outcome.choices, blank=True)
    points0 = models.PositiveSmallIntegerField(default=0)
    points1 = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = _("arena game")
        verbose_name_plural = _("arena games")
        indexes = [models.Index(fields=["arena", "ended_at"], name="arena_game_ended")]

    def __str__(self) -> str:
        return f"{self.arena}: {self.game}"
