from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import BANK_CHOICES

DURATIONS = [(30, _("30 minutes")), (60, _("1 hour")), (90, _("90 minutes"))]


class ArenaForm(forms.Form):
    """A player's own arena: a name, a start within the next day, a length and a clock."""

    name = forms.CharField(label=_("Name"), max_length=80)
    starts_at = forms.DateTimeField(
        label=_("Starts (UTC)"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    minutes = forms.TypedChoiceField(label=_("Length"), choices=DURATIONS, coerce=int, initial=60)
    bank_seconds = forms.TypedChoiceField(
        label=_("Clock bank"), choices=BANK_CHOICES, coerce=int, initial=120
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
