from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Heartbeat(models.Model):
    """One row per beat of the Celery beat schedule; gaps between rows reveal outages."""

    at = models.DateTimeField(_("at"), db_index=True)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("heartbeat")
        verbose_name_plural = _("heartbeats")

    def __str__(self) -> str:
        return self.at.isoformat()
