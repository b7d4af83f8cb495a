"""Forms of the games app's pages."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from games.services import SEAT_NAME_MAX_CHARS, seat_names_clean


class SameDeviceForm(forms.Form):
    """The two players of a shared screen, named by whoever creates the game."""

    first = forms.CharField(label=_("First player"), max_length=SEAT_NAME_MAX_CHARS)
    second = forms.CharField(label=_("Second player"), max_length=SEAT_NAME_MAX_CHARS)

    def __init__(self, *args: Any, owner: User | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"first": _("Player 1"), "second": _("Player 2")})
        super().__init__(*args, **kwargs)
        self.owner = owner  # the account creating the game: its own name may be a seat's
        for field in self.fields.values():
            field.widget.attrs.update({"autocomplete": "off", "maxlength": SEAT_NAME_MAX_CHARS})

    def clean(self) -> dict[str, Any]:
        # Form.clean returns cleaned_data; django-stubs allows None for overrides.
        data = cast(dict[str, Any], super().clean())
        if "first" in data and "second" in data:
            try:
                data["first"], data["second"] = seat_names_clean(
                    (data["first"], data["second"]), owner=self.owner
                )
            except ValueError as error:
                if error.args[0] == "same":
                    raise forms.ValidationError(
                        _("Give the two players different names.")
                    ) from None
                if error.args[0] == "account":
                    raise forms.ValidationError(
                        _(
                            "“%(name)s” looks like another player's username: choose a"
                            " different name."
                        ),
                        params={"name": error.args[1]},
                    ) from None
                raise forms.ValidationError(
                    _("A name has characters that cannot be shown.")
                ) from None
        return data
