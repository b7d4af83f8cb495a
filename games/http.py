"""The request type of the pages behind login_required, for the type checker."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest


class AuthenticatedHttpRequest(HttpRequest):
    """A request that login_required let through: its user is signed in, never anonymous."""

    user: User
