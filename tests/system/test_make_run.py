"""The platform runs the way `make run` runs it: tools.local_run, then tools.supervisor on
platform/Procfile."""

from __future__ import annotations

import os
import signal
import urllib.error
import urllib.request
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from lobby.challenges import challenge_create
from lobby.models import Challenge
from lobby.tasks import challenges_expire
from tests.live import (
    BIN,
    free_port,
    platform_env,
    spawn,
    started_pids,
    wait_for_http,
    wait_for_log,
    wait_until,
)
from tools.local_run import local_environment

pytestmark = [pytest.mark.live]


def serves_the_site(port: int) -> bool:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
        return response.status == 200 and b"Spectacular Bid" in response.read()


def missing_page(port: int, language: str) -> tuple[int, str]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/no-such-page/", headers={"Accept-Language": language}
    )
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request, timeout=5)
    return answer.value.code, answer.value.read().decode()


def group_is_empty(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return True
    return False


def runs_a_task(log: Callable[[], str]) -> None:
    """Send the worker a task whose effect shows in the database: expiring a challenge."""
    user, _ = get_user_model().objects.get_or_create(username="task-probe")
    challenge = challenge_create(challenger=user)
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=timezone.now())
    challenges_expire.delay()
    wait_until(
        lambda: Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.EXPIRED,
        timeout=30,
        message=f"the worker never ran the task:\n{log()[-4000:]}",
    )


def test_procfile_serves_the_site_restarts_a_killed_worker_and_stops_on_ctrl_c(
    transactional_db, tmp_path
):
    port = free_port()
    environ = platform_env(WEB_PORT=str(port), BEAT_SCHEDULE=str(tmp_path / "beat-schedule"))
    environ.pop("DEBUG", None)
    env = local_environment(environ, tmp_path)
    # What `make run` runs: it migrates, collects the static files, then becomes the supervisor.
    supervisor = spawn("supervisor", [str(BIN / "python"), "-m", "tools.local_run"], env, tmp_path)
    try:
        wait_for_http(f"http://127.0.0.1:{port}/", supervisor, timeout=60)
        assert serves_the_site(port)
        # DEBUG off: a bad address gets the site's own page, in the reader's language.
        code, page = missing_page(port, "es")
        assert code == 404
        assert "Spectacular Bid" in page and 'lang="es"' in page
        assert "URLconf" not in page and "DEBUG = True" not in page
        wait_for_log(supervisor, "ready.", timeout=40)
        runs_a_task(supervisor.log)

        [web] = started_pids(supervisor, "web")
        [worker] = started_pids(supervisor, "worker")
        os.kill(worker, signal.SIGKILL)
        wait_for_log(supervisor, "worker exited with code -9", timeout=20)
        # Its embedded beat, a child process, goes too: a restart must not add a second beat.
        wait_until(lambda: group_is_empty(worker), timeout=20, message=supervisor.log()[-4000:])
        # Daphne is not touched while the worker comes back.
        assert serves_the_site(port)
        wait_until(
            lambda: len(started_pids(supervisor, "worker")) == 2,
            timeout=20,
            message=supervisor.log()[-4000:],
        )
        wait_until(
            lambda: supervisor.log().count("ready.") >= 2,
            timeout=40,
            message=supervisor.log()[-4000:],
        )
        runs_a_task(supervisor.log)
        assert started_pids(supervisor, "web") == [web]
        assert serves_the_site(port)
    finally:
        # Ctrl-C, as a person stops `make run`: every process must exit within the grace.
        code = supervisor.stop(signal.SIGINT, timeout=45)
    log = supervisor.log()
    assert "web stopped" in log and "worker stopped" in log, log
    assert "SIGKILL" not in log, "a process outlived the supervisor's grace period:\n" + log
    assert code == 0, log
