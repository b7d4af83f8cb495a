"""Settings behave as docs/operations.md's configuration tables say, in a fresh process each."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.live import ROOT
from tools.local_run import local_environment


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_secret_key_and_debug_off_the_process_refuses_to_start():
    result = run_manage("check", DEBUG="false")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_check_deploy_passes_with_production_values():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY="x7#kq" * 12,
        ALLOWED_HOSTS="bid.example.com",
        CSRF_TRUSTED_ORIGINS="https://bid.example.com",
        SECURE_HSTS_PRELOAD="true",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_importing_the_settings_creates_no_folder(tmp_path):
    """A read-only image must be able to import them; folders are made where they are used."""
    broker = tmp_path / "broker"
    environment = dict(os.environ, BROKER_DIR=str(broker), REDIS_URL="")
    result = subprocess.run(
        [sys.executable, "-c", "import config.settings"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert not broker.exists()


def test_settings_accept_that_environment(tmp_path) -> None:
    """Django's own checks pass with it: DEBUG off does not refuse to start without a key."""
    env = local_environment({"PATH": "/usr/bin:/bin"}, tmp_path)
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings;"
            " print(settings.DEBUG, settings.SECURE_SSL_REDIRECT)",
        ],
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False"]
