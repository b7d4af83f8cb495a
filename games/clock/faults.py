"""Service faults (R7.10): detecting them, and cancelling the games they touched.

A `ServiceFault` is a window in which the platform could not measure time reliably. It
is recorded three ways — a gap between the clock keepers' heartbeats, a game the keeper
settled far later than it could have, an admin — and every game whose clock ran during
the window is voided through the game service (games.services.game_void, engine.void),
which tells the ratings app (games.signals.game_voided): a game already rated gets
compensating ledger entries there.

Everything here is idempotent: processing a fault twice, or two overlapping faults,
cancels each game once and reverses each rating once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Game, Heartbeat, ServiceFault
from games.services import game_locked, game_void

logger = logging.getLogger(__name__)

# Statuses of a game whose clock has run: a `waiting` game has no running clock (only the
# P1 start timeout, which aborts without a result anyway), and aborted or cancelled games
# carry no result to void.
_CLOCKED = (Game.Status.PLAYING, Game.Status.FINISHED)


def fault_threshold() -> timedelta:
    """How long time-keeping may stall before it is a fault (docs/architecture.md).

    FAULT_THRESHOLD_SECONDS (20 s by default), and never less than ten beats: a gap is
    measured with one beat's granularity, so a threshold only a beat or two above what a
    short outage produces would turn the same outage into a fault or not by chance.
    """
    beats = 10 * float(settings.HEARTBEAT_SECONDS)
    return timedelta(seconds=max(float(settings.FAULT_THRESHOLD_SECONDS), beats))


def fault_games(fault: ServiceFault) -> list[int]:
    """Ids of the games whose clock ran during the fault's window (and not cancelled yet)."""
    started = Coalesce("started_at", "created_at")
    return list(
        Game.objects.annotate(clock_started=started)
        .filter(status__in=_CLOCKED, clock_started__lt=fault.end)
        .filter(Q(finished_at__isnull=True) | Q(finished_at__gt=fault.start))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def game_cancel_for_fault(
    *, game_id: int, fault: ServiceFault | None = None, note: str = ""
) -> bool:
    """Cancel one game with no rating result (R7.10); False if it was already over.

    Locks the game row like every game service, so a move or a clock check arriving at
    the same moment is applied either entirely before (and then voided) or not at all. The
    void itself is the game service's, like any other change of the game.
    """
    with transaction.atomic():
        game = game_locked(game_id)
        if game is None:
            return False
        if fault is not None:
            fault.games.add(game)
        if game.status not in _CLOCKED:
            return False
        why = note or (f"service fault #{fault.pk}" if fault is not None else "service fault")
        return game_void(game_id=game_id, note=why)


def fault_process(*, fault: ServiceFault) -> list[int]:
    """Cancel every game the fault touched; returns the ids cancelled by this call."""
    cancelled = [
        game_id
        for game_id in fault_games(fault)
        if game_cancel_for_fault(game_id=game_id, fault=fault)
    ]
    fault.processed_at = timezone.now()
    fault.save(update_fields=["processed_at"])
    return cancelled


def _fault_create(*, kind: str, start: datetime, end: datetime, **details: Any) -> ServiceFault:
    """The fault row (`details`: its note, who recorded it); the one already made if any."""
    if end < start:
        raise ValueError("a fault cannot end before it starts")
    try:
        with transaction.atomic():
            return ServiceFault.objects.create(kind=kind, start=start, end=end, **details)
    except IntegrityError:  # the same automatic detection, reported again
        return ServiceFault.objects.get(kind=kind, start=start, end=end)


def fault_record(
    *,
    kind: str,
    start: datetime,
    end: datetime,
    note: str = "",
    created_by: User | None = None,
) -> ServiceFault:
    """Record a fault and cancel the games it touched.

    The fault row is committed first and each game is then cancelled in its own short
    transaction (a long one holding every game's lock could deadlock with moves); should
    the process die half-way, `processed_at` stays empty and `fault_process_pending`
    (run with every heartbeat) finishes the job. An automatic detection reported twice
    (same kind and window) is the same fault, processed again, which changes nothing.
    """
    fault = _fault_create(kind=kind, start=start, end=end, note=note, created_by=created_by)
    fault_process(fault=fault)
    return fault


def fault_process_pending() -> int:
    """Finish processing faults whose processing was interrupted; returns how many."""
    pending = list(ServiceFault.objects.filter(processed_at__isnull=True).order_by("pk"))
    for fault in pending:
        fault_process(fault=fault)
    return len(pending)


def heartbeat_beat(
    *, at: datetime | None = None, keeper: str = ""
) -> tuple[Heartbeat, ServiceFault | None]:
    """Record a beat and, if the previous one is too old, the gap between them as a fault.

    Comparing with the previous beat (rather than with "now" in a separate task) means the
    gap is found by the first beat after an outage, whatever stopped the beat: a crashed
    worker, a stopped machine, a database that refused writes. The beat and its fault are
    committed together, so a gap cannot be recorded as a beat without its fault.
    """
    at = at or timezone.now()
    fault = None
    with transaction.atomic():
        previous = Heartbeat.objects.filter(at__lt=at).order_by("-at").first()
        beat = Heartbeat.objects.create(at=at, keeper=keeper[:100])
        if previous is not None and at - previous.at > fault_threshold():
            seconds = (at - previous.at).total_seconds()
            fault = _fault_create(
                kind=ServiceFault.Kind.HEARTBEAT_GAP,
                start=previous.at,
                end=at,
                note=f"no heartbeat for {seconds:.1f} s",
            )
    fault_process_pending()
    if fault is not None:
        fault.refresh_from_db()
    return beat, fault


def fault_report_late_clock_check(
    *, game_id: int, deadline: datetime, ran_at: datetime, runnable_since: datetime
) -> ServiceFault | None:
    """The clock keeper settled a game at `ran_at`: a fault if it was far too late.

    Lateness is measured from when the check could first have run — the deadline, or the
    moment this keeper started, whichever is later — so a keeper that starts after an
    outage does not count the outage twice (the heartbeat gap covers it), and a keeper
    that was keeping time and still came late shows that time was not kept.
    """
    late = (ran_at - max(deadline, runnable_since)).total_seconds()
    if late <= fault_threshold().total_seconds():
        return None
    return fault_record(
        kind=ServiceFault.Kind.LATE_CLOCK_CHECK,
        start=deadline,
        end=ran_at,
        note=f"clock check of game #{game_id} ran {late:.1f} s late",
    )


def timekeeping_status(*, now: datetime | None = None) -> dict[str, object]:
    """Whether a clock keeper is beating: for the health endpoint and the admin."""
    now = now or timezone.now()
    last = Heartbeat.objects.order_by("-at").values_list("at", "keeper").first()
    age = None if last is None else max(0.0, (now - last[0]).total_seconds())
    # Three beats late is "down" for the operator, long before it becomes a fault.
    down_after = 3 * float(settings.HEARTBEAT_SECONDS) + 2.0
    return {
        "up": age is not None and age <= down_after,
        "last_beat": None if last is None else last[0].isoformat(),
        "last_keeper": None if last is None else last[1],
        "seconds_since_beat": None if age is None else round(age, 3),
        "fault_after_seconds": fault_threshold().total_seconds(),
    }


def heartbeats_prune(*, keep: timedelta = timedelta(days=2)) -> int:
    """Old beats only matter for gaps already judged; keep the table small."""
    deleted, _ = Heartbeat.objects.filter(at__lt=timezone.now() - keep).delete()
    return deleted


def game_cancel_by_admin(*, game_id: int, admin: User) -> bool:
    """The admin action "cancel game (service fault)": one game, no window."""
    return game_cancel_for_fault(
        game_id=game_id, note=f"cancelled by admin {admin.get_username()}"[:200]
    )
