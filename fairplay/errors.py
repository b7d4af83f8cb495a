"""Fair play's error codes, and the human text for each (translatable)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from realtime.errors import Messages

MESSAGES: Messages = {
    # The wait's own text, with the time left and why, is Refusal.message: this is the
    # code's general text, for a page that has only the code.
    "leaver_wait": _("You left a game recently: you cannot start a new one yet."),
    "rematch_offerer_waiting": _(
        "Your opponent left a game since offering this rematch: they cannot start a new one yet."
    ),
    # Said by the queue and the arenas (lobby and tournaments add these codes to theirs).
    "account_marked": _(
        "The moderators have marked your account: it cannot join the queue or arenas."
    ),
    # Reports.
    "report_self": _("You cannot report yourself."),
    "report_unknown_player": _("There is no player with that username."),
    "report_not_in_game": _("That player did not play in this game."),
    "report_not_reportable": _("Games against the computer or on one device cannot be reported."),
    "report_duplicate": _("You have already reported this player for this."),
    "report_limit": _("You have sent as many reports as a day allows: try again tomorrow."),
    # Moderators (the admin).
    "refund_unmarked": _("Only a marked account's opponents can be refunded: mark it first."),
}


class FairPlayError(ServiceError):
    """A refused fair-play request; `code` is one of MESSAGES' keys or a game's code."""

    messages = {**ServiceError.messages, **MESSAGES}


message_for = FairPlayError.message_for
