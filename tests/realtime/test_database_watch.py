"""realtime.database_watch: every game socket of a process hears when the database goes and
comes back; one probe at a time, whoever watches."""

from __future__ import annotations

import asyncio

import pytest

from realtime import database_watch
from realtime.database_watch import DatabaseWatch, database_reachable


class Listener:
    def __init__(self) -> None:
        self.heard: list[bool] = []

    async def database_changed(self, reachable: bool) -> None:
        self.heard.append(reachable)


@pytest.fixture(autouse=True)
def quick(monkeypatch) -> None:
    monkeypatch.setattr(database_watch, "PROBE_SECONDS", 0.01)
    monkeypatch.setattr(database_watch, "PROBE_TIMEOUT_SECONDS", 0.05)


async def until(condition, timeout: float = 2.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "never happened"
        await asyncio.sleep(0.01)


async def test_listeners_hear_each_change_once_in_both_directions() -> None:
    answers = [True, False, False, False, True, True]
    probes: list[bool] = []

    async def probe() -> bool:
        answer = answers[len(probes)] if len(probes) < len(answers) else True
        probes.append(answer)
        return answer

    watch = DatabaseWatch(probe)
    first, second = Listener(), Listener()
    watch.watch(first)
    watch.watch(second)
    await until(lambda: len(probes) >= len(answers) + 2)
    assert first.heard == [False, True]
    assert second.heard == [False, True]
    watch.unwatch(first)
    watch.unwatch(second)


async def test_a_probe_that_hangs_counts_as_unreachable_and_is_not_started_again() -> None:
    started = 0
    release = asyncio.Event()

    async def probe() -> bool:
        nonlocal started
        started += 1
        await release.wait()
        return True

    watch = DatabaseWatch(probe)
    listener = Listener()
    watch.watch(listener)
    await until(lambda: listener.heard == [False])
    await asyncio.sleep(0.2)  # several rounds wait on the same hung probe
    assert started == 1
    release.set()
    await until(lambda: listener.heard == [False, True])
    watch.unwatch(listener)


async def test_the_watch_stops_when_nobody_watches_and_starts_again_for_the_next() -> None:
    probes = 0

    async def probe() -> bool:
        nonlocal probes
        probes += 1
        return True

    watch = DatabaseWatch(probe)
    listener = Listener()
    watch.watch(listener)
    await until(lambda: probes >= 1)
    watch.unwatch(listener)
    assert watch.task is not None
    await until(watch.task.done)
    stopped_at = probes
    await asyncio.sleep(0.1)
    assert probes == stopped_at
    again = Listener()
    watch.watch(again)
    await until(lambda: probes > stopped_at)
    assert again.heard == []  # reachable throughout: nothing to say
    watch.unwatch(again)


async def test_a_listener_that_fails_does_not_keep_the_others_from_hearing() -> None:
    answers = iter([False])

    async def probe() -> bool:
        return next(answers, False)

    class Broken:
        async def database_changed(self, reachable: bool) -> None:
            raise OSError("socket gone")

    watch = DatabaseWatch(probe)
    broken, listener = Broken(), Listener()
    watch.watch(broken)
    watch.watch(listener)
    await until(lambda: listener.heard == [False])
    assert not watch.task.done()
    watch.unwatch(broken)
    watch.unwatch(listener)


@pytest.mark.django_db
def test_the_probe_asks_the_database() -> None:
    assert database_reachable() is True
