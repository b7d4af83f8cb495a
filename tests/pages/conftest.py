"""Fixtures of the pages tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def requests_forgotten(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Django logs each 503 with its request, whose user may be a lazy object never read
    (the database was away); pytest would keep the records, and the requests with them, to
    the session's end."""
    yield
    for when in ("setup", "call"):
        caplog.get_records(when).clear()
