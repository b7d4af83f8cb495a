"""Django's PostgreSQL backend with a pool that reconnects every second: psycopg_pool's
back-off doubles without bound (docs/decisions/postgresql-pool.md).

Its health check asks the server only when the server has spoken to the idle connection,
where Django's runs a query on every checkout; a connection that broke silently fails its
first query, answered `unavailable` like any outage, and is replaced.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
import psycopg_pool.pool
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool
from psycopg_pool.base import AttemptWithBackoff

# Capped so a pool retries every second: an uncapped back-off after an outage nears the
# fault threshold beyond which the games in progress are voided.
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
            # Replaces psycopg_pool's own check, which Django passes and which queries
            # every checkout.
            pool._check = check_idle_connection
        return pool
