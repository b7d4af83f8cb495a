"""A finished game's replay: every step of its log computed once, stepped in the browser.

Step 0 is the table before anything happened; step N the table right after the N-th
change (a player's action or a timed transition), computed by the engine from the log
exactly as `games.replay.log` rebuilds a game. The page receives all the steps at once (JSON
in the page) and games/static/games/replay.js draws them with the game page's own board
modules, so stepping loads nothing. Each step holds the public view (as both players saw
the table), both hands, and the engine's events (the move list's sentences, translated
by the page's catalogue like the game's log). Both hands are shown because a replay
exists only once the game is over: while it is played the page has no steps at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import engine
from games.models import Game
from games.replay.log import game_changes, game_initial_state, replay_change

# What a step shows of the public view (the rest is clocks and controls of a live game).
TABLE_KEYS = (
    "status",
    "phase",
    "round",
    "to_act",
    "boneyard_left",
    "board",
    "auction",
    "jockey",
    "winner",
    "reason",
)
# The fields of a logged action a step repeats (the request id and the like are not shown).
ACTION_FIELDS = ("do", "tile", "end", "amount")

ACTION_LABELS: dict[str, Promise] = {
    "start": _("pressed Start"),
    "continue": _("pressed Continue"),
    "play": _("played"),
    "lead": _("led"),
    "draw": _("drew a tile"),
    "bid": _("bid"),
    "raise": _("raised to"),
    # A context of its own: a challenge's status "accepted" is an adjective in Spanish.
    "accept": pgettext_lazy("a player's action", "accepted"),
    "renounce": _("renounced"),
    "resign": _("resigned"),
    "reveal": _("revealed their hand"),
    "advance": _("the clock acted"),
    "void": _("the game was voided (service fault)"),
}


@dataclass
class ReplayPage:
    game: Game
    available: bool  # False while the game is still being played: no step is sent
    usernames: list[str]
    steps: list[dict[str, Any]]
    start: int  # the step shown first (?step=N)
    names: list[str]  # what the page shows: "Computer (hard)" for a computer
    profiles: list[str | None]  # whose profile to link to, None for a computer

    @property
    def total(self) -> int:
        """The number of changes (steps after the initial one)."""
        return max(0, len(self.steps) - 1)


def _label(do: str) -> str:
    return str(ACTION_LABELS.get(do, do))


def _step(
    state: Any, t: float, seat: int | None, action: dict[str, Any], events: list[dict[str, Any]]
) -> dict[str, Any]:
    public = engine.view(state, None, t)
    return {
        "seat": seat,
        "action": {key: action[key] for key in ACTION_FIELDS if key in action},
        "label": _label(action["do"]) if action else str(_("Start of the game")),
        "events": events,
        "table": {key: public[key] for key in TABLE_KEYS},
        "players": [
            {"balance": p["balance"], "bank": p["bank"], "hand_count": p["hand_count"]}
            for p in public["players"]
        ],
        "hands": [engine.view(state, hand_seat, t)["hand"] or [] for hand_seat in (0, 1)],
    }


def replay_steps(game: Game) -> list[dict[str, Any]]:
    """Every step of a game's log, step 0 first. Only for a game that is over."""
    state = game_initial_state(game)
    t = float(game.setup.get("created_at", 0.0))
    steps = [_step(state, t, None, {}, [])]
    for row in game_changes(game):
        t = row.t
        state, events = replay_change(state, row)
        steps.append(_step(state, t, row.seat, row.action, events))
    return steps


def replay_page(*, game_id: int, step: int) -> ReplayPage | None:
    game = Game.objects.select_related("player0", "player1").filter(pk=game_id).first()
    if game is None:
        return None
    usernames = [game.player0.get_username(), game.player1.get_username()]
    names = game.display_names()
    # A computer has no profile page (its account is inactive): its name is no link.
    profiles = [None if seat == game.bot_seat else name for seat, name in enumerate(usernames)]
    if game.is_active:
        return ReplayPage(game, False, usernames, [], 0, names, profiles)
    steps = replay_steps(game)
    finished = game.status == Game.Status.FINISHED
    for step_json in steps:
        # A player's decision, at which the computer can say what it would have done
        # (games.computer.moves.computer_suggestion); only in a finished game.
        step_json["decision"] = (
            finished
            and step_json["seat"] is not None
            and step_json["action"].get("do") in engine.DECISIONS
        )
    start = max(0, min(step, len(steps) - 1))
    return ReplayPage(game, True, usernames, steps, start, names, profiles)
