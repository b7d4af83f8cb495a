"""Embedded broker under a burst: does the Celery worker survive a flood of tasks?

    .venv/bin/python bench/broker_burst.py [--seconds 60] [--producers 2] [--rate 50] [--stock]

Starts one worker (threads pool, as in the Procfile) on a fresh broker folder and a queue
of its own, then sends Celery's built-in no-op task from `--producers` processes, `--rate` a second
each, for `--seconds`. Prints how many tasks were sent and ran, and whether the worker
died (kombu's stock filesystem transport lets a reader open a message file before its
writer has filled it: "Unrecoverable error: JSONDecodeError", kombu#1551).
Embedded mode only: REDIS_URL must be unset.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
NOOP = "celery.accumulate"  # built in, touches no database
WORKER = """
from config.celery import app
if {stock}:
    app.conf.broker_transport = "filesystem"
app.worker_main(["worker", "--loglevel", "INFO", "--pool", "threads", "--concurrency", "4"])
"""


def produce(until: float, rate: float, stock: bool, sent: multiprocessing.Value) -> None:
    sys.path.insert(0, str(ROOT))
    from config.celery import app

    if stock:
        app.conf.broker_transport = "filesystem"

    # Paced, so the queue stays nearly empty: the reader then lists the folder while
    # writers are creating files, which is where the stock transport goes wrong.
    interval = 1.0 / rate
    next_send = time.monotonic()
    with app.producer_or_acquire() as producer:
        while (now := time.monotonic()) < until:
            if now < next_send:
                time.sleep(next_send - now)
            next_send += interval
            app.send_task(NOOP, args=(1,), producer=producer)
            with sent.get_lock():
                sent.value += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--producers", type=int, default=2)
    parser.add_argument("--rate", type=float, default=50.0, help="tasks/s per producer")
    parser.add_argument("--stock", action="store_true", help="kombu's own filesystem transport")
    options = parser.parse_args()
    if os.environ.get("REDIS_URL"):
        sys.exit("unset REDIS_URL: this measures the embedded (filesystem) broker")

    with tempfile.TemporaryDirectory(prefix="burst-") as tmp:
        os.environ.update(BROKER_DIR=tmp, CELERY_QUEUE=f"burst{os.getpid()}")
        log_path = Path(tmp) / "worker.log"
        if options.stock:  # which, unlike ours, does not create its folders
            for folder in ("queue", "processed", "control"):
                (Path(tmp) / folder).mkdir()
        with log_path.open("wb") as log:
            worker = subprocess.Popen(
                [sys.executable, "-c", WORKER.format(stock=options.stock)],
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            while b"ready." not in log_path.read_bytes():
                if worker.poll() is not None:
                    sys.exit(f"worker exited at start:\n{log_path.read_text()}")
                time.sleep(0.2)
            sent = multiprocessing.Value("l", 0)
            until = time.monotonic() + options.seconds
            producers = [
                multiprocessing.Process(
                    target=produce, args=(until, options.rate, options.stock, sent)
                )
                for _ in range(options.producers)
            ]
            started = time.monotonic()
            for process in producers:
                process.start()
            died_after = None
            while any(p.is_alive() for p in producers):
                if worker.poll() is not None:
                    died_after = time.monotonic() - started
                    for process in producers:  # nothing left to measure
                        process.terminate()
                    break
                time.sleep(0.2)
            time.sleep(2)  # let the worker drain what it has in hand
            if died_after is None and worker.poll() is not None:
                died_after = time.monotonic() - started
        finally:
            if worker.poll() is None:
                worker.terminate()
                worker.wait(30)
        text = log_path.read_text(errors="replace")
        ran = text.count(f"Task {NOOP}[") // 2  # "received" and "succeeded" lines
        print(f"sent {sent.value} tasks, about {ran} ran")
        if died_after is None:
            print("worker survived")
            return 0
        print(f"worker DIED after {died_after:.1f} s:")
        print("\n".join(line for line in text.splitlines() if "rror" in line)[-2000:])
        return 1


if __name__ == "__main__":
    sys.exit(main())
