"""A same-device game (R7.7): one screen, both seats. Which seat it acts for, and what it shows.

One rule answers both questions, so that a tap always acts for the seat whose hand and
buttons are on screen: the seat to act; when nobody is (Start, Continue, game over), the
first seat that still has a choice other than resigning (the one yet to press Start or
Continue); otherwise seat 0. Like `legal_actions`, both read the state as of its own time:
call `advance` first when a deadline may have passed.
"""

from __future__ import annotations

from typing import Any

from .game import awaiting_reveal, choices_of
from .state import State
from .views import trail_view, view


def device_seat(state: State) -> int:
    """The seat a shared screen acts for and shows (see the module docstring)."""
    if state.to_act is not None:
        return state.to_act
    for seat in (0, 1):
        if choices_of(state, seat):
            return seat
    return 0


def device_view(state: State, now: float) -> dict[str, Any]:
    """`view` for the shared screen: `device_seat`'s view, its hand shown only once revealed.

    Both players look at this screen, so a hand is on it only while its seat is to act and
    has revealed (R7.7); otherwise `hand` and `must_play` are null. The other hand and the
    boneyard never are (R2.4), and a finished round shows both hands in `last_round` only.
    """
    seat = device_seat(state)
    out = view(state, seat, now)
    if seat != state.to_act or awaiting_reveal(state):
        out["hand"] = None
        out["must_play"] = None
        # Its drawn tiles are part of the hand: named only while the hand shows.
        out["trail"] = trail_view(state, None)
    return out
