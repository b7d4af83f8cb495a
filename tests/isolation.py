"""Give every test process its own Redis key prefix and Celery queue.

Loaded through `-p tests.isolation` before Django reads its settings, so the test process
and the Daphne/Celery subprocesses it starts (which inherit the environment) agree on
them, while another test run on the same machine, or a `make run`, never sees their
messages.
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("CHANNELS_PREFIX", f"test{os.getpid()}")
os.environ.setdefault("CELERY_QUEUE", f"test{os.getpid()}")


def pytest_unconfigure(config: object) -> None:
    # Django removes the SQLite test database file but not its WAL and shared-memory files.
    var = Path(__file__).resolve().parent.parent / "var"
    for leftover in var.glob(f"test-db-{os.getpid()}.sqlite3*"):
        leftover.unlink(missing_ok=True)
