"""Start the real platform processes (Daphne, Celery worker, the supervisor) for a test.

The processes run against the test database of the current test, so a test that uses them
must use the `transactional_db` fixture (or `django_db(transaction=True)`): its rows are then
committed and visible to the subprocesses. They share the test process's broker and channel
layer settings (Redis when REDIS_URL is set, the filesystem broker otherwise).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import websockets
from django.conf import settings
from django.db import connection

from tests.tcp_proxy import TcpProxy

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PROCFILE = ROOT / "platform" / "Procfile"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def database_url() -> str:
    """The URL of the database the current test uses (the test database, not the real one)."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    user = quote(db.get("USER") or "")
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{db['NAME']}"


def database_proxy() -> tuple[TcpProxy, str]:
    """A proxy to the test database that a test can cut (PostgreSQL), and the
    DATABASE_URL through it for the platform's processes; close the proxy after."""
    db = connection.settings_dict
    port = db.get("PORT") or 5432
    proxy = TcpProxy((db.get("HOST") or "127.0.0.1", int(port)))
    return proxy, database_url().replace(f":{port}/", f":{proxy.port}/")


def platform_env(**overrides: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url(),
            "PYTHONUNBUFFERED": "1",
            "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}",
        }
    )
    if not settings.REDIS_URL:
        env["BROKER_DIR"] = str(settings.BROKER_DIR)
    # Every test socket comes from 127.0.0.1: a test or benchmark of many sockets is not
    # about the per-address limit (tests/system/test_forged_addresses.py is, and sets it).
    env.setdefault("WS_CONNECTS_PER_ADDRESS_PER_MINUTE", "0")
    env.update(overrides)
    return env


@dataclass
class Process:
    name: str
    popen: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> int:
        if self.popen.poll() is None:
            with suppress(ProcessLookupError):
                os.killpg(self.popen.pid, sig)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                with suppress(ProcessLookupError):
                    os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(5)
        return int(self.popen.returncode)


@dataclass
class LivePlatform:
    web_ports: list[int] = field(default_factory=list)
    processes: list[Process] = field(default_factory=list)

    def url(self, index: int = 0) -> str:
        return f"http://127.0.0.1:{self.web_ports[index]}"

    def ws_url(self, index: int = 0) -> str:
        return f"ws://127.0.0.1:{self.web_ports[index]}"

    def logs(self) -> str:
        return "\n".join(f"--- {p.name} ---\n{p.log()[-6000:]}" for p in self.processes)


def spawn(name: str, args: list[str], env: dict[str, str], log_dir: Path) -> Process:
    log_path = log_dir / f"{name}.log"
    log_file = log_path.open("wb")
    popen = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True
    )
    return Process(name, popen, log_path)


