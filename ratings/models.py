"""The rating ledger: every rating change is one append-only row.

There is deliberately no "current rating" column anywhere: a player's rating is
``INITIAL_RATING + sum(delta)`` over their entries, their rated-games count is the number
of "game" entries minus the number of "fault_reversal" entries (a "refund" gives back a
loss without uncounting the game), and their peak is the
highest ``rating_after`` (or the initial rating). A cached copy could drift; the ledger
cannot, and each entry's ``rating_before`` equals the previous entry's ``rating_after``
because every write goes through ``ratings.services`` under a lock on the players' rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class RatingEntry(models.Model):
    class Reason(models.TextChoices):
        GAME = "game", _("rated game")
        # Undoes exactly one "game" entry of the same game and player (R7.10).
        FAULT_REVERSAL = "fault_reversal", _("reversal after a service fault")
        # Gives a player back what they lost in one game to an account a moderator marked
        # (fairplay); the marked account's own entry stays, and the game still counts.
        REFUND = "refund", _("refund of a loss to a marked account")

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="rating_entries",
    )
    game = models.ForeignKey(
        "games.Game",
        verbose_name=_("game"),
        on_delete=models.PROTECT,
        related_name="rating_entries",
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    rating_before = models.IntegerField(_("rating before"))
    rating_after = models.IntegerField(_("rating after"))
    delta = models.IntegerField(_("change"))
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("recorded"), auto_now_add=True, db_index=True)

    class Meta:
        # The id breaks ties between entries written in the same instant.
        ordering = ["created_at", "id"]
        verbose_name = _("rating ledger entry")
        verbose_name_plural = _("rating ledger")
        constraints = [
            # A result written twice (a retried task, a flag racing a move) rates once, and
            # a game is reversed at most once per player: the database enforces it even if
            # two processes pass the service's own check at the same time.
            models.UniqueConstraint(
                fields=["game", "player", "reason"], name="rating_entry_once_per_game"
            ),
            models.CheckConstraint(
                condition=Q(delta=F("rating_after") - F("rating_before")),
                name="rating_entry_delta_consistent",
            ),
        ]
        indexes = [models.Index(fields=["player", "created_at"])]

    def __str__(self) -> str:
        sign = "+" if self.delta >= 0 else ""
        return f"{self.player_id} #{self.game_id} {self.reason} {sign}{self.delta}"


class MarkedPlayer(models.Model):
    """An account a moderator marked (fairplay): off the leaderboard, the queue and arenas.

    Kept here rather than in fairplay because the leaderboard reads it and the ratings app
    sits below fairplay; fairplay writes it through ``ratings.services`` and logs who did.
    """

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="rating_mark",
    )
    marked_at = models.DateTimeField(_("marked"), auto_now_add=True)

    class Meta:
        verbose_name = _("marked account")
        verbose_name_plural = _("marked accounts")

    def __str__(self) -> str:
        return str(self.player_id)
