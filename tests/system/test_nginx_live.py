"""platform/nginx.conf in front of two real Daphne processes: the address the platform
decides is the one nginx saw, whatever the client forged, and each address is held to its
share of requests and of open sockets (docs/fair-play.md, "Addresses and limits").

Runs Debian's nginx on the file as shipped, its two upstreams pointed at this test's Daphne
processes and its port at a free one; the processes serve tests/system/address_echo.py.
"""

from __future__ import annotations

import asyncio
import http.client
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import websockets

from tests.ci_guard import IN_CI
from tests.live import PROCFILE, free_port, live_platform, wait_until

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

NGINX = Path("/usr/sbin/nginx")
ECHO = "tests.system.address_echo:application"
# What nginx.conf allows an address (its limit_req and limit_conn lines).
BURST, SOCKETS = 60, 30


def _answers(port: int) -> bool:
    try:
        return _status(port)[0] == 200
    except OSError:
        return False


def _status(port: int, forwarded: str = "") -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/", headers={"X-Forwarded-For": forwarded} if forwarded else {})
    response = connection.getresponse()
    return response.status, response.read().decode(errors="replace")


@pytest.fixture
def nginx_port() -> Iterator[int]:
    """nginx serving platform/nginx.conf on a free port, in front of two echoing Daphnes
    that believe it (TRUSTED_PROXIES, as compose sets)."""
    if not NGINX.exists():
        if IN_CI:
            pytest.fail(f"CI=true and no nginx at {NGINX}", pytrace=False)
        pytest.skip(f"no nginx at {NGINX}")
    env = {"TRUSTED_PROXIES": "127.0.0.1"}
    with (
        live_platform(web=2, worker=False, asgi=ECHO, env=env) as web,
        tempfile.TemporaryDirectory(prefix="nginx-") as tmp,
    ):
        port = free_port()
        site = (PROCFILE.parent / "nginx.conf").read_text()
        for index, name in enumerate(("web1:8000", "web2:8000")):
            assert name in site
            site = site.replace(name, f"127.0.0.1:{web.web_ports[index]}")
        assert "listen 80;" in site
        site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
        folder = Path(tmp)
        (folder / "site.conf").write_text(site)
        (folder / "nginx.conf").write_text(
            f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\nevents {{}}\n"
            f"http {{\n access_log off;\n client_body_temp_path {folder};\n"
            f" proxy_temp_path {folder};\n include {folder}/site.conf;\n}}\n"
        )
        config = ["-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")]
        checked = subprocess.run([NGINX, "-t", *config], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        nginx = subprocess.Popen([NGINX, *config, "-g", "daemon off;"])
        try:
            wait_until(lambda: _answers(port), 15, "nginx did not answer")
            yield port
        finally:
            nginx.terminate()
            nginx.wait(10)


def test_a_forged_header_does_not_pass_nginx(nginx_port: int) -> None:
    # nginx overwrites the header with the peer it sees: the client's own address.
    assert _status(nginx_port, "198.51.100.9") == (200, "127.0.0.1")

    async def socket_address() -> str:
        headers = {"X-Forwarded-For": "198.51.100.9"}
        url = f"ws://127.0.0.1:{nginx_port}/ws/x/"
        async with websockets.connect(url, additional_headers=headers) as socket:
            return str(await asyncio.wait_for(socket.recv(), 10))

    assert asyncio.run(socket_address()) == "127.0.0.1"


def test_an_address_past_its_burst_of_requests_is_answered_429(nginx_port: int) -> None:
    # Three bursts' worth at once, from one address, forged headers changing nothing.
    with ThreadPoolExecutor(8) as pool:
        answers = list(
            pool.map(lambda k: _status(nginx_port, f"198.51.100.{k % 250}")[0], range(3 * BURST))
        )
    assert set(answers) == {200, 429}
    assert answers.count(200) >= BURST
    # The address is served again once its rate has refilled the burst.
    wait_until(lambda: _status(nginx_port)[0] == 200, 10, "the address stayed refused")


def test_an_address_holds_a_bounded_number_of_sockets_open(nginx_port: int) -> None:
    async def open_sockets() -> tuple[int, int]:
        url = f"ws://127.0.0.1:{nginx_port}/ws/hold/"
        held, refused = [], 0
        try:
            for _ in range(SOCKETS + 5):
                try:
                    socket = await websockets.connect(url)
                except websockets.InvalidStatus as error:
                    assert error.response.status_code == 429
                    refused += 1
                else:
                    held.append(socket)
                    await asyncio.wait_for(socket.recv(), 10)
            return len(held), refused
        finally:
            for socket in held:
                await socket.close()

    # Fewer connects than the burst of requests: only the open sockets' limit refuses.
    assert SOCKETS + 5 < BURST
    assert asyncio.run(open_sockets()) == (SOCKETS, 5)
