"""Calls released together from threads of their own, as two requests racing each other."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Each call's result, in order; every thread closes its own database connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = calls[i]()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results
