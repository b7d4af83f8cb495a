"""Sign-ups here are not counted against the per-address limit, except where a test sets it:
every test client signs up from 127.0.0.1, and the cache outlives a test."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def no_signup_limit(settings: Any) -> None:
    settings.SIGNUP_RATE_LIMIT_PER_HOUR = 0
