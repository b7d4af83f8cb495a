"""The deployment files build and start what they name: the Dockerfile, platform/compose.yaml
and the image's health check.

Docker cannot run here, so the files are read: every command of a service of the image
names a module that imports (and an attribute it has, a management command that exists),
every environment name given to those services is a setting or a documented process
variable, and the Dockerfile keeps its promises (a slim base, the hashed lock, static files
collected at build, a user that is not root, a health check that imports).
"""

from __future__ import annotations

import importlib
import shlex
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml
from celery import Celery
from celery.app.utils import find_app
from django.core.management import get_commands

from infra import healthcheck
from tests.docs.test_docs_cover_the_code import settings_read

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = ROOT / "platform"
IMAGE = "spectacular-bid"


def compose() -> dict[str, Any]:
    return yaml.safe_load((PLATFORM / "compose.yaml").read_text())


def image_services() -> dict[str, dict[str, Any]]:
    """The services that run the platform's image (built from the Dockerfile)."""
    return {
        name: service
        for name, service in compose()["services"].items()
        if "build" in service or service.get("image") == IMAGE
    }


def modules_named(command: str) -> list[str]:
    """What a command starts, checked by `check_names`: `-m module`, `--app module`,
    `module:attribute`, and `manage.py <command>` as `manage:<command>`."""
    words = shlex.split(command)
    named = []
    for i, word in enumerate(words):
        if word in ("-m", "--app", "-A") and i + 1 < len(words):
            named.append(("celery-app:" if word != "-m" else "") + words[i + 1])
        elif word == "manage.py" and i + 1 < len(words):
            named.append(f"manage:{words[i + 1]}")
        elif ":" in word and not word.startswith(("-", "/")) and "." in word.split(":")[0]:
            named.append(word)
    return named


def check_names(named: str) -> None:
    if named.startswith("celery-app:"):
        assert isinstance(find_app(named.removeprefix("celery-app:")), Celery), named
    elif named.startswith("manage:"):
        assert (ROOT / "manage.py").is_file()
        assert named.removeprefix("manage:") in get_commands(), named
    elif ":" in named:
        module, attribute = named.split(":")
        assert hasattr(importlib.import_module(module), attribute), named
    else:
        importlib.import_module(named)


def test_the_compose_file_builds_the_dockerfile() -> None:
    services = image_services()
    assert {"migrate", "web1", "web2", "worker1", "worker2", "beat"} <= set(services)
    for service in services.values():
        build = service["build"]
        context = (PLATFORM / build["context"]).resolve()
        assert (context / build["dockerfile"]).is_file()
        assert (context / ".dockerignore").is_file()


def test_every_command_names_a_module_that_imports() -> None:
    for name, service in image_services().items():
        named = modules_named(service["command"])
        assert named, f"{name}: no module found in {service['command']!r}"
        for each in named:
            check_names(each)


def _env_file_names(path: Path) -> set[str]:
    lines = (line.strip() for line in path.read_text().splitlines())
    return {line.split("=", 1)[0] for line in lines if line and not line.startswith("#")}


def process_variables() -> set[str]:
    """The variables docs/operations.md lists as read by the processes, not the settings."""
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("### Processes", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in row.split("|")[1].split("`")[1::2]}


def test_every_environment_name_is_a_setting() -> None:
    variables, _names = settings_read()
    known = variables | process_variables()
    for name, service in image_services().items():
        given = set(service.get("environment") or {})
        env_files = service.get("env_file") or []
        for env_file in [env_files] if isinstance(env_files, str) else env_files:
            given |= _env_file_names(PLATFORM / env_file)
        assert given, name
        assert not given - known, f"{name}: not settings: {sorted(given - known)}"


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) per instruction, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def test_the_dockerfile_keeps_its_promises() -> None:
    steps = dockerfile()
    bases = [arguments for instruction, arguments in steps if instruction == "FROM"]
    assert bases and all("-slim" in base for base in bases)
    runs = " ".join(arguments for instruction, arguments in steps if instruction == "RUN")
    assert "--require-hashes" in runs and "requirements.lock" in runs
    assert "collectstatic" in runs
    final = steps[max(i for i, (instruction, _) in enumerate(steps) if instruction == "FROM") :]
    users = [arguments for instruction, arguments in final if instruction == "USER"]
    assert users and users[-1] not in ("root", "0")
    [check] = [arguments for instruction, arguments in final if instruction == "HEALTHCHECK"]
    assert '"-m", "infra.healthcheck"' in check
    importlib.import_module("infra.healthcheck")
    [command] = [arguments for instruction, arguments in final if instruction == "CMD"]
    for named in modules_named(" ".join(yaml.safe_load(command))):
        check_names(named)
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "node_modules", "var"} <= set(ignored)


@pytest.mark.parametrize(
    ("allowed", "host"),
    [
        ("bid.example.com", "bid.example.com"),
        (" .example.com,bid.example.com", "health.example.com"),
        ("*", "127.0.0.1"),
        ("", "127.0.0.1"),
    ],
)
def test_the_health_check_names_an_allowed_host(allowed: str, host: str) -> None:
    assert healthcheck.health_host(allowed) == host


@pytest.fixture
def health_server() -> Iterator[tuple[int, list[int]]]:
    """A server answering /health/ with the next status of its list, 400 to a request
    that is not what Django behind the proxy accepts."""
    statuses: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            proper = (
                self.path == "/health/"
                and self.headers["Host"] == "bid.example.com"
                and self.headers["X-Forwarded-Proto"] == "https"
            )
            self.send_response(statuses.pop(0) if proper else 400)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], statuses
    server.shutdown()
    server.server_close()


def test_the_health_check_passes_only_on_200(
    health_server: tuple[int, list[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    port, statuses = health_server
    monkeypatch.setenv("ALLOWED_HOSTS", "bid.example.com")
    statuses += [200, 503]
    assert healthcheck.main(["healthcheck", str(port)]) == 0
    assert healthcheck.main(["healthcheck", str(port)]) == 1
    monkeypatch.setenv("ALLOWED_HOSTS", "other.example.com")  # answered 400
    assert healthcheck.main(["healthcheck", str(port)]) == 1
