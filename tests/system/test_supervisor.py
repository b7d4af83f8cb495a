"""tools.supervisor on a Procfile of small Python processes: restarts, and stopping."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from tests.live import Process, spawn, started_pids, supervisor_args, wait_for_log, wait_until

pytestmark = [pytest.mark.live]

# Prints its pid, then waits; `stubborn` ignores SIGTERM so only SIGKILL ends it.
CHILD = "import os, signal, sys, time; {setup}print('up', os.getpid(), flush=True); time.sleep(600)"


def procfile(tmp_path: Path, **children: str) -> Path:
    path = tmp_path / "Procfile"
    lines = [
        f'{name}: {sys.executable} -c "{CHILD.format(setup=setup)}"'
        for name, setup in children.items()
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def start(tmp_path: Path, path: Path, grace: str = "10") -> Process:
    env = dict(os.environ, SUPERVISOR_GRACE=grace, PYTHONUNBUFFERED="1")
    return spawn("supervisor", supervisor_args(path), env, tmp_path)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_a_killed_child_is_restarted_alone_and_a_signal_stops_everything(tmp_path, stop_signal):
    supervisor = start(tmp_path, procfile(tmp_path, one="", two=""))
    try:
        wait_until(lambda: supervisor.log().count("| up ") == 2, 20, supervisor.log())
        [one], [two] = started_pids(supervisor, "one"), started_pids(supervisor, "two")

        os.kill(one, signal.SIGKILL)
        wait_until(lambda: len(started_pids(supervisor, "one")) == 2, 20, supervisor.log())
        wait_for_log(supervisor, "one exited with code -9")
        wait_until(lambda: supervisor.log().count("| up ") == 3, 20, supervisor.log())
        assert alive(two) and started_pids(supervisor, "two") == [two], supervisor.log()
        restarted = started_pids(supervisor, "one")[1]
    finally:
        code = supervisor.stop(stop_signal, timeout=30)
    log = supervisor.log()
    assert code == 0, log
    assert "one stopped" in log and "two stopped" in log, log
    assert "SIGKILL" not in log, log
    assert not alive(restarted) and not alive(two), log


def test_a_child_that_ignores_sigterm_is_killed_after_the_grace_period(tmp_path):
    stubborn = "signal.signal(signal.SIGTERM, signal.SIG_IGN); "
    supervisor = start(tmp_path, procfile(tmp_path, stubborn=stubborn), grace="1")
    try:
        wait_for_log(supervisor, "| up ")
        [pid] = started_pids(supervisor, "stubborn")
    finally:
        code = supervisor.stop(signal.SIGTERM, timeout=30)
    log = supervisor.log()
    assert code == 0, log
    assert "stubborn still running, sending SIGKILL" in log, log
    assert "stubborn stopped (code -9)" in log, log
    assert not alive(pid)
