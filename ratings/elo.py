"""Pure Elo arithmetic for rated games: no Django, no I/O, no state.

A ledger (models, transactions) is expected to sit on top of this module: it loads each
player's ``PlayerRating`` as it was *before* the game, calls ``rate_game`` and stores the
deltas, then records the new state as::

    PlayerRating(
        rating=old.rating + delta,
        games_played=old.games_played + 1,
        peak_rating=max(old.peak_rating, old.rating + delta),
    )
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Re-exported: the ratings app's modules count from it through this module.
from games.rating import INITIAL_RATING as INITIAL_RATING

# Expected score: a rating difference larger than this counts as exactly this much.
MAX_RATING_DIFFERENCE = 400

# K-factor schedule.
K_NEW_PLAYER = 40  # while fewer than NEW_PLAYER_GAMES rated games have been completed
K_ESTABLISHED = 20
K_ELITE = 10  # once the player has ever reached ELITE_RATING; never goes back up
NEW_PLAYER_GAMES = 30
ELITE_RATING = 2400

# A rating is shown with a trailing "?" while fewer than this many rated games are done.
PROVISIONAL_GAMES = 10

WIN = 1.0
DRAW = 0.5
LOSS = 0.0
_VALID_SCORES = (LOSS, DRAW, WIN)


def expected_score(rating: float, opponent_rating: float) -> float:
    """Expected score (0..1) of ``rating`` against ``opponent_rating``.

    Uses the 400-point rule: the difference is clamped to +/-400, so the result always lies
    in [1/11, 10/11]. ``expected_score(a, b) + expected_score(b, a) == 1`` (up to float error).
    """
    diff = opponent_rating - rating
    diff = max(-MAX_RATING_DIFFERENCE, min(MAX_RATING_DIFFERENCE, diff))
    # float ** float is typed Any (a negative base gives a complex); this base is positive.
    odds: float = 10.0 ** (diff / 400.0)
    return 1.0 / (1.0 + odds)


def k_factor(*, games_played: int, peak_rating: int) -> int:
    """K for the next game.

    ``games_played`` is the number of rated games completed *before* this one and
    ``peak_rating`` the highest rating the player has ever held (including the current one).
    Having reached 2400 takes precedence over the new-player K: once reached, K is 10 for good.
    """
    if games_played < 0:
        raise ValueError(f"games_played must be >= 0, got {games_played}")
    if peak_rating >= ELITE_RATING:
        return K_ELITE
    if games_played < NEW_PLAYER_GAMES:
        return K_NEW_PLAYER
    return K_ESTABLISHED


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating state before a game."""

    rating: int
    games_played: int
    peak_rating: int

    def __post_init__(self) -> None:
        if self.games_played < 0:
            raise ValueError(f"games_played must be >= 0, got {self.games_played}")
        if self.peak_rating < self.rating:
            raise ValueError(f"peak_rating ({self.peak_rating}) must be >= rating ({self.rating})")

    @property
    def k(self) -> int:
        return k_factor(games_played=self.games_played, peak_rating=self.peak_rating)


def round_half_away_from_zero(x: float) -> int:
    """2.5 -> 3, -2.5 -> -3, 2.4 -> 2.

    Chosen over Python's ``round`` (banker's rounding: round(20.5) == 20 but
    round(21.5) == 22) because it is what a person checking a result by hand expects, its
    outcome does not depend on the parity of the neighbouring integer, and it is symmetric
    (f(-x) == -f(x)), so a winner's and a loser's rounded deltas mirror each other.
    """
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def rate_game(a: PlayerRating, b: PlayerRating, score_a: float) -> tuple[int, int]:
    """Integer rating deltas ``(delta_a, delta_b)`` for one game.

    ``score_a`` is A's result: 1 (win), 0 (loss) or 0.5 (draw); B scores ``1 - score_a``.
    With equal K the deltas sum to exactly 0 (B's is A's negated); with different K each side
    is computed, and rounded, from its own K, so the sum is generally not 0.
    Thanks to the 400-point rule a win always gains at least 1 point and a loss always
    costs at least 1 (|K * (S - E)| >= 10/11 > 0.5).
    """
    if score_a not in _VALID_SCORES:
        raise ValueError(f"score_a must be one of {_VALID_SCORES}, got {score_a!r}")
    k_a, k_b = a.k, b.k
    delta_a = round_half_away_from_zero(k_a * (score_a - expected_score(a.rating, b.rating)))
    if k_a == k_b:
        return delta_a, -delta_a
    score_b = 1.0 - score_a
    delta_b = round_half_away_from_zero(k_b * (score_b - expected_score(b.rating, a.rating)))
    return delta_a, delta_b


def display_rating(rating: int, games_played: int) -> str:
    """``"1534?"`` while provisional (fewer than 10 rated games), else ``"1534"``."""
    if games_played < PROVISIONAL_GAMES:
        return f"{rating}?"
    return str(rating)
