"""The report form: whom (one of the players offered), why, and a short text."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from fairplay.models import REPORT_TEXT_MAX, Reason


class ReportForm(forms.Form):
    player = forms.ChoiceField(label=_("Player"), widget=forms.RadioSelect)
    reason = forms.ChoiceField(label=_("Reason"), choices=Reason.choices, widget=forms.RadioSelect)
    text = forms.CharField(
        label=_("What happened (optional)"),
        required=False,
        max_length=REPORT_TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 3, "class": "input"}),
        help_text=_("At most %(count)d characters.") % {"count": REPORT_TEXT_MAX},
    )

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(name, name) for name in players]
        if len(players) == 1:
            field.initial = players[0]
