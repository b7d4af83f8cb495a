"""`make run`'s processes on the embedded broker stay up under a burst of tasks.

Kombu's stock filesystem transport let the worker read a message file its writer had
created but not yet filled, and the worker stopped for good (kombu issue #1551); under a
steady stream of tasks that happened within minutes. infra.filesystem_broker writes
atomically, so here nothing may exit at all.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from celery import Celery
from django.conf import settings

from games.models import Heartbeat
from infra.filesystem_broker import transport_options
from tests.live import (
    free_port,
    platform_env,
    spawn,
    supervisor_args,
    wait_for_http,
    wait_for_log,
    wait_until,
)

pytestmark = [pytest.mark.live, pytest.mark.soak, pytest.mark.timeout(240)]  # a 110 s burst

BURST_SECONDS = 110
RATE = 100  # tasks a second, about what the worker keeps up with, so the queue stays short
NOOP = "celery.accumulate"  # built in, touches no database


def embedded_producer(broker_dir: Path) -> Celery:
    """A client of the embedded broker, whichever broker this test run's settings name."""
    # Not the current app: later tests' shared tasks must still go through the settings'.
    app = Celery("embedded-burst-test", broker="filesystem://", set_as_current=False)
    app.conf.broker_transport = "infra.filesystem_broker:Transport"
    app.conf.broker_transport_options = transport_options(broker_dir)
    app.conf.task_default_queue = settings.CELERY_TASK_DEFAULT_QUEUE
    return app


def test_worker_and_beat_survive_a_burst_of_tasks(transactional_db, tmp_path):
    port = free_port()
    broker_dir = tmp_path / "broker"
    # Embedded mode even where the test run itself uses Redis (CI): only the database is shared.
    env = platform_env(
        REDIS_URL="",
        BROKER_DIR=str(broker_dir),
        WEB_PORT=str(port),
        HEARTBEAT_SECONDS="1",
        BEAT_SCHEDULE=str(tmp_path / "beat-schedule"),
    )
    app = embedded_producer(broker_dir)
    supervisor = spawn("supervisor", supervisor_args(), env, tmp_path)
    try:
        wait_for_http(f"http://127.0.0.1:{port}/", supervisor, timeout=40)
        wait_for_log(supervisor, "ready.", timeout=40)
        beats_before = Heartbeat.objects.count()

        sent = 0
        start = time.monotonic()
        with app.producer_or_acquire() as producer:
            while (elapsed := time.monotonic() - start) < BURST_SECONDS:
                # Paced rather than flat out: the stock transport failed when a reader
                # listed the folder while a writer was creating a file, not on a backlog.
                time.sleep(max(0.0, sent / RATE - elapsed))
                app.send_task(NOOP, args=(1,), producer=producer)
                sent += 1
                if sent % 500 == 0 and "exited with code" in supervisor.log():
                    break  # the assertions below show why

        # The worker's clock keeper kept beating through the burst, and a last task still runs.
        wait_until(lambda: Heartbeat.objects.count() > beats_before + 10, 20, supervisor.log())
        last = app.send_task(NOOP, args=("last",))
        wait_for_log(supervisor, f"{NOOP}[{last.id}] succeeded", timeout=30)
    finally:
        code = supervisor.stop(signal.SIGTERM, timeout=45)
        app.close()
    log = supervisor.log()
    assert "exited with code" not in log, log[-8000:]
    assert "Unrecoverable error" not in log, log[-8000:]
    assert code == 0, log[-4000:]
