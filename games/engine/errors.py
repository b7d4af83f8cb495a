"""The one exception the engine raises for a refused request (R8.2)."""

from __future__ import annotations

ERROR_CODES: tuple[str, ...] = (
    "not_your_turn",
    "illegal_tile",
    "end_required",
    "cannot_draw",
    "bad_bid",
    "wrong_phase",
    "game_over",
    "bad_request",
)


class RuleError(Exception):
    """An illegal request: `code` is one of ERROR_CODES, `message` a sentence for the player.

    Messages never name a hidden tile (R2.4): they may repeat what the sender asked for, but
    never what the opponent holds or what lies in the boneyard.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
