"""infra.postgresql: a pooled connection is checked by the server only when it spoke.

The server says goodbye to a connection it ends (a restart, an administrator); a healthy
checkout must not cost a round trip.
"""

from __future__ import annotations

import time

import psycopg
import psycopg_pool
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from infra.postgresql.base import RECONNECT_MAX_DELAY
from tests.live import database_proxy

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's pool"),
    pytest.mark.django_db(transaction=True),
]


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


@pytest.fixture
def server_checks(monkeypatch) -> list[int]:
    """Each round trip the pool's check makes, by the checked connection's backend."""
    checks: list[int] = []
    real = ConnectionPool.check_connection

    def counted(conn: psycopg.Connection) -> None:
        checks.append(conn.info.backend_pid)
        real(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    # A pool made before took its check then: the next use makes one with this one.
    connection.close()
    if connection.alias in connection._connection_pools:
        connection.close_pool()
    return checks


def test_a_healthy_checkout_asks_the_server_nothing(server_checks) -> None:
    first = backend_pid()
    connection.close()  # back to the pool
    assert backend_pid() == first  # the same connection, handed out again
    connection.close()
    assert server_checks == []


def test_a_connection_the_server_ended_is_replaced_before_anyone_uses_it(server_checks) -> None:
    ended = backend_pid()
    connection.close()
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [ended])
    time.sleep(0.2)  # the goodbye reaches the pooled connection's socket
    assert backend_pid() != ended  # no error: the pool replaced it
    assert server_checks == [ended]


@pytest.mark.soak  # the database away for 8 s
def test_a_pool_reconnects_within_a_second_or_so_of_the_database_coming_back() -> None:
    """psycopg_pool's own back-off doubles without bound (1, 2, 4, 8 s…): after an 8 s stop
    its next attempt came up to 7 s after the database was back (infra.postgresql)."""
    proxy, conninfo = database_proxy()  # a postgres:// URL, which libpq reads as it is
    pool = ConnectionPool(conninfo, min_size=1, max_size=1, timeout=0.5, open=True)
    try:
        pool.wait(timeout=10)
        proxy.cut()
        with pytest.raises(psycopg.OperationalError), pool.connection() as conn:
            conn.execute("SELECT 1")  # broken: the pool drops it and reconnects, backing off
        time.sleep(8.0)
        proxy.restore()
        back = time.monotonic()
        while True:
            try:
                with pool.connection(timeout=0.5) as conn:
                    conn.execute("SELECT 1")
                break
            except psycopg_pool.PoolTimeout:
                assert time.monotonic() - back < 10, "the pool never reconnected"
        waited = time.monotonic() - back
    finally:
        pool.close()
        proxy.close()
    assert waited < RECONNECT_MAX_DELAY + 1.0, waited
