"""Tests for the pure Elo module (ratings/elo.py).

Hand calculations used below (E = 1 / (1 + 10 ** ((opponent - own) / 400))):
  * equal ratings:  E = 1 / (1 + 10**0)   = 0.5
  * 200-point gap:  10**(200/400) = 10**0.5 = 3.16228
                    E(1500 vs 1700) = 1 / 4.16228 = 0.240253
                    E(1700 vs 1500) = 1 - 0.240253 = 0.759747
  * 400+ gap:       10**(400/400) = 10, so E(low) = 1/11 = 0.090909, E(high) = 10/11 = 0.909091
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.elo import (
    DRAW,
    ELITE_RATING,
    INITIAL_RATING,
    K_ELITE,
    K_ESTABLISHED,
    K_NEW_PLAYER,
    LOSS,
    NEW_PLAYER_GAMES,
    PROVISIONAL_GAMES,
    WIN,
    PlayerRating,
    display_rating,
    expected_score,
    k_factor,
    rate_game,
    round_half_away_from_zero,
)


def new_player(rating: int = INITIAL_RATING, games: int = 0) -> PlayerRating:
    """A player who has never been above ``rating`` and is below 2400."""
    return PlayerRating(rating=rating, games_played=games, peak_rating=rating)


# --- constants ---------------------------------------------------------------------------


def test_constants_match_the_spec():
    assert INITIAL_RATING == 1500
    assert (K_NEW_PLAYER, K_ESTABLISHED, K_ELITE) == (40, 20, 10)
    assert NEW_PLAYER_GAMES == 30
    assert ELITE_RATING == 2400
    assert PROVISIONAL_GAMES == 10


# --- expected_score ------------------------------------------------------------------------


def test_expected_score_equal_ratings_is_one_half():
    assert expected_score(1500, 1500) == 0.5


def test_expected_score_200_point_gap():
    # 1 / (1 + 10**0.5) = 0.240253; the favourite gets 0.759747.
    assert expected_score(1500, 1700) == pytest.approx(0.240253, abs=1e-6)
    assert expected_score(1700, 1500) == pytest.approx(0.759747, abs=1e-6)


def test_expected_score_exactly_400_gap_is_one_eleventh():
    assert expected_score(1500, 1900) == pytest.approx(1 / 11)
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)


def test_expected_score_gap_above_400_counts_as_400():
    assert expected_score(1500, 2000) == expected_score(1500, 1900)
    assert expected_score(2000, 1500) == expected_score(1900, 1500)
    assert expected_score(100, 3000) == expected_score(1500, 1900)


# --- k_factor ------------------------------------------------------------------------------


def test_k_is_40_for_a_brand_new_player():
    assert k_factor(games_played=0, peak_rating=1500) == 40


def test_k_changes_from_40_to_20_at_exactly_30_games():
    # games_played counts games completed BEFORE this one: the 30th game (29 done) is
    # still at K 40, the 31st (30 done) is at K 20.
    assert k_factor(games_played=29, peak_rating=1500) == 40
    assert k_factor(games_played=30, peak_rating=1500) == 20
    assert k_factor(games_played=500, peak_rating=2399) == 20


def test_k_changes_from_20_to_10_at_exactly_2400():
    assert k_factor(games_played=100, peak_rating=2399) == 20
    assert k_factor(games_played=100, peak_rating=2400) == 10


def test_k_stays_10_after_dropping_below_2400():
    # The current rating is not an input at all: only the peak matters.
    player = PlayerRating(rating=2150, games_played=200, peak_rating=2400)
    assert player.k == 10


def test_reaching_2400_beats_the_new_player_k():
    assert k_factor(games_played=5, peak_rating=2400) == 10


def test_k_factor_rejects_negative_games():
    with pytest.raises(ValueError):
        k_factor(games_played=-1, peak_rating=1500)


# --- rate_game: worked examples ------------------------------------------------------------


def test_equal_ratings_k40_win_is_plus_20_minus_20():
    # 40 * (1 - 0.5) = 20
    assert rate_game(new_player(), new_player(), WIN) == (20, -20)
    assert rate_game(new_player(), new_player(), LOSS) == (-20, 20)


def test_equal_ratings_draw_changes_nothing():
    assert rate_game(new_player(), new_player(), DRAW) == (0, 0)


def test_200_gap_favourite_wins_k40():
    # 40 * (1 - 0.759747) = 9.61 -> +10 / -10
    assert rate_game(new_player(1700), new_player(1500), WIN) == (10, -10)


def test_200_gap_underdog_wins_k40():
    # 40 * (1 - 0.240253) = 30.39 -> +30 / -30
    assert rate_game(new_player(1500), new_player(1700), WIN) == (30, -30)


def test_200_gap_draw_k40():
    # favourite: 40 * (0.5 - 0.759747) = -10.39 -> -10; underdog +10
    assert rate_game(new_player(1700), new_player(1500), DRAW) == (-10, 10)


def test_200_gap_established_players_k20():
    # favourite wins: 20 * 0.240253 = 4.81 -> 5; underdog wins: 20 * 0.759747 = 15.19 -> 15
    fav, dog = new_player(1700, games=50), new_player(1500, games=50)
    assert rate_game(fav, dog, WIN) == (5, -5)
    assert rate_game(dog, fav, WIN) == (15, -15)


def test_400_cap_1500_vs_2000_same_as_1500_vs_1900():
    # E(low) = 1/11. Underdog wins: 40 * 10/11 = 36.36 -> +36.
    # Underdog loses: 40 * (0 - 1/11) = -3.64 -> -4.
    low = new_player(1500)
    for high in (new_player(1900), new_player(2000)):
        assert rate_game(low, high, WIN) == (36, -36)
        assert rate_game(low, high, LOSS) == (-4, 4)


def test_different_k_each_side_uses_its_own_k():
    # A: new (K 40), B: 50 games (K 20), both 1500, A wins:
    # A: 40 * 0.5 = +20, B: 20 * (0 - 0.5) = -10. Deltas do not sum to 0.
    a = new_player(1500, games=0)
    b = new_player(1500, games=50)
    assert rate_game(a, b, WIN) == (20, -10)
    assert rate_game(b, a, WIN) == (10, -20)


def test_former_2400_player_keeps_k10_against_k20_player():
    # A dropped to 2300 but peaked at 2410 (K 10); B is 2300 with 100 games (K 20).
    # A wins: A 10 * 0.5 = +5, B 20 * -0.5 = -10.
    a = PlayerRating(rating=2300, games_played=100, peak_rating=2410)
    b = PlayerRating(rating=2300, games_played=100, peak_rating=2300)
    assert rate_game(a, b, WIN) == (5, -10)


def test_two_elite_players_k10():
    a = PlayerRating(rating=2450, games_played=300, peak_rating=2500)
    b = PlayerRating(rating=2450, games_played=300, peak_rating=2450)
    assert rate_game(a, b, WIN) == (5, -5)


@pytest.mark.parametrize("score", [2, -1, 0.25, 1.5])
def test_rate_game_rejects_invalid_scores(score):
    with pytest.raises(ValueError):
        rate_game(new_player(), new_player(), score)


def test_player_rating_rejects_inconsistent_state():
    with pytest.raises(ValueError):
        PlayerRating(rating=1600, games_played=3, peak_rating=1550)
    with pytest.raises(ValueError):
        PlayerRating(rating=1500, games_played=-1, peak_rating=1500)


# --- rounding ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0.5, 1),
        (-0.5, -1),
        (2.5, 3),  # Python's round(2.5) == 2
        (-2.5, -3),
        (20.5, 21),  # Python's round(20.5) == 20
        (21.5, 22),
        (2.49, 2),
        (-2.49, -2),
        (0.0, 0),
        (-0.4, 0),
    ],
)
def test_round_half_away_from_zero(value, expected):
    assert round_half_away_from_zero(value) == expected


# --- display_rating ------------------------------------------------------------------------


def test_display_is_provisional_at_9_games():
    assert display_rating(1534, 9) == "1534?"


def test_display_is_not_provisional_at_10_games():
    assert display_rating(1534, 10) == "1534"


def test_display_brand_new_player():
    assert display_rating(INITIAL_RATING, 0) == "1500?"


# --- properties ----------------------------------------------------------------------------

ratings = st.integers(min_value=100, max_value=3500)
scores = st.sampled_from([WIN, DRAW, LOSS])


@st.composite
def players(draw, k: int | None = None) -> PlayerRating:
    """Any consistent player; with ``k`` given, one whose K-factor is exactly ``k``."""
    if k is None:
        k = draw(st.sampled_from([K_NEW_PLAYER, K_ESTABLISHED, K_ELITE]))
    if k == K_ELITE:
        games = draw(st.integers(min_value=0, max_value=1000))
        peak = draw(st.integers(min_value=ELITE_RATING, max_value=3500))
    else:
        if k == K_NEW_PLAYER:
            games = draw(st.integers(min_value=0, max_value=NEW_PLAYER_GAMES - 1))
        else:
            games = draw(st.integers(min_value=NEW_PLAYER_GAMES, max_value=1000))
        peak = draw(st.integers(min_value=100, max_value=ELITE_RATING - 1))
    rating = draw(st.integers(min_value=100, max_value=peak))
    player = PlayerRating(rating=rating, games_played=games, peak_rating=peak)
    assert player.k == k
    return player


@st.composite
def same_k_pairs(draw) -> tuple[PlayerRating, PlayerRating]:
    k = draw(st.sampled_from([K_NEW_PLAYER, K_ESTABLISHED, K_ELITE]))
    return draw(players(k)), draw(players(k))


@given(ratings, ratings)
def test_property_expected_scores_sum_to_one(r1, r2):
    e1, e2 = expected_score(r1, r2), expected_score(r2, r1)
    assert math.isclose(e1 + e2, 1.0, abs_tol=1e-12)
    assert 1 / 11 - 1e-12 <= e1 <= 10 / 11 + 1e-12


@given(same_k_pairs(), scores)
def test_property_same_k_deltas_sum_to_exactly_zero(pair, score):
    a, b = pair
    delta_a, delta_b = rate_game(a, b, score)
    assert delta_a + delta_b == 0


@given(players(), players())
def test_property_winner_gains_and_loser_loses(a, b):
    # Strictly: with the 400-point cap the smallest swing is K/11 >= 10/11, which rounds to 1.
    delta_a, delta_b = rate_game(a, b, WIN)
    assert delta_a > 0
    assert delta_b < 0
    delta_a, delta_b = rate_game(a, b, LOSS)
    assert delta_a < 0
    assert delta_b > 0


@given(players(), players())
def test_property_draw_never_rewards_the_higher_rated_player(a, b):
    delta_a, delta_b = rate_game(a, b, DRAW)
    if a.rating >= b.rating:
        assert delta_a <= 0 <= delta_b
    if a.rating <= b.rating:
        assert delta_b <= 0 <= delta_a


@given(players(), players(), scores)
def test_property_deltas_are_integers_bounded_by_k(a, b, score):
    delta_a, delta_b = rate_game(a, b, score)
    assert type(delta_a) is int and type(delta_b) is int
    assert abs(delta_a) <= a.k
    assert abs(delta_b) <= b.k


@given(players(), players(), scores)
def test_property_swapping_the_players_mirrors_the_deltas(a, b, score):
    delta_a, delta_b = rate_game(a, b, score)
    assert rate_game(b, a, 1 - score) == (delta_b, delta_a)
