"""`make run`'s platform in a folder of its own, for the benchmarks that measure it as a
newcomer first meets it: SQLite, the in-memory channel layer, the filesystem broker, Daphne
and a Celery worker with beat under tools.local_run."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def platform_environment(folder: Path, port: int) -> dict[str, str]:
    """`make run`'s defaults, with the database, broker and secret of this run's own folder."""
    env = dict(os.environ)
    for name in ("REDIS_URL", "DATABASE_URL"):
        env.pop(name, None)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "BROKER_DIR": str(folder / "broker"),
            "BEAT_SCHEDULE": str(folder / "beat-schedule"),
            "SECRET_KEY": secrets.token_urlsafe(50),
            "WEB_PORT": str(port),
            "PYTHONUNBUFFERED": "1",
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        }
    )
    return env


def wait_for_http(url: str, platform: subprocess.Popen[bytes], timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if platform.poll() is not None:
            raise RuntimeError("the platform exited while starting")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer in {timeout:.0f} s")


@contextmanager
def embedded_platform() -> Iterator[str]:
    """The platform's URL; this process's environment points at its database and broker,
    so that Django here reads and writes what the platform does."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="embedded-bench-") as folder_name:
        folder = Path(folder_name)
        env = platform_environment(folder, port)
        os.environ.update(env)
        log = (folder / "platform.log").open("wb")
        platform = subprocess.Popen(
            [sys.executable, "-m", "tools.local_run"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            wait_for_http(url, platform, timeout=120)
            yield url
        except Exception:
            sys.stderr.write((folder / "platform.log").read_text(errors="replace")[-3000:])
            raise
        finally:
            os.killpg(platform.pid, signal.SIGINT)
            platform.wait(60)
