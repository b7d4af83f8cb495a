"""Django's PostgreSQL backend with a pool check that costs no round trip when all is well.

Django's health check for pooled connections runs an empty query on every checkout: one
more round trip per request, on a path (a move) that is only a few round trips long. A
pooled connection is idle between checkouts, so anything the server has to say meanwhile
(the notice of a restart, the end of the stream when it died) is waiting on its socket:
this check asks the server only then. A connection that broke silently (a network path
cut without a reset) still fails its first query, which answers `unavailable` as any
outage does, and is replaced.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
import psycopg_pool.pool
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool
from psycopg_pool.base import AttemptWithBackoff

# After the database comes back, psycopg_pool reconnects on a back-off that doubles from
# 1 s without bound (1, 2, 4, 8 s…): a stop of 8.5 s came back after 15.6 s, near the
# 20 s beyond which the games in progress are voided. Capped, a pool tries every second.
RECONNECT_MAX_DELAY = 1.0


class SteadyReconnectAttempt(AttemptWithBackoff):
    """psycopg_pool's reconnection attempt with its delay capped at RECONNECT_MAX_DELAY."""

    def update_delay(self, now: float) -> None:
        super().update_delay(now)
        self.delay = min(self.delay, RECONNECT_MAX_DELAY)


# The name the pool looks up when it schedules a reconnection (psycopg_pool has no option),
# imported there from psycopg_pool.base without being exported.
psycopg_pool.pool.AttemptWithBackoff = SteadyReconnectAttempt  # type: ignore[attr-defined]


def check_idle_connection(conn: psycopg.Connection[Any]) -> None:
    """Raise if the pooled connection `conn` is broken (psycopg_pool's `check` callback)."""
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    readable, _writable, _failed = select.select([conn.fileno()], [], [], 0)
    if readable:  # the server spoke to an idle connection: likely to say goodbye
        ConnectionPool.check_connection(conn)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> ConnectionPool | None:
        pool = super().pool
        if pool is not None and self.settings_dict["CONN_HEALTH_CHECKS"]:
            # Django passes psycopg_pool's own check, which queries every checkout; the
            # pool keeps its callback here.
            pool._check = check_idle_connection
        return pool
