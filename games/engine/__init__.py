"""Spectacular Bid rules engine: pure Python, no Django, deterministic (docs/engine-api.md).

state = new_game(deals=None, balances=(150, 150), banks=(120.0, 120.0),
                 same_device=False, created_at=now, rng=None)
state, events = apply(state, seat, action, now)      # raises RuleError
state, events = advance(state, now)                  # timed transitions only
state, events = void(state, now, reason)             # R7.10: cancelled, no result
legal_actions(state, seat); deadline(state); view(state, seat, now); outcome(state)
device_seat(state); device_view(state, now)          # same-device games (R7.7)
events_for(events, seat); to_json(state); from_json(d)
ACTIONS, ACTION_KEYS, MAX_ACTION_KEYS, DECISIONS, RULES, ERROR_CODES, VOID_REASON
"""

from __future__ import annotations

from .actions import ACTION_KEYS, ACTIONS, DECISIONS, MAX_ACTION_KEYS, choices
from .device import device_seat, device_view
from .errors import ERROR_CODES, RuleError
from .game import (
    VOID_REASON,
    advance,
    apply,
    choices_of,
    deadline,
    legal_actions,
    new_game,
    press_ready,
    void,
)
from .serialization import from_json, to_json
from .state import State
from .views import RULES, events_for, outcome, view

__all__ = [
    "ACTIONS",
    "ACTION_KEYS",
    "DECISIONS",
    "ERROR_CODES",
    "MAX_ACTION_KEYS",
    "RULES",
    "VOID_REASON",
    "RuleError",
    "State",
    "advance",
    "apply",
    "choices",
    "choices_of",
    "deadline",
    "device_seat",
    "device_view",
    "events_for",
    "from_json",
    "legal_actions",
    "new_game",
    "outcome",
    "press_ready",
    "to_json",
    "view",
    "void",
]
