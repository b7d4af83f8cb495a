"""Input forms for the account pages; the writes themselves are in services.py."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.services import USERNAME_MAX_LENGTH, username_check_available


class SignupForm(UserCreationForm):
    """Username, optional email, password twice (checked by AUTH_PASSWORD_VALIDATORS).

    Only validates; the view hands the cleaned data to `account_create`, never `save()`.
    """

    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        help_text=_("Only used if you ever need to recover your account."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.widget.attrs["maxlength"] = str(USERNAME_MAX_LENGTH)
        username.help_text = _(
            "Required. %(limit)d characters or fewer. Letters, digits and @/./+/-/_ only."
        ) % {"limit": USERNAME_MAX_LENGTH}

    def clean_username(self) -> str:
        username = super().clean_username()
        # The parent already reports a taken name; this adds the reserved names.
        if username:
            username_check_available(username)
        return username
