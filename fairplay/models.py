"""Fair play's records: how each player ended each of their games, players' reports,
automatic flags, warnings and the moderation log (docs/fair-play.md).

A moderator's mark is kept in ``ratings.models.MarkedPlayer`` (the leaderboard below this
app reads it); everything a moderator does is a ``ModerationLog`` row, never edited.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from fairplay.waits import Left
from games.models import Game

LEFT_CHOICES = [
    (Left.NO_START, _("did not press Start")),
    (Left.RAN_OUT, _("let their clock run out while away")),
    (Left.ARENA_SITTING, _("sat out an arena game")),
]


class GameConduct(models.Model):
    """One player's way of ending one two-player game: cleanly, or by leaving it.

    Written when the game ends (fairplay.receivers), once per player and game. The wait
    before the next game is computed from these rows when a player asks to play
    (fairplay.services.play_refusal), leaving out games voided or inside a service fault,
    so that a fault recorded later still takes back what it touched.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="game_conduct",
    )
    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="+"
    )
    at = models.DateTimeField(_("ended"))
    left = models.CharField(_("left the game"), max_length=16, choices=LEFT_CHOICES, blank=True)

    class Meta:
        verbose_name = _("game conduct")
        verbose_name_plural = _("game conduct")
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="game_conduct_once"),
        ]
        indexes = [models.Index(fields=["user", "-at"], name="game_conduct_latest")]

    def __str__(self) -> str:
        return f"{self.user} #{self.game_id}: {self.left or 'clean'}"


# What a report's text may hold: a sentence or two for the moderators, not a file.
REPORT_TEXT_MAX = 500


class Reason(models.TextChoices):
    """Why a player is reported, or warned."""

    BOOSTING = "boosting", _("Boosting (losing on purpose to raise someone's rating)")
    SANDBAGGING = "sandbagging", _("Sandbagging (losing on purpose to lower their own rating)")
    NAME = "name", _("An offensive username")
    ABUSE = "abuse", _("Abuse or harassment")
    OTHER = "other", _("Something else")


class Status(models.TextChoices):
    OPEN = "open", _("open")
    HANDLED = "handled", _("handled")


class Handled(models.Model):
    """What a moderator closes (a report, a flag): open until handled, and by whom, when."""

    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("handled by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)

    class Meta:
        abstract = True


class Report(Handled):
    """One player's report about another, maybe about one game (played or watched)."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reporter"),
        on_delete=models.CASCADE,
        related_name="reports_made",
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reported player"),
        on_delete=models.CASCADE,
        related_name="reports_received",
    )
    game = models.ForeignKey(
        "games.Game",
        verbose_name=_("game"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    text = models.TextField(_("what happened"), max_length=REPORT_TEXT_MAX, blank=True)
    created_at = models.DateTimeField(_("sent"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        constraints = [
            # The database refuses a second report of one player about one game, and a second
            # open one about a player from their profile, whatever requests race.
            models.UniqueConstraint(
                fields=["reporter", "player", "game"],
                condition=Q(game__isnull=False),
                name="report_once_per_game",
            ),
            models.UniqueConstraint(
                fields=["reporter", "player"],
                condition=Q(game__isnull=True, status="open"),
                name="report_one_open_per_player",
            ),
            models.CheckConstraint(condition=~Q(reporter=F("player")), name="report_not_self"),
        ]
        indexes = [models.Index(fields=["reporter", "created_at"])]

    def __str__(self) -> str:
        return f"{self.reporter_id} -> {self.player_id} ({self.reason})"


class Flag(Handled):
    """Something the periodic scan (fairplay.flags) found in the games, for a moderator."""

    class Kind(models.TextChoices):
        # `player` won many quick rated games against `opponent` in a short span.
        BOOSTING = "boosting", _("many quick rated wins against one opponent")
        # `player` resigned early far more often than the platform's players do.
        EARLY_RESIGN = "early_resign", _("resigns early far more often than others")

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="fairplay_flags",
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("opponent"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    games = models.PositiveIntegerField(_("games"))
    # The figures behind the flag (rates, windows), as the scan measured them.
    detail = models.JSONField(_("detail"), default=dict)
    created_at = models.DateTimeField(_("raised"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("automatic flag")
        verbose_name_plural = _("automatic flags")
        constraints = [
            # Two scans at once raise one open flag per player, kind (and opponent).
            models.UniqueConstraint(
                fields=["player", "kind", "opponent"],
                condition=Q(status="open", opponent__isnull=False),
                name="flag_one_open_per_pair",
            ),
            models.UniqueConstraint(
                fields=["player", "kind"],
                condition=Q(status="open", opponent__isnull=True),
                name="flag_one_open_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind} ({self.games})"


class PlayerWarning(models.Model):
    """A moderator's warning: the player sees it on their home page and profile until they
    say they have read it."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="fairplay_warnings",
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("warned by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("warned"), auto_now_add=True)
    seen_at = models.DateTimeField(_("read"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("warning")
        verbose_name_plural = _("warnings")

    def __str__(self) -> str:
        return f"{self.player_id} {self.reason}"


class ModerationLog(models.Model):
    """One moderator action: who did what to whom, when, and from which report or flag."""

    class Action(models.TextChoices):
        WARN = "warn", _("warned")
        MARK = "mark", _("marked")
        UNMARK = "unmark", _("unmarked")
        CLOSE = "close", _("closed the account")
        REFUND = "refund", _("refunded the opponents")
        DISMISS = "dismiss", _("dismissed")

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("moderator"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="moderation_log",
    )
    action = models.CharField(_("action"), max_length=8, choices=Action.choices)
    report = models.ForeignKey(
        Report,
        verbose_name=_("report"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="log",
    )
    flag = models.ForeignKey(
        Flag,
        verbose_name=_("flag"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="log",
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("moderation log entry")
        verbose_name_plural = _("moderation log")

    def __str__(self) -> str:
        return f"{self.actor_id} {self.action} {self.player_id}"
