"""The rating every player starts from: games shows it for a seat without a rating, and the
ratings app counts every player's rating from it (ratings.elo)."""

from __future__ import annotations

INITIAL_RATING = 1500
