"""A finished game's replay, one step per change in its log, rendered by the server.

Step 0 is the table before anything happened; step N the table right after the N-th
change (a player's action or a timed transition), computed by the engine from the log
exactly as `games.replay` rebuilds a game. The board is the public view, as both
players saw it; both hands are shown at every step because a replay exists only once the
game is over (nothing is secret any more).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import engine
from games.models import Game
from games.replay import game_changes, game_initial_state, replay_change

ACTION_LABELS: dict[str, Promise] = {
    "start": _("pressed Start"),
    "continue": _("pressed Continue"),
    "play": _("played"),
    "lead": _("led"),
    "draw": _("drew a tile"),
    "bid": _("bid"),
    "raise": _("raised to"),
    "accept": _("accepted"),
    "renounce": _("renounced"),
    "resign": _("resigned"),
    "reveal": _("revealed their hand"),
    "advance": _("the clock acted"),
    "void": _("the game was voided (service fault)"),
}


@dataclass
class Step:
    number: int
    who: str  # username, or "" for a timed transition
    label: str
    detail: str
    t: float | None
    view: dict[str, Any]
    hands: list[list[str]]
    events: list[dict[str, Any]] = field(default_factory=list)
    # A player's decision, for which the computer can say what it would have done
    # (games.computer_play.computer_suggestion); only in a finished game.
    decision: bool = False


@dataclass
class ReplayPage:
    game: Game
    available: bool  # False while the game is still being played
    step: Step | None
    total: int  # number of steps after the initial one
    steps: list[tuple[int, str]]  # (number, short label) for the step list
    usernames: list[str]
    names: list[str]  # what the page shows: "Computer (hard)" for a computer
    profiles: list[str | None]  # whose profile to link to, None for a computer

    @property
    def previous(self) -> int | None:
        return None if self.step is None or self.step.number == 0 else self.step.number - 1

    @property
    def next(self) -> int | None:
        if self.step is None or self.step.number >= self.total:
            return None
        return self.step.number + 1


def _detail(action: dict[str, Any]) -> str:
    parts = []
    if "tile" in action:
        parts.append(str(action["tile"]))
    if action.get("end"):
        parts.append(f"→ {action['end']}")
    if "amount" in action:
        parts.append(str(action["amount"]))
    return " ".join(parts)


def _label(do: str) -> str:
    return str(ACTION_LABELS.get(do, do))


def action_text(action: dict[str, Any]) -> str:
    """An action in words, as the replay lists it: "played 6-4 → right"."""
    return " ".join(part for part in (_label(action.get("do", "?")), _detail(action)) if part)


def replay_page(*, game_id: int, step: int) -> ReplayPage | None:
    game = Game.objects.select_related("player0", "player1").filter(pk=game_id).first()
    if game is None:
        return None
    players = (game.player0, game.player1)
    usernames = [player.get_username() for player in players]
    names = game.seat_names()
    # A computer has no profile page (its account is inactive): its name is no link.
    profiles = [None if seat == game.bot_seat else name for seat, name in enumerate(usernames)]
    rows = list(game_changes(game))
    listing = [(0, str(_("Start of the game")))] + [
        (index, _label(row.action.get("do", "?"))) for index, row in enumerate(rows, start=1)
    ]
    if game.is_active:
        return ReplayPage(game, False, None, len(rows), [], usernames, names, profiles)
    step = max(0, min(step, len(rows)))
    state = game_initial_state(game)
    t = float(game.setup.get("created_at", 0.0))
    events: list[dict[str, Any]] = []
    for row in rows[:step]:
        t = row.t
        state, events = replay_change(state, row)
    if step == 0:
        who, label, detail = "", str(_("Start of the game")), ""
    else:
        row = rows[step - 1]
        who = names[row.seat] if row.seat is not None else ""
        label, detail = _label(row.action.get("do", "?")), _detail(row.action)
    view = engine.view(state, None, t)
    hands = [engine.view(state, seat, t)["hand"] or [] for seat in (0, 1)]
    decision = (
        step > 0
        and game.status == Game.Status.FINISHED
        and rows[step - 1].seat is not None
        and rows[step - 1].action.get("do") in engine.DECISIONS
    )
    return ReplayPage(
        game=game,
        available=True,
        step=Step(step, who, label, detail, t, view, hands, events, decision),
        total=len(rows),
        steps=listing,
        usernames=usernames,
        names=names,
        profiles=profiles,
    )
