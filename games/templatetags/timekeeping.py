"""`{% clock_keeper_banner %}`: the admin says so while no clock keeper is beating."""

from __future__ import annotations

from typing import Any

from django import template

from games.clock.faults import timekeeping_status

register = template.Library()


@register.inclusion_tag("games/admin/clock_keeper_banner.html")
def clock_keeper_banner() -> dict[str, Any]:
    return {"status": timekeeping_status()}
