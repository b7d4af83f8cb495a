"""tournaments.arena: scoring, streaks, voids, tie-breaks and the pairing of a wave."""

from __future__ import annotations

from tournaments.arena import (
    Free,
    Outcome,
    Standing,
    counts,
    pair_wave,
    performance,
    ranked,
    score,
    total,
)

W, L, N = Outcome.WIN, Outcome.LOSS, Outcome.NONE


def test_a_win_scores_two_and_a_loss_nothing():
    assert total([W]) == (2, 1)
    assert total([L]) == (0, 0)
    assert total([W, L, W]) == (4, 1)


def test_wins_count_double_after_two_in_a_row_until_a_loss():
    assert [score(W, streak).points for streak in range(4)] == [2, 2, 4, 4]
    assert total([W, W, W, W]) == (12, 4)
    assert total([W, W, W, L, W, W, W]) == (8 + 8, 3)


def test_a_void_or_abort_counts_nothing_and_keeps_the_streak():
    assert total([W, W, N, W]) == (8, 3)
    assert score(N, 5) == score(N, 5).__class__(0, 5, False)
    assert total([N, N]) == (0, 0)


def test_performance_is_the_mean_opponent_plus_400_per_net_win():
    assert performance([1500, 1700], wins=2, losses=0) == 2000
    assert performance([1600, 1600], wins=1, losses=1) == 1600
    assert performance([], wins=0, losses=0) is None


def test_standings_break_ties_by_performance_then_joining_order():
    rows = [
        Standing(user_id=1, score=6, performance=1500, joined_order=0),
        Standing(user_id=2, score=6, performance=1700, joined_order=1),
        Standing(user_id=3, score=8, performance=None, joined_order=2),
        Standing(user_id=4, score=6, performance=1500, joined_order=3),
        Standing(user_id=5, score=0, performance=None, joined_order=4),
    ]
    assert [s.user_id for s in ranked(rows)] == [3, 2, 1, 4, 5]


def free(user_id, score=0, rating=1500, last=None, first_seats=0, run=0):
    return Free(user_id, score, rating, last, first_seats, run)


def test_a_wave_pairs_nearest_scores_and_ratings_and_leaves_the_odd_one_waiting():
    players = [free(1, 8, 1500), free(2, 8, 1600), free(3, 0, 1500), free(4, 2, 1400), free(5)]
    pairs = pair_wave(players, others_playing=True)
    # 2 and 1 lead on 8 points; 4 (2 points) meets the nearest of the two on 0: 3 by id.
    assert [{a.user_id, b.user_id} for a, b in pairs] == [{1, 2}, {3, 4}]


def test_a_wave_avoids_the_last_opponent_while_someone_else_is_playing():
    a, b = free(1, last=2), free(2, last=1)
    assert pair_wave([a, b], others_playing=True) == []
    assert len(pair_wave([a, b], others_playing=False)) == 1
    c = free(3)
    [(x, y)] = pair_wave([a, b, c], others_playing=True)
    assert {x.user_id, y.user_id} != {1, 2}


def test_seats_go_to_whoever_sat_first_less_often():
    often, rarely = free(1, first_seats=2), free(2, first_seats=-1)
    [(first, second)] = pair_wave([often, rarely], others_playing=False)
    assert (first.user_id, second.user_id) == (2, 1)


def test_a_player_listed_twice_is_paired_once():
    [(first, second)] = pair_wave([free(1), free(1), free(2)], others_playing=False)
    assert {first.user_id, second.user_id} == {1, 2}


S = Outcome.SHORT


def test_a_game_counts_once_both_made_the_decisions_asked():
    assert counts((3, 3), 3) and counts((7, 4), 3)
    assert not counts((3, 2), 3) and not counts((0, 9), 3)
    assert counts((0, 0), 0)


def test_a_short_game_counts_nothing_and_breaks_no_streak():
    assert total([W, W, S, W]) == (8, 3)
    assert total([S] * 21) == (0, 0)
    assert score(S, 4) == score(N, 4)


def test_two_players_alone_meet_at_most_max_run_games_in_a_row():
    again = [free(1, last=2, run=2), free(2, last=1, run=2)]
    assert len(pair_wave(again, others_playing=False, max_run=3)) == 1
    enough = [free(1, last=2, run=3), free(2, last=1, run=3)]
    assert pair_wave(enough, others_playing=False, max_run=3) == []
    # One side's run is enough to stop them: the other may have met someone else since.
    assert pair_wave([free(1, last=2, run=3), free(2)], others_playing=False, max_run=3) == []


def test_a_waiting_player_is_met_before_the_last_opponent_again():
    a, b, c = free(1, last=2, run=1), free(2, last=1, run=1), free(3, score=40)
    [(x, y)] = pair_wave([a, b, c], others_playing=False)
    assert {x.user_id, y.user_id} != {1, 2}
