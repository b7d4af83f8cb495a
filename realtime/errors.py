"""The error codes every socket can answer, whatever app it serves (translatable)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, TypeAlias

from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

# Each app's codes and the lazy text of each.
Messages: TypeAlias = "Mapping[str, StrPromise]"

MESSAGES: Messages = {
    "bad_request": _("The request was malformed."),
    "rate_limited": _("Too many messages: slow down."),
    # The socket is open: it is the server that cannot serve (its database, its Redis).
    "unavailable": _("The server cannot answer right now — your last move is being sent again."),
}


class CodedError(Exception):
    """A refused request named by a code; a subclass adds its app's codes to `messages`."""

    messages: ClassVar[Messages] = MESSAGES

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code

    @classmethod
    def message_for(cls, code: str) -> StrPromise:
        """The text of a code this class knows, else that of bad_request."""
        return cls.messages.get(code, MESSAGES["bad_request"])

    @property
    def message(self) -> StrPromise:
        return self.message_for(self.code)


message_for = CodedError.message_for
