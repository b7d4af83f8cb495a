"""The review page's data: the finished game's review with its decisions in words, and for
the signed-in player their own mistakes with the position as they saw it.

Built only for a finished game: while it is played there is no review to show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games import engine
from games.computer.suggestions import action_text
from games.live.messages import ReviewMessage
from games.models import Game, GameReview
from games.replay.log import game_changes, game_initial_state, replay_change

from .grades import BLUNDER, MISTAKE
from .services import review_current, review_message

# What "learn from your mistakes" shows of the player's own view at the decision.
SEEN_KEYS = ("phase", "round", "board", "hand", "must_play", "auction", "boneyard_left", "jockey")
LEARN_GRADES = (MISTAKE, BLUNDER)
# "Learn from your mistakes" offers each option as a choice still to make ("bid 20",
# "pujar 20"), not as the past move the decision list names ("pujó 20").
CHOICE_LABELS: dict[str, Promise] = {
    "play": pgettext_lazy("a choice", "play"),
    "lead": pgettext_lazy("a choice", "lead with"),
    "draw": pgettext_lazy("a choice", "draw a tile"),
    "bid": pgettext_lazy("a choice", "bid"),
    "raise": pgettext_lazy("a choice", "raise to"),
    "accept": pgettext_lazy("a choice", "accept"),
    "renounce": pgettext_lazy("a choice", "renounce"),
}


@dataclass
class ReviewPage:
    game: Game
    names: list[str]
    review: GameReview | None
    progress: ReviewMessage | None
    data: dict[str, Any] = field(default_factory=dict)  # the page's JSON
    can_request: bool = False
    perspective: int = 0  # whose chance to win the graph shows

    @property
    def perspective_name(self) -> str:
        return self.names[self.perspective]

    @property
    def finished(self) -> bool:
        return self.game.status == Game.Status.FINISHED


def _percent(chance: float) -> str:
    return _decimal(100 * chance)


def _decimal(value: float) -> str:
    """One decimal in the active language ("35,1" in Spanish), as the page's other figures."""
    return number_format(value, decimal_pos=1, use_l10n=True)


def explain(decision: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A decision in words: what was played, what was best, by how much."""
    options = decision["options"]
    played = options[decision["chosen"]]["action"] if options else decision["played"]
    out = dict(decision)
    out["name"] = names[decision["seat"]]
    out["played_text"] = action_text(played)
    out["options"] = [
        {
            **option,
            "text": action_text(option["action"]),
            "choice": action_text(option["action"], CHOICE_LABELS),
            "percent": _percent(option["chance"]),
        }
        for option in options
    ]
    if options and decision["chosen"] != 0:
        out["sentence"] = _(
            "%(name)s: %(played)s. Better: %(best)s, by %(points)s points"
            " (win chance -%(loss)s %%)."
        ) % {
            "name": names[decision["seat"]],
            "played": action_text(played),
            "best": action_text(options[0]["action"]),
            "points": _decimal(decision["points_lost"]),
            "loss": _percent(decision["loss"]),
        }
    return out


def _perspective(mine: list[int], reviewed: list[int]) -> int:
    """Whose chance the graph shows: the reader's own seat, else the one reviewed player's
    (a person against the computer), else seat 0."""
    if len(mine) == 1:
        return mine[0]
    if len(reviewed) == 1:
        return reviewed[0]
    return 0


def _seen(game: Game, steps: set[int]) -> dict[int, dict[str, Any]]:
    """The deciding seat's own view at each of `steps` (a replay of the log to them)."""
    seen: dict[int, dict[str, Any]] = {}
    if not steps:
        return seen
    state = game_initial_state(game)
    for number, row in enumerate(game_changes(game), start=1):
        if number in steps and row.seat is not None:
            view = engine.view(state, row.seat, row.t)
            seen[number] = {key: view[key] for key in SEEN_KEYS}
            seen[number]["balances"] = [p["balance"] for p in view["players"]]
            seen[number]["seat"] = row.seat
        if number >= max(steps):
            break
        state, _events = replay_change(state, row)
    return seen


def review_page(*, game_id: int, user_id: int | None) -> ReviewPage | None:
    game = Game.objects.select_related("player0", "player1").filter(pk=game_id).first()
    if game is None:
        return None
    names = game.display_names()
    if game.status != Game.Status.FINISHED:
        return ReviewPage(game, names, None, None)
    review = review_current(game_id=game_id)
    mine = game.seats_of(user_id) if user_id is not None else []
    if review is None or review.status != GameReview.Status.DONE:
        progress = review_message(review) if review is not None else None
        can_request = user_id is not None and (
            review is None or review.status == GameReview.Status.FAILED
        )
        return ReviewPage(game, names, review, progress, can_request=can_request)
    result = review.result
    decisions = [explain(d, names) for d in result["decisions"] if not d["forced"]]
    learn = [d for d in decisions if d["seat"] in mine and d["grade"] in LEARN_GRADES]
    seen = _seen(game, {d["step"] for d in learn})
    for d in learn:
        d["seen"] = seen.get(d["step"])
    data = {
        "perspective": _perspective(mine, [p["seat"] for p in result["players"]]),
        "names": names,
        "players": result["players"],
        "curve": result["curve"],
        "decisions": decisions,
        "learn": [d["step"] for d in learn],
        "thresholds": result.get("thresholds", {}),
        "replay": f"/games/{game.pk}/replay/",
    }
    return ReviewPage(game, names, review, None, data, perspective=data["perspective"])
