"""The computer's suggestions: for a finished game, what the hard bot would have done at
one of a player's decisions, from the view that player had then; computed once and cached.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache

from games import engine
from games.bots import choose
from games.computer.moves import decision_seed
from games.errors import ServiceError
from games.models import Game
from games.replay.log import game_changes, game_initial_state, replay_change
from games.replay.page import ACTION_LABELS

logger = logging.getLogger(__name__)

SUGGESTION_STRENGTH = "hard"
SUGGESTION_CACHE_SECONDS = 7 * 24 * 3600
# COMPUTER_SUGGESTIONS_PER_MINUTE counts in windows of this many seconds.
SUGGESTION_WINDOW_SECONDS = 60


def _suggestion_budget_allows(user_id: int) -> bool:
    """A fixed-window count of the suggestions a user has had computed (not cached ones):
    each costs a second of the server's thinking."""
    window = SUGGESTION_WINDOW_SECONDS
    key = f"computer-suggestions:{user_id}:{int(time.time() // window)}"
    if cache.add(key, 1, timeout=window + 1):
        return True
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=window + 1)
        count = 1
    return count <= int(settings.COMPUTER_SUGGESTIONS_PER_MINUTE)


def computer_suggestion(*, game_id: int, index: int, user_id: int) -> dict[str, Any]:
    """What the hard bot would have done instead of the game's `index`-th change.

    `index` is the replay's step number (step N shows the table after the N-th change),
    and that change must be a player's decision. The bot gets the view that player had
    when deciding. Answers are cached for everyone; computing new ones is limited per user
    (COMPUTER_SUGGESTIONS_PER_MINUTE). Raises ServiceError: not_found, not_finished,
    not_a_decision, rate_limited, suggestion_failed.
    """
    key = f"computer-suggestion:{game_id}:{index}:{SUGGESTION_STRENGTH}"
    cached = cache.get(key)
    if cached is not None:
        return dict(cached)
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ServiceError("not_found")
    if game.status != Game.Status.FINISHED:
        raise ServiceError("not_finished")
    rows = list(game_changes(game))
    if not 1 <= index <= len(rows):
        raise ServiceError("not_a_decision")
    row = rows[index - 1]
    if row.seat is None or row.action.get("do") not in engine.DECISIONS:
        raise ServiceError("not_a_decision")
    if not _suggestion_budget_allows(user_id):
        raise ServiceError("rate_limited")
    state = game_initial_state(game)
    for earlier in rows[: index - 1]:
        state, _events = replay_change(state, earlier)
    view = engine.view(state, row.seat, row.t)
    suggestion = choose(
        view,
        SUGGESTION_STRENGTH,
        budget=float(settings.COMPUTER_SUGGEST_SECONDS),
        seed=decision_seed(game_id, index),
    )
    # The same move written differently (an `end` left out when only one fits) is the
    # same move: compare what each does to the table, as the engine sees it.
    played_state, _ = engine.apply(state, row.seat, row.action, row.t)
    try:
        suggested_state, _ = engine.apply(state, row.seat, suggestion, row.t)
    except engine.RuleError:
        logger.exception(
            "the hard computer suggested an illegal %s in game %s", suggestion, game_id
        )
        raise ServiceError("suggestion_failed") from None
    result = {
        "index": index,
        "seat": row.seat,
        "played": row.action,
        "suggestion": suggestion,
        "same": engine.to_json(played_state) == engine.to_json(suggested_state),
    }
    cache.set(key, result, SUGGESTION_CACHE_SECONDS)
    return result


def action_text(action: dict[str, Any]) -> str:
    """An action in words, as the replay's move list names it: "played 6-4 → right"."""
    do = action.get("do", "?")
    parts = [str(ACTION_LABELS.get(do, do))]
    if "tile" in action:
        parts.append(str(action["tile"]))
    if action.get("end"):
        parts.append(f"→ {action['end']}")
    if "amount" in action:
        parts.append(str(action["amount"]))
    return " ".join(parts)


def suggestion_text(result: dict[str, Any]) -> dict[str, str]:
    """The played and the suggested action in words, in the active language."""
    return {
        "played_text": action_text(result["played"]),
        "suggestion_text": action_text(result["suggestion"]),
    }
