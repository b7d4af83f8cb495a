"""Under CI=true a missing service is a failure, never a silent skip.

Loaded for every run through `-p tests.ci_guard` in pyproject.toml.
"""

from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path
from urllib.parse import urlparse

import pytest

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
CHROMIUM = "/usr/bin/chromium"


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), 3
        ):
            return True
    except OSError:
        return False


def missing_services() -> list[str]:
    problems = []
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")):
        problems.append("DATABASE_URL does not point at PostgreSQL")
    elif not _reachable(database_url, 5432):
        problems.append(f"PostgreSQL is not reachable at {database_url}")
    if not redis_url:
        problems.append("REDIS_URL is not set")
    elif not _reachable(redis_url, 6379):
        problems.append(f"Redis is not reachable at {redis_url}")
    if not shutil.which(CHROMIUM):
        problems.append(f"Chromium is missing at {CHROMIUM}")
    return problems


def pytest_configure(config: pytest.Config) -> None:
    if IN_CI and (problems := missing_services()):
        raise pytest.UsageError("CI=true but: " + "; ".join(problems))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, which is a failure: {report.longrepr}"


def node_or_skip(purpose: str) -> str:
    """Node.js's path; a skip without it, and a failure under CI=true (`purpose` says what)."""
    node = shutil.which("node") or ("/usr/bin/node" if Path("/usr/bin/node").exists() else None)
    if node is None:
        if IN_CI:
            pytest.fail(f"CI=true but node is not installed: {purpose} cannot run")
        pytest.skip("node is not installed")
    return node
