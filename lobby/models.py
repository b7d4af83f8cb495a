"""The lobby's rows: challenges between two players and the "Play now" queue.

Their tables keep the games app's names (``db_table``), so no table was ever renamed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Challenge(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")
        EXPIRED = "expired", _("expired")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("challenger"),
        on_delete=models.CASCADE,
        related_name="challenges_sent",
    )
    # Null: an open challenge that any other player may accept.
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("opponent"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), db_index=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    game = models.ForeignKey(
        "games.Game",
        verbose_name=_("game"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="challenges",
    )

    class Meta:
        # The table keeps the name it had in the games app, so moving the model kept its rows.
        db_table = "games_challenge"
        ordering = ["-created_at"]
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")

    def __str__(self) -> str:
        return f"#{self.pk} {self.challenger_id}→{self.opponent_id or '*'} ({self.status})"


class QueueEntry(models.Model):
    """A player waiting in the "Play now" queue (lobby.services pairs them).

    One row per user at most (the unique user), deleted in the transaction that creates
    the player's game, so nobody is ever paired twice.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="queue_entry",
    )
    rating = models.IntegerField(_("rating at join"))
    joined_at = models.DateTimeField(_("joined"), db_index=True)
    # Refreshed by the waiting page's status requests: an entry whose page vanished
    # without a clean disconnect (a killed process) is dropped after a while.
    seen_at = models.DateTimeField(_("last seen"))
    # Kept while the player plays the computer meanwhile ("Play now", keep my place): never
    # paired, kept through the game, and taken up again by their next "Find an opponent"
    # with the wait they had (lobby.services.queue_hold).
    held = models.BooleanField(_("held"), default=False)

    class Meta:
        db_table = "games_queueentry"
        ordering = ["joined_at"]
        verbose_name = _("queue entry")
        verbose_name_plural = _("matchmaking queue")

    def __str__(self) -> str:
        return f"{self.user_id} ({self.rating}) since {self.joined_at:%H:%M:%S}"
