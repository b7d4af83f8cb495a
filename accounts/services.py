"""Account writes: the one door through which player accounts are created."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

# Profiles live at /accounts/<username>/, next to these fixed pages; a player with one of
# these names would have an unreachable profile, so the names are not available.
RESERVED_USERNAMES = frozenset({"login", "logout", "signup", "password"})
# Shorter than the auth model's 150: a name is shown beside a seat, in the game's messages
# and on the leaderboard, and one a line long only pushes everything else aside.
USERNAME_MAX_LENGTH = 30


def username_check_available(username: str) -> None:
    """Raise ValidationError if `username` is too long, reserved or taken (case-insensitively)."""
    if len(username) > USERNAME_MAX_LENGTH:
        raise ValidationError(
            _("Choose a username of at most %(limit)d characters.")
            % {"limit": USERNAME_MAX_LENGTH},
            code="max_length",
        )
    if username.casefold() in RESERVED_USERNAMES:
        raise ValidationError(_("This username is reserved."), code="reserved")
    user_model = get_user_model()
    if user_model._default_manager.filter(username__iexact=username).exists():
        raise ValidationError(_("A user with that username already exists."), code="unique")


@transaction.atomic
def account_create(*, username: str, password: str, email: str = "") -> User:
    """Create an active player account and return it.

    Validates everything itself (a form in front of it is for error placement, not for
    safety): username syntax and availability, and the password against
    AUTH_PASSWORD_VALIDATORS with the new user's attributes, so that a password too
    similar to the username is refused. Errors are keyed by "username", "email" or
    "password".
    """
    user_model = get_user_model()
    username = user_model.normalize_username(username)
    email = user_model._default_manager.normalize_email(email or "")
    user = user_model(username=username, email=email)
    # Checks the username's characters and length and the email's syntax; availability is
    # checked below case-insensitively, stricter than the database constraint.
    user.full_clean(exclude=["password"], validate_unique=False)
    try:
        username_check_available(username)
    except ValidationError as exc:
        raise ValidationError({"username": exc.error_list}) from exc
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.error_list}) from exc
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as exc:  # two sign-ups racing for one name
        raise ValidationError(
            {"username": _("A user with that username already exists.")}, code="unique"
        ) from exc
    return user
