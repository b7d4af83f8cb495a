"""Give every test process its own Redis key prefix and Celery queue.

Loaded through `-p tests.isolation` before Django reads its settings, so the test process
and the Daphne/Celery subprocesses it starts (which inherit the environment) agree on
them, while another test run on the same machine, or a `make run`, never sees their
messages. A pytest-xdist worker inherits the names its controller took: it takes its own
(their test databases differ, and so do the games behind the same ids). A name set in the
environment before the run is kept.
"""

from __future__ import annotations

import os
from pathlib import Path

TAKEN = "TESTS_ISOLATION_TOOK"  # the names a test process above this one set

_taken = set(filter(None, os.environ.get(TAKEN, "").split(",")))
for _name, _suffix in (("CHANNELS_PREFIX", ""), ("CELERY_QUEUE", ""), ("REVIEW_QUEUE", "-review")):
    if _name not in os.environ or _name in _taken:
        os.environ[_name] = f"test{os.getpid()}{_suffix}"
        _taken.add(_name)
os.environ[TAKEN] = ",".join(sorted(_taken))


def pytest_unconfigure(config: object) -> None:
    # Django removes the SQLite test database file but not its WAL and shared-memory files.
    var = Path(__file__).resolve().parent.parent / "var"
    for leftover in var.glob(f"test-db-{os.getpid()}.sqlite3*"):
        leftover.unlink(missing_ok=True)
