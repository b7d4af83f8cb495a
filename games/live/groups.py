"""The game's channel-layer groups, named here only: one per audience of a game
(games.live.audiences), so that a socket hears only the view its audience may see."""

from __future__ import annotations


def game_group(game_id: int, audience: str) -> str:
    return f"game_{game_id}_{audience}"
