"""The one door for pushes after a change: sent once the change commits, and a lost layer
logged rather than raised (the anchor is Zulip's `send_event_on_commit`).

The change is committed by then: a page that missed the push catches up on its resync or
its next load, so a failed send must never fail the request, task or socket that made it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from django.db import transaction

from realtime.fanout import group_send_all

logger = logging.getLogger(__name__)

Sends = Sequence[tuple[str, Mapping[str, Any]]]


@contextlib.contextmanager
def lost_logged(about: str, *args: Any) -> Iterator[None]:
    """Log whatever a push raises (`about % args` names it) instead of raising it."""
    try:
        yield
    except Exception:
        logger.exception("push lost: " + about, *args)


def send_now(sends: Sends | Callable[[], Sends], about: str, *args: Any) -> None:
    """Send each (group, message); `sends` may be a function that reads and builds them, so
    that what it raises is logged too."""
    with lost_logged(about, *args):
        group_send_all(sends() if callable(sends) else sends)


def send_on_commit(group: str, message: Mapping[str, Any]) -> None:
    """Send `message` to `group` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: send_now([(group, message)], "%s to %s", message["type"], group))


def send_all_on_commit(build: Callable[[], Sends], about: str, *args: Any) -> None:
    """Once the transaction commits, run `build` (which may read what it committed: once for
    every socket it tells) and send what it returns."""
    transaction.on_commit(lambda: send_now(build, about, *args))
