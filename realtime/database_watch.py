"""Whether this process reaches its database, told to the game sockets it serves.

A socket would otherwise hear of an outage only when it asks the database something, and
a player waiting for the other's move would see nothing while no move can be saved. One
task per process asks (`SELECT 1` every `PROBE_SECONDS`, through the pool the moves use)
and tells every watching socket when the answer changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Protocol

from django.db import DatabaseError, connection

logger = logging.getLogger(__name__)

PROBE_SECONDS = 2.0
# A probe that has not answered by then counts as "unreachable" (a network path cut
# without a reset hangs rather than fails); it is not started again until it ends.
PROBE_TIMEOUT_SECONDS = 3.0


class Listener(Protocol):
    async def database_changed(self, reachable: bool) -> None: ...


def database_reachable() -> bool:
    """One round trip to the database, on the calling thread's connection."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return False
    return True


class DatabaseWatch:
    """One probing task per event loop, running while anyone watches."""

    def __init__(self, probe: Callable[[], Awaitable[bool]]) -> None:
        self.probe = probe
        self.reachable = True
        self.listeners: weakref.WeakSet[Listener] = weakref.WeakSet()
        self.task: asyncio.Task[None] | None = None

    def watch(self, listener: Listener) -> None:
        self.listeners.add(listener)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            # The socket that starts it has just read from the database to open.
            self.reachable = True
            self.task = loop.create_task(self._run())

    def unwatch(self, listener: Listener) -> None:
        self.listeners.discard(listener)

    async def _run(self) -> None:
        probing: asyncio.Future[bool] | None = None
        while self.listeners:
            await asyncio.sleep(PROBE_SECONDS)
            if probing is None:
                probing = asyncio.ensure_future(self.probe())
            done, _pending = await asyncio.wait({probing}, timeout=PROBE_TIMEOUT_SECONDS)
            reachable = False
            if done:
                with contextlib.suppress(Exception):
                    reachable = probing.result()
                probing = None
            if reachable != self.reachable:
                self.reachable = reachable
                logger.warning("database %s", "reachable again" if reachable else "unreachable")
                await self._tell(reachable)
        if probing is not None:
            probing.cancel()

    async def _tell(self, reachable: bool) -> None:
        """Every listener at once (on recovery each reads its game afresh)."""
        outcomes = await asyncio.gather(
            *(listener.database_changed(reachable) for listener in list(self.listeners)),
            return_exceptions=True,
        )
        for outcome in outcomes:
            if isinstance(outcome, Exception):
                logger.warning("a socket could not be told of the database: %r", outcome)