def wait_for_http(url: str, process: Process, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.popen.poll() is not None:
            raise RuntimeError(f"{process.name} exited early:\n{process.log()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status < 500:
                    return
        except urllib.error.HTTPError as error:
            if error.code < 500:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer within {timeout} s:\n{process.log()}")


def wait_for_log(process: Process, needle: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if needle in process.log():
            return
        if process.popen.poll() is not None:
            raise RuntimeError(f"{process.name} exited early:\n{process.log()}")
        time.sleep(0.1)
    raise TimeoutError(f"{process.name} never logged {needle!r}:\n{process.log()}")


def supervisor_args(procfile: Path = PROCFILE) -> list[str]:
    """What `make run` runs once the database is migrated."""
    return [str(BIN / "python"), "-m", "tools.supervisor", str(procfile)]


def started_pids(supervisor: Process, name: str) -> list[int]:
    """Pids of each start of the Procfile process `name`, from the supervisor's log."""
    return [int(pid) for pid in re.findall(rf"started {name} \(pid (\d+)\)", supervisor.log())]


def wait_until(predicate: Callable[[], object], timeout: float, message: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(message)


PLATFORM_ASGI = "config.asgi:application"


def daphne_args(port: int, asgi: str = PLATFORM_ASGI) -> list[str]:
    # The Procfile's entry point: Daphne closing oversized messages with 1009 (infra/server.py).
    server = [sys.executable, "-m", "infra.server"]
    return [*server, "-b", "127.0.0.1", "-p", str(port), asgi]


def procfile_pool(procfile: Path = PROCFILE) -> list[str]:
    """The pool options of `make run`'s worker, as its Procfile line gives them by default."""
    text = procfile.read_text()
    pool = re.search(r"--pool \$\{CELERY_POOL:-(\w+)\}", text)
    concurrency = re.search(r"--concurrency \$\{CELERY_CONCURRENCY:-(\d+)\}", text)
    assert pool and concurrency, text
    return ["--pool", pool.group(1), "--concurrency", concurrency.group(1)]


def worker_args(*, beat: bool, schedule: Path, pool: list[str] | None = None) -> list[str]:
    args = [str(BIN / "celery"), "--app", "config", "worker", "--loglevel", "INFO"]
    args += [*(pool or ["--concurrency", "2"]), "--without-gossip", "--without-mingle"]
    # Both queues, as make run's one worker does; each test process has its own names.
    queues = (os.environ.get("CELERY_QUEUE", "celery"), os.environ.get("REVIEW_QUEUE", "review"))
    args += ["--queues", ",".join(queues)]
    if beat:
        args += ["--beat", "--schedule", str(schedule)]
    return args


def review_worker_args() -> list[str]:
    """platform/compose.yaml's review worker: the review queue only, prefork."""
    args = [str(BIN / "celery"), "--app", "config", "worker", "--loglevel", "INFO"]
    args += ["--queues", os.environ.get("REVIEW_QUEUE", "review"), "--pool", "prefork"]
    return [*args, "--concurrency", "2", "--without-gossip", "--without-mingle"]


@contextmanager
def live_platform(
    *,
    web: int = 1,
    worker: bool = True,
    beat: bool = False,
    env: dict[str, str] | None = None,
    asgi: str = PLATFORM_ASGI,
    pool: list[str] | None = None,
    review_worker: bool = False,
) -> Iterator[LivePlatform]:
    """Daphne on `web` free ports serving `asgi`, and optionally one Celery worker (with beat;
    with `pool`'s options, e.g. procfile_pool()), then a review worker as compose has."""
    platform = LivePlatform()
    with tempfile.TemporaryDirectory(prefix="live-") as tmp:
        log_dir = Path(tmp)
        environment = platform_env(**(env or {}))
        try:
            for index in range(web):
                port = free_port()
                platform.web_ports.append(port)
                platform.processes.append(
                    spawn(f"daphne-{index}", daphne_args(port, asgi), environment, log_dir)
                )
            if worker:
                args = worker_args(beat=beat, schedule=log_dir / "beat-schedule", pool=pool)
                worker_env = dict(environment)
                if platform.web_ports:  # as the Procfile does: embedded mode relays to the web
                    relay = f"http://127.0.0.1:{platform.web_ports[0]}/realtime/relay/"
                    worker_env["EMBEDDED_RELAY_URL"] = relay
                platform.processes.append(spawn("worker", args, worker_env, log_dir))
            if review_worker:  # no clock keeper there, as in compose
                review_env = {**environment, "CLOCK_KEEPER": "false"}
                reviews = spawn("review-worker", review_worker_args(), review_env, log_dir)
                platform.processes.append(reviews)
            for index, port in enumerate(platform.web_ports):
                wait_for_http(f"http://127.0.0.1:{port}/", platform.processes[index])
            for process in platform.processes[web:]:
                wait_for_log(process, "ready.")
            yield platform
        finally:
            for process in platform.processes:
                process.stop()


def wait_for(predicate: Any, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


class LiveClient:
    """A real WebSocket client (the `websockets` package) with a session cookie."""

    _ids = itertools.count(1)

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.state: dict[str, Any] | None = None

    @classmethod
    async def open(cls, base: str, game_id: int, cookie: str) -> LiveClient:
        socket = await websockets.connect(
            f"{base}/ws/games/{game_id}/",
            origin=websockets.Origin("http://127.0.0.1"),
            additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
        )
        client = cls(socket)
        await client.until(lambda m: m["type"] == "state")
        return client

    async def recv(self, timeout: float) -> dict[str, Any]:
        message = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        if message["type"] == "state" and (
            self.state is None or message["version"] >= self.state["version"]
        ):
            self.state = message
        return message

    async def until(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            message = await self.recv(max(0.01, end - time.monotonic()))
            if predicate(message):
                return message

    async def act(self, action: dict[str, Any]) -> dict[str, Any]:
        rid = f"live-{next(self._ids)}"
        await self.socket.send(json.dumps({"type": "action", "id": rid, "action": action}))
        return await self.until(lambda m: m["type"] in ("ack", "error") and m.get("id") == rid)

    async def until_version(self, version: int) -> None:
        if self.state is None or self.state["version"] < version:
            await self.until(lambda m: m["type"] == "state" and m["version"] >= version)


@contextmanager
def own_redis() -> Iterator[tuple[str, Any]]:
    """A private redis-server on a free port, and a function that restarts it."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]

    def start() -> subprocess.Popen:
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            ping = subprocess.run(
                ["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True
            )
            if ping.stdout.strip() == "PONG":
                return process
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    state = {"process": start()}

    def restart(down_for: float = 1.0) -> None:
        state["process"].terminate()
        state["process"].wait(10)
        time.sleep(down_for)
        state["process"] = start()

    try:
        yield f"redis://127.0.0.1:{port}/0", restart
    finally:
        state["process"].kill()
        state["process"].wait(10)
