"""`make run`'s process supervisor, in place of honcho or supervisord: honcho stops every
process when one exits, and supervisord needs a configuration of its own and gives up on a
process that keeps failing at start (docs/decisions/process-supervisor.md).

    .venv/bin/python -m tools.supervisor platform/Procfile

Each Procfile line runs through /bin/sh (so `${WEB_PORT:-8000}` works) in its own process
group, its output prefixed with its name. A child that exits is restarted alone after a
back-off, once whatever it left in its group is stopped. SIGINT or SIGTERM stops them all:
SIGTERM, then SIGKILL after `SUPERVISOR_GRACE` (longer than the worker's warm shutdown); a
second one kills at once.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import IO

FIRST_DELAY = 1.0
MAX_DELAY = 30.0
STABLE_AFTER = 60.0  # seconds up after which a crash counts as a first one again
GRACE = float(os.environ.get("SUPERVISOR_GRACE", "30"))
POLL = 0.2

PROCFILE_LINE = re.compile(r"^([A-Za-z0-9_-]+):\s*(.+)$")

_output_lock = threading.Lock()


def emit(name: str, text: str) -> None:
    stamp = datetime.now(UTC).strftime("%H:%M:%S")
    with _output_lock:
        sys.stdout.write(f"{stamp} {name:<10} | {text}\n")
        sys.stdout.flush()


def parse_procfile(text: str) -> dict[str, str]:
    commands: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = PROCFILE_LINE.match(line.strip())
        if not match:
            raise ValueError(f"not a Procfile line: {line!r}")
        commands[match[1]] = match[2]
    return commands


@dataclass
class Child:
    name: str
    command: str
    popen: subprocess.Popen | None = None
    started_at: float = 0.0
    restarts: int = 0
    delay: float = FIRST_DELAY
    restart_at: float | None = None
    readers: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        # `exec` so the shell becomes the process and our signals reach it, not a wrapper.
        # A session of its own: Ctrl-C at the terminal reaches only the supervisor, which
        # then stops the children in order rather than all of them racing at once.
        self.popen = subprocess.Popen(
            ["/bin/sh", "-c", f"exec {self.command}"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        self.started_at = time.monotonic()
        self.restart_at = None
        reader = threading.Thread(target=self._forward, args=(self.popen.stdout,), daemon=True)
        reader.start()
        self.readers = [reader]
        emit("supervisor", f"started {self.name} (pid {self.popen.pid}): {self.command}")

    def _forward(self, stream: IO[bytes]) -> None:
        for raw in iter(stream.readline, b""):
            emit(self.name, raw.decode(errors="replace").rstrip("\n"))
        stream.close()

    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def signal_group(self, sig: int) -> None:
        if self.popen is not None:
            with suppress(ProcessLookupError):  # already gone
                os.killpg(self.popen.pid, sig)

    def check(self, now: float) -> None:
        """Notice an exit and schedule the restart; start it once the back-off is over."""
        if self.popen is None:
            return
        if self.restart_at is None and self.popen.poll() is not None:
            if now - self.started_at >= STABLE_AFTER:
                self.delay = FIRST_DELAY
            self.restart_at = now + self.delay
            self.restarts += 1
            emit(
                "supervisor",
                f"{self.name} exited with code {self.popen.returncode} after "
                f"{now - self.started_at:.1f} s; restart #{self.restarts} in {self.delay:.0f} s",
            )
            self.delay = min(self.delay * 2, MAX_DELAY)
            # What it started may outlive it (Celery's embedded beat is a child process):
            # left running, a restart would add a second beat.
            self.signal_group(signal.SIGTERM)
        elif self.restart_at is not None and now >= self.restart_at:
            self.signal_group(signal.SIGKILL)  # whatever ignored the SIGTERM
            for reader in self.readers:
                reader.join(1)  # the last lines of the dead process first
            self.start()


class Supervisor:
    def __init__(self, commands: dict[str, str]) -> None:
        self.children = [Child(name, command) for name, command in commands.items()]
        self.stop_requests = 0

    def request_stop(self, signum: int, _frame: FrameType | None) -> None:
        self.stop_requests += 1
        emit("supervisor", f"{signal.Signals(signum).name} received, stopping")

    def run(self) -> int:
        signal.signal(signal.SIGINT, self.request_stop)
        signal.signal(signal.SIGTERM, self.request_stop)
        for child in self.children:
            child.start()
        while not self.stop_requests:
            now = time.monotonic()
            for child in self.children:
                child.check(now)
            time.sleep(POLL)
        self.stop()
        return 0

    def stop(self) -> None:
        running = [child for child in self.children if child.running()]
        for child in running:
            child.signal_group(signal.SIGTERM)
        deadline = time.monotonic() + GRACE
        # A second Ctrl-C means "now": skip the rest of the grace period.
        while self._alive(running) and time.monotonic() < deadline and self.stop_requests < 2:
            time.sleep(POLL)
        for child in self._alive(running):
            emit("supervisor", f"{child.name} still running, sending SIGKILL")
            child.signal_group(signal.SIGKILL)
        for child in running:
            assert child.popen is not None
            child.popen.wait()
            for reader in child.readers:
                reader.join(1)
            emit("supervisor", f"{child.name} stopped (code {child.popen.returncode})")

    @staticmethod
    def _alive(children: Iterable[Child]) -> list[Child]:
        return [child for child in children if child.running()]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tools.supervisor PROCFILE", file=sys.stderr)
        return 2
    commands = parse_procfile(Path(argv[0]).read_text())
    if not commands:
        print(f"{argv[0]}: no processes", file=sys.stderr)
        return 2
    return Supervisor(commands).run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
