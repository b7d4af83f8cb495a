"""Account reads."""

from __future__ import annotations

from django.contrib.auth.models import User

from accounts.models import UsernameSkeleton
from infra.confusables import confusable_keys


def username_lookalike(name: str, *, exclude: User | None = None) -> str | None:
    """The username of an account whose name looks like `name` (or equals it in another
    case), if any, but `exclude`'s: one indexed read of the stored skeletons."""
    twins = UsernameSkeleton.objects.filter(skeleton__in=confusable_keys(name))
    if exclude is not None:
        twins = twins.exclude(user=exclude)
    twin = twins.select_related("user").order_by("user_id").first()
    return None if twin is None else twin.user.get_username()
