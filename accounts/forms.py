"""Input forms for the account pages; the writes themselves are in services.py."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.services import username_check_available


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

    def clean_username(self) -> str | None:
        username = super().clean_username()
        # The parent already reports a taken name; this adds the reserved names.
        if username:
            username_check_available(username)
        return username
