"""A Celery worker (with beat) on Redis survives a restart of Redis and keeps running tasks.

kombu's stock Redis transport made the worker exit with "Unrecoverable error:
AttributeError: 'NoneType' object has no attribute 'hostname'" while it put back the
messages it held (infra.redis_broker explains why). The test runs its own redis-server
on a free port, so the shared Redis of other test runs is never restarted.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from celery import Celery
from django.conf import settings

from tests.live import (
    BIN,
    Process,
    free_port,
    platform_env,
    spawn,
    wait_for_log,
    wait_until,
)

pytestmark = [
    pytest.mark.live,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs a redis-server binary"),
]

NOOP = "celery.accumulate"  # built in, touches no database


def start_redis(port: int, log_dir) -> Process:
    args = [shutil.which("redis-server") or "redis-server", "--port", str(port)]
    args += ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    redis = spawn(f"redis-{port}", args, {"PATH": "/usr/bin:/bin"}, log_dir)
    wait_for_log(redis, "Ready to accept connections", timeout=20)
    return redis


@pytest.fixture
def producer_for(request) -> Iterator:
    apps: list[Celery] = []

    def make(url: str) -> Celery:
        # Not the current app: later tests' shared tasks must still go through the settings'.
        app = Celery("redis-restart-test", broker=url, set_as_current=False)
        app.conf.task_default_queue = settings.CELERY_TASK_DEFAULT_QUEUE
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.close()


def test_worker_with_beat_survives_a_redis_restart(transactional_db, tmp_path, producer_for):
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    redis = start_redis(port, tmp_path)
    worker = None
    try:
        args = [str(BIN / "celery"), "--app", "config", "worker", "--beat", "--loglevel", "INFO"]
        args += ["--pool", "threads", "--concurrency", "2", "--schedule", str(tmp_path / "beat")]
        worker = spawn("worker", args, platform_env(REDIS_URL=url), tmp_path)
        wait_for_log(worker, "ready.", timeout=40)
        producer = producer_for(url)

        # Messages the worker holds unacknowledged when Redis goes: what it failed to put back.
        held = [producer.send_task(NOOP, args=(i,), countdown=600) for i in range(3)]
        for result in held:
            wait_for_log(worker, f"{NOOP}[{result.id}] received", timeout=20)

        redis.stop()
        wait_for_log(worker, "Connection to broker lost", timeout=30)
        redis = start_redis(port, tmp_path)
        wait_until(
            lambda: worker.log().count("Connected to") >= 2,
            timeout=60,
            message=f"the worker never reconnected:\n{worker.log()[-6000:]}",
        )

        after = producer.send_task(NOOP, args=("after the restart",))
        wait_for_log(worker, f"{NOOP}[{after.id}] succeeded", timeout=30)
        assert worker.popen.poll() is None
    finally:
        if worker is not None:
            worker.stop()
        redis.stop()
    log = worker.log()
    assert "Unrecoverable error" not in log, log[-6000:]
