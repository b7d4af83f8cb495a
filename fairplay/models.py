"""Fair play's records: how each player ended each of their games (docs/fair-play.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
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
