"""Celery tasks: each one is a thin call into a service."""

from __future__ import annotations

from celery import shared_task

from games.heartbeat import heartbeat_record


@shared_task(name="games.tasks.heartbeat", ignore_result=True)
def heartbeat() -> str:
    return heartbeat_record().at.isoformat()
