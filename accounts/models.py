"""What accounts keeps beside Django's users: the look-alike keys of their names."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class UsernameSkeleton(models.Model):
    """One look-alike key of a player's name (`infra.confusables.confusable_keys`).

    Two names that share a skeleton look alike, so a new name is checked with one indexed
    read instead of comparing it with every name. Kept by `accounts.services` whenever a
    user is saved with a new name, whoever saves it (sign-up, admin, computer players).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="username_skeletons",
        verbose_name=_("user"),
    )
    # A skeleton may be longer than its name ("m" becomes "rn"): no length limit.
    skeleton = models.TextField(_("skeleton"), db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "skeleton"], name="one_row_per_skeleton")
        ]
        verbose_name = _("username skeleton")
        verbose_name_plural = _("username skeletons")

    def __str__(self) -> str:
        return self.skeleton
