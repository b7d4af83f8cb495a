"""What every socket's messages share: the request id a page sends and gets back."""

from __future__ import annotations

from typing import Any

MAX_REQUEST_ID_CHARS = 64
# The largest integer a page's JavaScript holds exactly; beyond 64 bits it could not even
# be written back.
MAX_INT_ID = 2**53 - 1


def is_request_id(value: Any) -> bool:
    """A short string, or an integer a page can hold exactly: an id fit to log and echo.

    No NUL: PostgreSQL's text columns refuse it, and the id is logged with its answer.
    """
    if isinstance(value, str):
        return len(value) <= MAX_REQUEST_ID_CHARS and "\x00" not in value
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_INT_ID
