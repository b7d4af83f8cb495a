"""The clock keeper, in place of a Celery ETA task per deadline: a thread in every worker
reads the due deadlines from the database, so no broker message is held per game and a
broker restart loses nothing (docs/decisions/clock-keeper.md).

Started by `games.tasks` when the worker is ready. A pass beats the heartbeat (the first
beat after a stall may record a fault: games.clock.faults); settles each game whose
deadline has passed (flag, P1 abort, P2 auto-continue) on up to `settlers` threads, since
games started together flag together, quarantining one that fails; sweeps presence and
nudges silent computer seats; then sleeps until the next deadline it saw, at most `poll`.
Several workers may each run one: advancing is idempotent under the game's row lock, and
a heartbeat gap is a fault only when no keeper beat.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import cast

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection

from games import services
from games.clock import faults, timebase
from games.computer import wakeups
from games.live import presence
from games.live.broadcast import broadcast_presence_of

logger = logging.getLogger(__name__)

# After a failed pass (the database is down), wait this long, doubling up to the maximum.
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 2.0
PRESENCE_SWEEP_SECONDS = 2.0
PRUNE_SECONDS = 3600.0


def keeper_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass
class ClockKeeper:
    poll: float = 0.2
    beat_every: float = 1.0
    name: str = field(default_factory=keeper_name)
    started_at: float = field(default_factory=timebase.server_now)
    next_beat: float = 0.0
    next_presence_sweep: float = 0.0
    next_prune: float = 0.0
    failures: int = 0
    settlers: int = 1
    _pool: ThreadPoolExecutor | None = field(default=None, repr=False)

    def run_pass(self) -> float:
        """One pass at the current time; returns how long to sleep before the next."""
        now = timebase.server_now()
        if now >= self.next_beat:
            faults.heartbeat_beat(keeper=self.name)
            self.next_beat = now + self.beat_every
        soon = services.games_due(now=now, horizon=self.poll)
        self.settle([(pk, deadline) for pk, deadline in soon if deadline <= now], now)
        if now >= self.next_presence_sweep:
            self.sweep_presence()
            wakeups.computer_nudge_overdue(now=now)
            self.next_presence_sweep = now + PRESENCE_SWEEP_SECONDS
        if now >= self.next_prune:
            faults.heartbeats_prune()
            self.next_prune = now + PRUNE_SECONDS
        later = [deadline for _pk, deadline in soon if deadline > now]
        wake = min([*later, now + self.poll, self.next_beat])
        return max(0.0, wake - timebase.server_now())

    def settle(self, due: list[tuple[int, float]], now: float) -> int:
        """Advance each game whose deadline has passed; returns how many changed."""
        if self.settlers <= 1 or len(due) <= 1:
            return sum(self.settle_one(game_id, deadline, now) for game_id, deadline in due)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.settlers, thread_name_prefix="clock-settler")
        futures = [
            self._pool.submit(self.settle_in_thread, game_id, deadline, now)
            for game_id, deadline in due
        ]
        outcomes = [future.exception() or future.result() for future in futures]
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome  # the database, not one game: the whole pass backs off
        # The loop above raised any exception: only booleans are left.
        return sum(int(cast(bool, outcome)) for outcome in outcomes)

    def settle_in_thread(self, game_id: int, deadline: float, now: float) -> bool:
        # Each settler thread has its own connection: drop it if an outage broke it.
        close_old_connections()
        try:
            return self.settle_one(game_id, deadline, now)
        except DatabaseError:
            connection.close()
            raise

    def settle_one(self, game_id: int, deadline: float, now: float) -> bool:
        """Advance one game (quarantined if it fails); whether it changed."""
        try:
            result = services.game_advance(game_id=game_id)
        except DatabaseError:
            raise  # the database, not this game: the whole pass backs off
        except Exception:
            logger.exception("clock could not advance game %s", game_id)
            services.game_quarantine(game_id=game_id, now=now)
            return False
        if result.changed:
            faults.fault_report_late_clock_check(
                game_id=game_id,
                deadline=timebase.to_datetime(deadline),
                ran_at=timebase.to_datetime(result.now or timebase.server_now()),
                runnable_since=timebase.to_datetime(self.started_at),
            )
        return result.changed

    def sweep_presence(self) -> None:
        changed = presence.presence_expire()
        if changed:
            broadcast_presence_of(changed)

    def run(self, stop: threading.Event) -> None:
        logger.info("clock keeper %s started", self.name)
        while not stop.is_set():
            try:
                delay = self.run_pass()
                if self.failures:
                    logger.warning("clock keeper %s resumed", self.name)
                self.failures = 0
            except Exception:
                self.failures += 1
                delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (self.failures - 1))
                # One line per outage, then quiet: the heartbeat gap tells the story.
                if self.failures == 1:
                    logger.exception("clock keeper %s: pass failed; retrying", self.name)
                # A connection broken by a database restart must not be reused.
                connection.close()
            stop.wait(delay)
        close_old_connections()
        connection.close()
        logger.info("clock keeper %s stopped", self.name)


_thread: threading.Thread | None = None
_stop = threading.Event()


def start_in_background() -> threading.Thread | None:
    """Start this process's keeper thread once (a no-op when CLOCK_KEEPER is off)."""
    global _thread
    if not settings.CLOCK_KEEPER or (_thread is not None and _thread.is_alive()):
        return _thread
    keeper = ClockKeeper(
        poll=float(settings.CLOCK_KEEPER_POLL_SECONDS),
        beat_every=float(settings.HEARTBEAT_SECONDS),
        # SQLite takes one writer at a time: more settlers would only queue on its lock.
        settlers=1 if connection.vendor == "sqlite" else settings.CLOCK_KEEPER_SETTLERS,
    )
    _stop.clear()
    _thread = threading.Thread(target=keeper.run, args=(_stop,), name="clock-keeper", daemon=True)
    _thread.start()
    return _thread


def stop_background(timeout: float = 5.0) -> None:
    _stop.set()
    if _thread is not None:
        _thread.join(timeout)
