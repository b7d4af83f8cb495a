"""Spectacular Bid rules engine: pure Python, no Django, deterministic (docs/engine-api.md).

state = new_game(deals=None, balances=(150, 150), banks=(120.0, 120.0),
                 same_device=False, created_at=now, rng=None)
state, events = apply(state, seat, action, now)      # raises RuleError
state, events = advance(state, now)                  # timed transitions only
legal_actions(state, seat); deadline(state); view(state, seat, now)
events_for(events, seat); to_json(state); from_json(d)
"""

from __future__ import annotations

from .errors import ERROR_CODES, RuleError
from .game import advance, apply, deadline, legal_actions, new_game
from .serialization import from_json, to_json
from .state import State
from .views import events_for, view

__all__ = [
    "ERROR_CODES",
    "RuleError",
    "State",
    "advance",
    "apply",
    "deadline",
    "events_for",
    "from_json",
    "legal_actions",
    "new_game",
    "to_json",
    "view",
]
