"""Fair play's error codes, and the human text for each."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from realtime.errors import Messages

MESSAGES: Messages = {
    # The wait's own text, with the time left and why, is Refusal.message: this is the
    # code's general text, for a page that has only the code.
    "leaver_wait": _("You left a game recently: you cannot start a new one yet."),
}


class FairPlayError(ServiceError):
    """A refused request; `code` is one of MESSAGES' keys or a game's code."""

    messages = {**ServiceError.messages, **MESSAGES}


message_for = FairPlayError.message_for
