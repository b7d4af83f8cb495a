"""The games' error codes a client can receive, and the human text for each (translatable).

The engine's own messages are English sentences; the platform answers with its own,
translatable text per code, which also guarantees that no message can carry a tile.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from realtime import errors as realtime_errors
from realtime.errors import Messages

MESSAGES: Messages = {
    # The engine's codes (engine.ERROR_CODES).
    "not_your_turn": _("It is not your turn."),
    "illegal_tile": _("That tile cannot be played there."),
    "end_required": _("That tile fits more than one end: choose an end."),
    "cannot_draw": _("You cannot draw now."),
    "bad_bid": _("That bid is not allowed."),
    "wrong_phase": _("That action is not possible at this moment of the game."),
    "game_over": _("The game is over."),
    # The platform's codes.
    "not_found": _("No such game."),
    "forbidden": _("You are not a player in this game."),
    "stale": _("The game moved on before this request arrived."),
    "not_finished": _("This is only available once the game is finished."),
    "not_a_decision": _("There is no decision of a player at this step."),
    "suggestion_failed": _("The computer could not suggest a move here."),
    "login_required": _("Log in to ask the computer."),
    # Not an answer to a request: what every game socket is told (realtime.database_watch).
    "database_unavailable": _(
        "The server cannot save moves right now: it is waiting for its database to come"
        " back. If that takes more than %(seconds)s seconds, games in progress are cancelled,"
        " with no rating change."
    ),
    # Rematches.
    "rematch_not_over": _("A rematch can be offered once the game is over."),
    "rematch_no_offer": _("There is no rematch offer to decline."),
    "rematch_same_device": _("A same-device game starts a new game on this device instead."),
    "already_playing": _("You are in a game already: finish it first."),
    # Game reviews (REVIEW_REQUESTS_PER_DAY).
    "review_limit": _("You have asked for as many reviews as a day allows: try again tomorrow."),
    # Games against the computer (COMPUTER_GAMES_PER_HOUR).
    "computer_games_limit": _(
        "You have started as many games against the computer as an hour allows: try again"
        " a little later."
    ),
}


class ServiceError(realtime_errors.CodedError):
    """A refused request to a service; `code` is one of MESSAGES' keys or a socket's code."""

    messages = {**realtime_errors.CodedError.messages, **MESSAGES}


message_for = ServiceError.message_for
