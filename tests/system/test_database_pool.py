"""config.postgresql: a pooled connection is checked by the server only when it spoke.

The server says goodbye to a connection it ends (a restart, an administrator); a healthy
checkout must not cost a round trip.
"""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

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
