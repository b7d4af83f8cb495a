from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import BANK_CHOICES

DURATIONS = [(30, _("30 minutes")), (60, _("1 hour")), (90, _("90 minutes"))]
# The start is typed to the minute: whole-minute steps from a value without seconds.
MINUTE_FORMAT = "%Y-%m-%dT%H:%M"


class ArenaForm(forms.Form):
    """A player's own arena: a name, a start within the next day, a length and a clock.

    The start is typed in the player's own time zone: the page's script sends the zone's
    offset from UTC (minutes, as the browser's getTimezoneOffset) with it; without the
    script the start is read in UTC, as its help says.
    """

    name = forms.CharField(label=_("Name"), max_length=80)
    starts_at = forms.DateTimeField(
        label=_("Starts"),
        help_text=_("In UTC."),
        input_formats=[MINUTE_FORMAT, "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(
            format=MINUTE_FORMAT, attrs={"type": "datetime-local", "step": "60"}
        ),
    )
    offset = forms.IntegerField(
        required=False, min_value=-16 * 60, max_value=16 * 60, widget=forms.HiddenInput
    )
    minutes = forms.TypedChoiceField(label=_("Length"), choices=DURATIONS, coerce=int, initial=60)
    bank_seconds = forms.TypedChoiceField(
        label=_("Clock bank"), choices=BANK_CHOICES, coerce=int, initial=120
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        offset = data.pop("offset", None)
        if offset and data.get("starts_at") is not None:
            data["starts_at"] += timedelta(minutes=offset)  # the player's zone to UTC
        return data
