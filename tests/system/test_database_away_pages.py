"""A real PostgreSQL outage (a cut proxy in front of it) as a browser sees the pages: 503
with Retry-After and the page that asks again by itself, never a 500, and 200 again once it
is back; /health/ says the database is away and tells no one the details."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from tests.games.wsclient import session_cookie
from tests.live import database_proxy, live_platform

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def fetch(url: str, cookie: str | None = None, language: str = "en") -> tuple[int, Any, str]:
    headers = {"Accept-Language": language}
    if cookie:
        headers["Cookie"] = f"{settings.SESSION_COOKIE_NAME}={cookie}"
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def test_pages_during_a_database_stop(alice: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("an outage of a database server: PostgreSQL only (SQLite is a file)")
    cookie = session_cookie(alice)
    proxy, proxied = database_proxy()
    try:
        with live_platform(web=1, worker=False, env={"DATABASE_URL": proxied}) as platform:
            base = platform.url()
            assert fetch(f"{base}/lobby/", cookie)[0] == 200, platform.logs()
            proxy.cut()
            statuses = []
            for language in ("en", "es"):
                for path, who in [("/lobby/", cookie), ("/accounts/alice/", None), ("/", cookie)]:
                    status, headers, html = fetch(f"{base}{path}", who, language)
                    statuses.append((path, status))
                    assert status == 503, (path, status, platform.logs())
                    assert headers["Retry-After"] == "5"
                    assert "js/retry.js" in html and 'id="retry-now"' in html
                    assert f'<html lang="{language}">' in html
            status, _, body = fetch(f"{base}/health/", cookie)
            assert status == 503 and '"away": ["database"' in body and "last_keeper" not in body
            proxy.restore()
            deadline = time.monotonic() + 15
            while fetch(f"{base}/lobby/", cookie)[0] != 200:
                assert time.monotonic() < deadline, platform.logs()
                time.sleep(0.5)
            logs = platform.logs()
    finally:
        proxy.close()
    assert all(status == 503 for _, status in statuses)
    assert "Internal Server Error" not in logs
