"""Celery tasks of fair play (run by beat, config/settings.py): thin calls into the scans."""

from __future__ import annotations

from celery import shared_task

from fairplay.flags import flags_scan


@shared_task(name="fairplay.tasks.flags_scan", ignore_result=True)
def flags_scan_task() -> int:
    return flags_scan()
