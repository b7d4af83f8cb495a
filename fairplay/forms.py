"""The report form: whom (one of the players offered), why, and a short text."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from fairplay.models import REPORT_TEXT_MAX, Reason


class ReportForm(forms.Form):
    player = forms.ChoiceField(label=_("Player"), widget=forms.RadioSelect)
    # A list, not radio buttons: on a phone the form's button stays in sight.
    reason = forms.ChoiceField(
        label=_("Reason"),
        choices=[("", _("Choose a reason")), *Reason.choices],
        widget=forms.Select(attrs={"class": "input"}),
    )
    text = forms.CharField(
        label=_("What happened (optional)"),
        required=False,
        max_length=REPORT_TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 3, "class": "input"}),
    )

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Said in the page's language: formatted here, per request, not at import.
        self.fields["text"].help_text = gettext("At most %(count)d characters.") % {
            "count": REPORT_TEXT_MAX
        }
        field = self.fields["player"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(name, name) for name in players]
        if len(players) == 1:
            field.initial = players[0]
