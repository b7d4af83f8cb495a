"""The computer's suggestions: for a finished game, what the hard bot would have done at
one of a player's decisions, from the view that player had then; computed once and cached.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import engine
from games.bots import choose
from games.computer.moves import decision_seed
from games.errors import ServiceError
from games.models import Game
from games.replay.log import game_changes, game_initial_state, replay_change
from games.replay.page import ACTION_LABELS
from realtime.counters import window_take

logger = logging.getLogger(__name__)

SUGGESTION_STRENGTH = "hard"
SUGGESTION_CACHE_SECONDS = 7 * 24 * 3600
# COMPUTER_SUGGESTIONS_PER_MINUTE counts in windows of this many seconds.
SUGGESTION_WINDOW_SECONDS = 60


def _suggestion_budget_allows(user_id: int) -> bool:
    """Count a suggestion computed for the user (not a cached one): each costs a second of
    the server's thinking."""
    limit = int(settings.COMPUTER_SUGGESTIONS_PER_MINUTE)
    return window_take("suggestions", user_id, limit=limit, seconds=SUGGESTION_WINDOW_SECONDS)


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


# Where a tile goes, as the game's log says it (games/static/games/game/feed.js).
END_PHRASES: dict[str, Promise] = {
    "left": _("on the left"),
    "right": _("on the right"),
    "up": _("on the top arm"),
    "down": _("on the bottom arm"),
}

# What the computer would have done, as a whole sentence (a label and its arguments read
# badly in Spanish: "habría: jugó").
WOULD_HAVE: dict[str, Promise] = {
    "play": _("The computer would have played %(tile)s %(end)s."),
    "lead": _("The computer would have led with %(tile)s."),
    "draw": _("The computer would have drawn a tile."),
    "bid": _("The computer would have bid %(amount)s."),
    "raise": _("The computer would have raised to %(amount)s."),
    "accept": _("The computer would have accepted the bid."),
    "renounce": _("The computer would have renounced the lead."),
}


def tile_text(tile: str) -> str:
    """ "6-4" -> "[6|4]", the notation of the game's log."""
    return f"[{tile.replace('-', '|')}]"


def _parts(action: dict[str, Any]) -> dict[str, str]:
    return {
        "tile": tile_text(str(action.get("tile", ""))),
        "end": str(END_PHRASES.get(str(action.get("end")), action.get("end") or "")),
        "amount": str(action.get("amount", "")),
    }


def action_text(action: dict[str, Any], labels: dict[str, Promise] = ACTION_LABELS) -> str:
    """An action in words, as the replay's move list names it: "played [6|4] on the left"
    (`labels`: the verbs, past tense unless told otherwise)."""
    do = action.get("do", "?")
    parts = _parts(action)
    words = [str(labels.get(do, do))]
    if "tile" in action:
        words.append(parts["tile"])
    if action.get("end"):
        words.append(parts["end"])
    if "amount" in action:
        words.append(parts["amount"])
    return " ".join(words)


def suggestion_sentence(action: dict[str, Any]) -> str:
    """What the computer would have done, said as a sentence in the active language."""
    template = WOULD_HAVE.get(str(action.get("do")))
    if template is None:
        return str(_("The computer would have: %(action)s")) % {"action": action_text(action)}
    return str(template) % _parts(action)


def suggestion_text(result: dict[str, Any]) -> dict[str, str]:
    """The played and the suggested action in words, in the active language."""
    return {
        "played_text": action_text(result["played"]),
        "suggestion_text": suggestion_sentence(result["suggestion"]),
    }
