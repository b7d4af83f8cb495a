"""The ledger invariant, checked by the tests after every kind of event."""

from __future__ import annotations

from collections import defaultdict

from ratings.elo import INITIAL_RATING
from ratings.models import RatingEntry
from ratings.selectors import rating_state


def assert_ledger_consistent() -> None:
    """Every player's rating is the sum of their entries, and each entry chains to the last.

    * per player, in order: the first ``rating_before`` is 1500, each next ``rating_before``
      is the previous ``rating_after``, ``delta == after - before``;
    * rating = 1500 + sum(delta); games played = "game" entries - reversals; peak = max
      after (or 1500) — and ``rating_state`` reports exactly that;
    * a rated game has exactly two "game" entries (one per player), and each reversal
      undoes exactly one of them; a "refund" gives back exactly one loss, and a player's
      loss is never both reversed and refunded.
    """
    by_player: dict[int, list[RatingEntry]] = defaultdict(list)
    by_game: dict[int, list[RatingEntry]] = defaultdict(list)
    for entry in RatingEntry.objects.order_by("created_at", "id"):
        by_player[entry.player_id].append(entry)
        by_game[entry.game_id].append(entry)
    for player_id, entries in by_player.items():
        rating = INITIAL_RATING
        for entry in entries:
            assert entry.rating_before == rating, (player_id, entry)
            assert entry.delta == entry.rating_after - entry.rating_before
            rating = entry.rating_after
        assert rating == INITIAL_RATING + sum(e.delta for e in entries)
        games = sum(e.reason == "game" for e in entries)
        reversals = sum(e.reason == "fault_reversal" for e in entries)
        state = rating_state(user_id=player_id)
        assert state.rating == rating
        assert state.games_played == games - reversals
        assert state.peak_rating == max([INITIAL_RATING, *(e.rating_after for e in entries)])
    for game_id, entries in by_game.items():
        rated = [e for e in entries if e.reason == "game"]
        assert len(rated) == 2 and {e.player_id for e in rated} == {e.player_id for e in entries}, (
            game_id
        )
        for reversal in (e for e in entries if e.reason == "fault_reversal"):
            (original,) = [e for e in rated if e.player_id == reversal.player_id]
            assert reversal.delta == -original.delta
        # A refund gives back exactly one loss, never on top of a fault's reversal.
        for refund in (e for e in entries if e.reason == "refund"):
            (original,) = [e for e in rated if e.player_id == refund.player_id]
            assert original.delta < 0 and refund.delta == -original.delta
            assert not any(
                e.reason == "fault_reversal" and e.player_id == refund.player_id for e in entries
            )
