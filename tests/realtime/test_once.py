"""realtime.once: one result per process even when many threads ask first at once."""

from __future__ import annotations

import threading
import time

from realtime.once import once


def test_threads_that_ask_first_together_share_one_result() -> None:
    built: list[object] = []

    @once
    def factory() -> object:
        time.sleep(0.01)  # widen the window in which a plain cache would build twice
        made = object()
        built.append(made)
        return made

    start = threading.Barrier(16)
    results: list[object] = []

    def ask() -> None:
        start.wait()
        results.append(factory())

    threads = [threading.Thread(target=ask) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(built) == 1
    assert results == built * 16
