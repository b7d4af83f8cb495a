"""The heartbeat: proof that the platform was measuring time at a given instant."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from games.models import Heartbeat


def heartbeat_record(*, at: datetime | None = None) -> Heartbeat:
    return Heartbeat.objects.create(at=at or timezone.now())
