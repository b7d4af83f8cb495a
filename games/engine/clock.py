"""Clock arithmetic (R7): timestamps, never a ticking counter.

A running clock is (seat, decision start, bank at decision start). Everything else follows:
the delay ends at start + DELAY, the flag falls at start + DELAY + bank (R7.6), and a decision
taken after `elapsed` seconds costs max(0, elapsed - DELAY) of bank (R7.4).
"""

from __future__ import annotations

BANK = 120.0  # R7.1 (new_game may be given other banks)
DELAY = 10.0  # R7.2
START_TIMEOUT = 60.0  # P1
CONTINUE_TIMEOUT = 30.0  # P2


def charge(bank: float, start: float, now: float) -> float:
    """The bank left after a decision that started at `start` ends at `now` (R7.4)."""
    used = now - start - DELAY
    if used <= 0.0:
        return bank
    left = bank - used
    return left if left > 0.0 else 0.0


def flag_at(bank: float, start: float) -> float:
    """The instant the player to act loses on time (R7.6)."""
    return start + DELAY + bank
