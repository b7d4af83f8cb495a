"""Fixtures of the pages tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def requests_forgotten(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Django logs each 503 with its request, whose user may be a lazy object never read
    (the database was away); pytest keeps the records to the session's end, where the
    search for stray connections (tests/conftest.py) would make it query the database.
    That search collects the garbage first, so the requests need only be let go here."""
    yield
    for when in ("setup", "call"):
        caplog.get_records(when).clear()
