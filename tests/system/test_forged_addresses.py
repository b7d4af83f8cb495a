"""A forged X-Forwarded-For through a real Daphne, started with the Procfile's arguments:
the socket's and the page's address stay the client's, and the log-in lock-out holds.

Without TRUSTED_PROXIES the test is a client reaching Daphne itself; with 127.0.0.1 named,
it is the proxy, and the last X-Forwarded-For entry is the client it speaks for.
"""

from __future__ import annotations

import asyncio
import http.client
import re
import shlex
import sys
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
import websockets
from django.contrib.auth import get_user_model
from django.test import override_settings

from tests.live import PROCFILE, LivePlatform, live_platform

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

CLIENT = "203.0.113.7"
ECHO = "tests.system.address_echo:application"


def procfile_daphne_args(port: int, asgi: str) -> list[str]:
    """The Procfile's web command for `port`, serving `asgi`."""
    line = next(line for line in PROCFILE.read_text().splitlines() if line.startswith("web:"))
    line = re.sub(r"\$\{WEB_HOST:-[^}]*\}", "127.0.0.1", line.removeprefix("web:"))
    line = re.sub(r"\$\{WEB_PORT:-[^}]*\}", str(port), line)
    args = shlex.split(line)
    assert args[0] == "python" and "$" not in line
    return [sys.executable, *args[1:-1], asgi]


@pytest.fixture
def procfile_daphne(monkeypatch: Any) -> None:
    monkeypatch.setattr("tests.live.daphne_args", procfile_daphne_args)


def test_no_daphne_takes_proxy_headers_itself() -> None:
    assert "--proxy-headers" not in procfile_daphne_args(8000, ECHO)
    compose = (PROCFILE.parent / "compose.yaml").read_text()
    assert "infra.server" in compose and "--proxy-headers" not in compose
    nginx = (PROCFILE.parent / "nginx.conf").read_text()
    assert "X-Forwarded-For $remote_addr;" in nginx and "$proxy_add_x_forwarded_for" not in nginx


def _http_address(web: LivePlatform, forwarded: str) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", web.web_ports[0], timeout=10)
    connection.request("GET", "/", headers={"X-Forwarded-For": forwarded})
    return connection.getresponse().read().decode()


def _socket_address(web: LivePlatform, forwarded: str) -> str:
    async def run() -> str:
        headers = {"X-Forwarded-For": forwarded}
        async with websockets.connect(f"{web.ws_url()}/ws/x/", additional_headers=headers) as ws:
            return str(await asyncio.wait_for(ws.recv(), 10))

    return asyncio.run(run())


@pytest.mark.parametrize("trusted", ["", "127.0.0.1"])
def test_what_daphne_gives_the_address_function_ignores_a_forged_header(
    procfile_daphne: None, trusted: str
) -> None:
    with live_platform(worker=False, asgi=ECHO, env={"TRUSTED_PROXIES": trusted}) as web:
        forged = f"198.51.100.9, 127.0.0.1, {CLIENT}"
        expected = CLIENT if trusted else "127.0.0.1"
        assert _http_address(web, forged) == expected
        assert _socket_address(web, forged) == expected
        assert _http_address(web, "1.2.3.4") == ("1.2.3.4" if trusted else "127.0.0.1")


class Browser:
    """A page's cookies and CSRF token, over plain http.client (no redirects followed)."""

    def __init__(self, web: LivePlatform) -> None:
        self.port = web.web_ports[0]
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: str = "", **headers: str) -> Any:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        response.text = response.read().decode()
        return response

    def log_in(self, username: str, password: str, forwarded: str) -> int:
        page = self.request("GET", "/accounts/login/", **{"X-Forwarded-For": forwarded})
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert token, page.text[:500]
        form = {"username": username, "password": password, "csrfmiddlewaretoken": token[1]}
        answer = self.request(
            "POST", "/accounts/login/", urlencode(form), **{"X-Forwarded-For": forwarded}
        )
        return int(answer.status)


@pytest.fixture
def web(django_db_setup: None, procfile_daphne: None) -> Iterator[LivePlatform]:
    with live_platform(worker=False, env={"TRUSTED_PROXIES": "127.0.0.1"}) as platform:
        yield platform


def test_rotating_forged_headers_stay_locked_out_through_daphne(web: LivePlatform) -> None:
    password = "a-long-right-password"
    # The platform's own hasher: the test process's fast one is not among Daphne's.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"]):
        get_user_model().objects.create_user(username="victim", password=password)
    for _ in range(4):
        assert Browser(web).log_in("victim", "wrong", CLIENT) == 200
    assert Browser(web).log_in("victim", "wrong", CLIENT) == 429  # the fifth locks
    # The proxy (this test, trusted) speaks for CLIENT; what CLIENT forged on the left is
    # the header a proxy that appends would have sent on.
    for k in range(20):
        forged = f"198.51.100.{k + 1}, 127.0.0.1, {CLIENT}"
        assert Browser(web).log_in("victim", f"guess{k}", forged) == 429
    assert Browser(web).log_in("victim", password, f"198.51.100.99, {CLIENT}") == 429
    # Another client behind the same proxy is not locked out.
    assert Browser(web).log_in("victim", password, "203.0.113.8") == 302


def test_socket_connections_per_address_through_daphne(
    django_db_setup: None, procfile_daphne: None
) -> None:
    """Rotating forged headers straight to Daphne: the 4th socket in the minute is told to
    try again later (4503), before its session is read; the first three reach the sign-in
    check (4401, anonymous)."""
    env = {"TRUSTED_PROXIES": "", "WS_CONNECTS_PER_ADDRESS_PER_MINUTE": "3"}

    async def close_codes(web: LivePlatform) -> list[int]:
        codes = []
        for k in range(5):
            headers = {"X-Forwarded-For": f"198.51.100.{k + 1}", "Origin": "http://127.0.0.1"}
            async with websockets.connect(
                f"{web.ws_url()}/ws/lobby/", additional_headers=headers
            ) as ws:
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(ws.recv(), 10)
                assert closed.value.rcvd is not None
                codes.append(closed.value.rcvd.code)
        return codes

    with live_platform(worker=False, env=env) as web:
        assert asyncio.run(close_codes(web)) == [4401, 4401, 4401, 4503, 4503]
