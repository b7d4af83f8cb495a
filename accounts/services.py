"""Account writes: the one door through which player accounts are created."""

from __future__ import annotations

import unicodedata
from urllib.parse import unquote

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import Resolver404, resolve, reverse
from django.utils.translation import gettext_lazy as _

from accounts.models import UsernameSkeleton
from accounts.selectors import username_lookalike
from infra.confusables import confusable_keys, one_script

# Profiles live at /accounts/<username>/, next to these fixed pages; a player with one of
# these names would have an unreachable profile, so the names are not available.
RESERVED_USERNAMES = frozenset({"login", "logout", "signup", "password"})
# Shorter than the auth model's 150: a name is shown beside a seat, in the game's messages
# and on the leaderboard, and one a line long only pushes everything else aside.
USERNAME_MAX_LENGTH = 30


def _profile_reachable(username: str) -> bool:
    """Whether the profile link of `username` leads to that profile, as a browser follows it.

    Browsers drop "." and ".." path segments before asking ("/accounts/../" is "/"), and a
    name that a fixed page's address matches first would show that page instead.
    """
    path = reverse("profile", kwargs={"username": username})
    if any(segment in (".", "..") for segment in path.split("/")):
        return False
    try:
        match = resolve(unquote(path))
    except Resolver404:
        return False
    return match.url_name == "profile" and match.kwargs.get("username") == username


def username_check_available(username: str) -> None:
    """Raise ValidationError if `username` may not be a new account's name.

    It is refused when too long, reserved, not reachable as its profile's address, written
    in several scripts (Latin with Cyrillic…), taken in any letter case, or confusable with
    an existing name (a Cyrillic "a", U+0430, for a Latin one). Existing accounts keep their names.
    """
    username = unicodedata.normalize("NFKC", username)
    if len(username) > USERNAME_MAX_LENGTH:
        raise ValidationError(
            _("Choose a username of at most %(limit)d characters.")
            % {"limit": USERNAME_MAX_LENGTH},
            code="max_length",
        )
    if username.casefold() in RESERVED_USERNAMES:
        raise ValidationError(_("This username is reserved."), code="reserved")
    if not username.strip("."):
        raise ValidationError(_("A username cannot be only dots."), code="dots")
    if not _profile_reachable(username):
        raise ValidationError(_("This username is reserved."), code="reserved")
    if not one_script(username):
        raise ValidationError(
            _(
                "Write your username in one alphabet (for example only Latin or only Cyrillic"
                " letters), so that it cannot be mistaken for another."
            ),
            code="mixed_scripts",
        )
    user_model = get_user_model()
    users = user_model._default_manager
    if users.filter(username__iexact=username).exists():
        raise ValidationError(_("A user with that username already exists."), code="unique")
    existing = username_lookalike(username)
    if existing is not None:
        raise ValidationError(
            _("This username looks too much like “%(existing)s”, a player's name: choose another.")
            % {"existing": existing},
            code="confusable",
        )


def username_skeletons_keep(*, user: User, created: bool) -> None:
    """Store the look-alike keys of `user`'s name, once per name: when the user is created
    or saved under a name whose keys are not those stored."""
    keys = confusable_keys(user.get_username())
    stored: set[str] = set()
    if not created:
        rows = UsernameSkeleton.objects.filter(user=user)
        stored = set(rows.values_list("skeleton", flat=True))
        if stored == keys:
            return
        rows.exclude(skeleton__in=keys).delete()
    UsernameSkeleton.objects.bulk_create(
        [UsernameSkeleton(user=user, skeleton=key) for key in sorted(keys - stored)]
    )


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
