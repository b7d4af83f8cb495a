"""The rating ledger: what is rated, exactly once, and the sum invariant after every event."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.clock.faults import game_cancel_for_fault
from games.live.broadcast import players_meta
from games.models import Game
from ratings.elo import PlayerRating, rate_game
from ratings.models import RatingEntry
from ratings.selectors import (
    game_is_ratable,
    leaderboard,
    players_snapshot,
    rating_label,
    rating_state,
)
from ratings.selectors import rating_of as player_rating
from ratings.services import rating_record_game_result, rating_reverse_game
from tests.games.factories import drive, make_game, seeded_deals
from tests.ratings.ledger import assert_ledger_consistent

pytestmark = pytest.mark.django_db


def entries(game: Game) -> list[tuple[int, str, int]]:
    return list(
        RatingEntry.objects.filter(game=game)
        .order_by("id")
        .values_list("player_id", "reason", "delta")
    )


def test_a_finished_game_is_rated_by_the_game_service_in_its_transaction(players, play_game):
    alice, bob = players[:2]
    game = play_game(alice, bob, winner=0)
    win, loss = rate_game(PlayerRating(1500, 0, 1500), PlayerRating(1500, 0, 1500), 1.0)
    assert (win, loss) == (20, -20)  # K = 40 for new players, equal ratings: 40 * 0.5
    assert entries(game) == [(alice.pk, "game", 20), (bob.pk, "game", -20)]
    assert rating_state(user_id=alice.pk) == PlayerRating(1520, 1, 1520)
    assert rating_state(user_id=bob.pk) == PlayerRating(1480, 1, 1500)
    assert player_rating(alice) == 1520
    assert rating_label(rating_state(user_id=alice.pk)) == "1520?"  # provisional
    assert_ledger_consistent()


def test_a_game_shows_the_ratings_stored_when_it_was_created(players, play_game):
    alice, bob = players[:2]
    play_game(alice, bob, winner=0)
    snapshot = players_snapshot([alice, bob])
    assert snapshot == [
        {"rating": 1520, "rating_label": "1520?"},
        {"rating": 1480, "rating_label": "1480?"},
    ]
    game = services.game_create(player0=alice, player1=bob, players_snapshot=snapshot)
    services.game_submit_action(
        game_id=game.pk, user=alice, action={"do": "resign"}, request_id="r"
    )
    # Results recorded since (its own, another game's) do not change what this game shows.
    play_game(alice, bob, winner=1)
    game.refresh_from_db()
    assert [(p["rating"], p["rating_label"]) for p in players_meta(game)] == [
        (1520, "1520?"),
        (1480, "1480?"),
    ]
    # Without a snapshot (same-device, tools), both seats show a newcomer's rating.
    plain = services.game_create(player0=alice, player1=bob, rated=False)
    assert [p["rating_label"] for p in players_meta(plain)] == ["1500?", "1500?"]


def test_rating_the_same_result_twice_rates_once(players, play_game):
    alice, bob = players[:2]
    game = play_game(alice, bob, winner=1)
    first = entries(game)
    assert len(first) == 2
    again = rating_record_game_result(game=game)  # a retried task, a second writer
    assert sorted(e.pk for e in again) == sorted(
        RatingEntry.objects.filter(game=game).values_list("pk", flat=True)
    )
    assert entries(game) == first
    # And an advance or a late move after the end changes nothing either.
    services.game_advance(game_id=game.pk)
    assert not services.game_submit_action(
        game_id=game.pk, user=alice, action={"do": "resign"}, request_id="late"
    ).ok
    assert entries(game) == first
    assert_ledger_consistent()


def test_successive_games_chain_and_use_current_ratings(players, play_game):
    alice, bob, carol = players[:3]
    play_game(alice, bob, winner=0)  # alice 1520, bob 1480
    game = play_game(bob, carol, winner=0)  # bob (1480) beats carol (1500)
    expected = rate_game(PlayerRating(1480, 1, 1500), PlayerRating(1500, 0, 1500), 1.0)
    assert [d for _p, _r, d in entries(game)] == list(expected)
    assert rating_state(user_id=bob.pk).games_played == 2
    assert_ledger_consistent()


def test_games_that_are_not_rated(players):
    alice, bob = players[:2]
    # Same device: one account in both seats.
    same = make_game(alice, alice, same_device=True)
    same.status, same.winner_seat = Game.Status.FINISHED, 0
    assert not game_is_ratable(same)
    # Aborted (P1): nobody pressed Start within 60 s.
    aborted = make_game(alice, bob, created_at=timezone.now().timestamp() - 120)
    services.game_advance(game_id=aborted.pk)
    aborted.refresh_from_db()
    assert aborted.status == Game.Status.ABORTED
    # Finished before both players made a decision: Start, then a resignation.
    resigned = make_game(alice, bob)
    for user in (alice, bob):
        assert services.game_submit_action(
            game_id=resigned.pk, user=user, action={"do": "start"}, request_id=None
        ).ok
    assert services.game_submit_action(
        game_id=resigned.pk, user=bob, action={"do": "resign"}, request_id=None
    ).ok
    resigned.refresh_from_db()
    assert resigned.status == Game.Status.FINISHED and resigned.winner_seat == 0
    for game in (aborted, resigned):
        assert not game_is_ratable(game)
        assert rating_record_game_result(game=game) == []
    # A game created unrated is not rated even when played out.
    unrated = services.game_create(
        player0=alice, player1=bob, rated=False, deals=seeded_deals(7), balances=(10, 10)
    )
    unrated = drive(unrated.pk, (alice, bob), lambda view: view["status"] == "finished")
    assert unrated.winner_seat == 0
    assert rating_record_game_result(game=unrated) == []
    assert not RatingEntry.objects.filter(game__in=[aborted, resigned, unrated]).exists()
    assert rating_state(user_id=alice.pk) == PlayerRating(1500, 0, 1500)
    assert_ledger_consistent()


def test_reversal_undoes_exactly_and_only_once(players, play_game):
    alice, bob, carol = players[:3]
    first = play_game(alice, bob, winner=0)
    play_game(alice, carol, winner=1)
    before = {p.pk: rating_state(user_id=p.pk) for p in (alice, bob, carol)}
    created = rating_reverse_game(game=first, note="test")
    assert {(e.player_id, e.delta) for e in created} == {(alice.pk, -20), (bob.pk, 20)}
    assert rating_reverse_game(game=first) == []  # idempotent
    assert rating_state(user_id=alice.pk).rating == before[alice.pk].rating - 20
    assert rating_state(user_id=alice.pk).games_played == 1
    assert rating_state(user_id=bob.pk) == PlayerRating(1500, 0, 1500)
    assert rating_state(user_id=carol.pk) == before[carol.pk]
    assert_ledger_consistent()


def test_invariant_after_fault_cancellation_of_a_rated_game(players, play_game):
    alice, bob = players[:2]
    game = play_game(alice, bob, winner=0)
    assert game_cancel_for_fault(game_id=game.pk, note="test fault")
    assert not game_cancel_for_fault(game_id=game.pk)  # already cancelled
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED and game.reason == "service_fault"
    assert game.winner_seat is None
    assert [r for _p, r, _d in entries(game)].count("fault_reversal") == 2
    assert player_rating(alice) == player_rating(bob) == 1500
    assert rating_record_game_result(game=game) == []  # a cancelled game is not rated
    assert len(entries(game)) == 4
    assert_ledger_consistent()


def test_leaderboard_lists_recently_rated_players_best_first(players, play_game):
    alice, bob, carol, dave = players
    play_game(alice, bob, winner=0)
    play_game(carol, dave, winner=1)
    old = play_game(alice, carol, winner=0)
    rows = leaderboard()
    # alice 1520 then +18 against carol (1480: E = 0.557, 40 * 0.443 = 17.7), dave 1520.
    assert [(r.rank, r.username, r.rating) for r in rows] == [
        (1, "alice", 1538),
        (2, "dave", 1520),
        (3, "bob", 1480),
        (4, "carol", 1462),
    ]
    assert rows[0].label == "1538?" and rows[0].games_played == 2
    # Nobody rated in the last 30 days: nobody listed.
    later = timezone.now() + timedelta(days=31)
    assert leaderboard(now=later) == []
    # A player whose only game was voided is not a rated player any more.
    first = Game.objects.filter(player0=carol, player1=dave).get()
    rating_reverse_game(game=first)
    rating_reverse_game(game=old)
    assert "carol" not in {r.username for r in leaderboard()}
    assert_ledger_consistent()


@pytest.mark.django_db(transaction=True)
def test_two_threads_racing_to_rate_one_game_rate_it_once(players, play_game):
    """On PostgreSQL the row locks and the unique constraint decide; on SQLite, BEGIN IMMEDIATE."""
    alice, bob = players[:2]
    game = play_game(alice, bob, winner=0)
    RatingEntry.objects.filter(game=game).delete()  # as if the result had not been rated yet
    barrier = threading.Barrier(4)
    results: list[int] = []
    errors: list[BaseException] = []

    def rate() -> None:
        try:
            barrier.wait(timeout=10)
            fresh = Game.objects.get(pk=game.pk)
            results.append(len(rating_record_game_result(game=fresh)))
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=rate) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, errors
    assert results == [2, 2, 2, 2]
    assert RatingEntry.objects.filter(game=game).count() == 2
    assert_ledger_consistent()
