"""The platform starts the way `make run` starts it: honcho running platform/Procfile."""

from __future__ import annotations

import signal
import time
import urllib.request

import pytest

from games.models import Heartbeat
from games.tasks import heartbeat
from tests.live import BIN, ROOT, free_port, platform_env, spawn, wait_for_http, wait_for_log

pytestmark = [pytest.mark.live]


def wait_until(predicate, timeout: float, message: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(message)


def test_procfile_serves_the_site_and_runs_a_task_through_the_real_broker(
    transactional_db, tmp_path
):
    port = free_port()
    # A long heartbeat interval keeps beat quiet, so the row we wait for is the task we sent.
    env = platform_env(WEB_PORT=str(port), HEARTBEAT_SECONDS="3600")
    honcho = spawn(
        "honcho",
        [str(BIN / "honcho"), "--procfile", str(ROOT / "platform" / "Procfile"), "start"],
        env,
        tmp_path,
    )
    try:
        wait_for_http(f"http://127.0.0.1:{port}/", honcho, timeout=40)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
            assert response.status == 200
            assert b"Spectacular Bid" in response.read()
        wait_for_log(honcho, "ready.", timeout=40)

        before = Heartbeat.objects.count()
        heartbeat.delay()
        wait_until(
            lambda: Heartbeat.objects.count() > before,
            timeout=20,
            message=f"the worker never ran the task:\n{honcho.log()[-4000:]}",
        )
    finally:
        # Ctrl-C, as a person stops `make run`: both processes must exit cleanly.
        code = honcho.stop(signal.SIGINT, timeout=30)
    log = honcho.log()
    assert "web.1 stopped" in log and "worker.1 stopped" in log, log
    assert "SIGKILL" not in log, "a process outlived honcho's grace period:\n" + log
    assert code in (0, 130, -2), log
