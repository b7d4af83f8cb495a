"""What the ratings app asks the apps above it, so that it imports none of them.

`game_rating_asked` is sent before a finished game is rated, with `game`: an app whose own
rule decides whether one of its games counts (an arena's real start, tournaments) answers
False to leave the game unrated; any other answer (None: not its game) leaves it to the
ratings' own rule (ratings.selectors.game_is_ratable).
"""

from __future__ import annotations

from django.dispatch import Signal

game_rating_asked = Signal()
