"""Server time, the only time (docs/architecture.md, "The clock").

The engine's time axis is Unix epoch seconds as a float. Every service reads the clock
through `server_now()`, once, inside its transaction: that instant is when a request counts.
Tests replace this one function to put a game's past where they need it.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import overload

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def server_now() -> float:
    return time.time()


def to_datetime(t: float) -> datetime:
    """An engine instant as an aware UTC datetime, rounded *up* to the microsecond.

    Rounding up keeps `next_deadline <= now` from being true a hair before the engine
    deadline, which would make the sweep run an advance that changes nothing.
    """
    # Exact arithmetic: at epoch magnitudes `t * 1e6` as a float is already rounded (the
    # spacing of floats there is 0.25 µs), and fromtimestamp() would round once more.
    # Integers rather than Fraction, which is slower on a move's path.
    numerator, denominator = t.as_integer_ratio()
    return EPOCH + timedelta(microseconds=-(-numerator * 1_000_000 // denominator))


@overload
def to_ms(t: float) -> int: ...
@overload
def to_ms(t: None) -> None: ...
@overload
def to_ms(t: float | None) -> int | None: ...
def to_ms(t: float | None) -> int | None:
    """Epoch seconds to epoch milliseconds, the unit the browser's Date uses."""
    return None if t is None else round(t * 1000)
