"""The "Play now" queue: pairing rule (pure), services, the lobby socket, and concurrency."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from games.models import Game
from lobby.matchmaking import Waiting, acceptable, accepted_range, find_pairs
from lobby.models import QueueEntry
from lobby.services import (
    queue_drop_stale,
    queue_join,
    queue_leave,
    queue_pair,
    queue_status_of,
    queue_touch,
)
from ratings.models import RatingEntry
from realtime.groups import user_group

# --- The pure rule ---------------------------------------------------------------------


def test_accepted_range_widens_50_every_5_seconds():
    assert [accepted_range(w) for w in (0, 4.99, 5, 9.9, 10, 30, 60)] == [
        100,
        100,
        150,
        150,
        200,
        400,
        700,
    ]
    assert accepted_range(-3) == 100  # a clock a little behind never narrows it


def test_close_ratings_pair_at_once_and_distant_ones_after_widening():
    a = Waiting(1, 1500, 0.0)
    b = Waiting(2, 1580, 0.0)
    c = Waiting(3, 1800, 0.0)
    assert find_pairs([a, b], 0.0) == [(a, b)]
    assert find_pairs([a, c], 0.0) == []
    assert find_pairs([a, c], 19.9) == []  # 300 apart: needs 100 + 4 x 50
    assert find_pairs([a, c], 20.0) == [(a, c)]


def test_both_players_must_accept():
    veteran = Waiting(1, 1500, 0.0)  # has waited 60 s: accepts ±700
    newcomer = Waiting(2, 1800, 60.0)  # just arrived: accepts ±100
    assert not acceptable(veteran, newcomer, 60.0)
    assert acceptable(veteran, newcomer, 80.0)


def test_closest_ratings_are_paired_first_and_nobody_twice():
    players = [Waiting(1, 1500, 0), Waiting(2, 1560, 1), Waiting(3, 1550, 2), Waiting(4, 1490, 3)]
    pairs = find_pairs(players, 5.0)
    assert {frozenset(w.user_id for w in pair) for pair in pairs} == {
        frozenset({1, 4}),
        frozenset({2, 3}),
    }


def test_a_player_is_never_paired_with_themselves():
    me = Waiting(1, 1500, 0.0)
    assert find_pairs([me, Waiting(1, 1500, 3.0)], 10.0) == []


@given(
    st.lists(
        st.tuples(st.integers(1, 30), st.integers(1000, 2200), st.floats(0, 100, allow_nan=False)),
        max_size=40,
    ),
    st.floats(0, 200, allow_nan=False),
)
def test_pairs_are_disjoint_and_acceptable(raw: list[tuple[int, int, float]], now: float) -> None:
    waiting = [Waiting(uid, rating, joined) for uid, rating, joined in raw]
    pairs = find_pairs(waiting, now)
    used = [w.user_id for pair in pairs for w in pair]
    assert len(used) == len(set(used))
    for a, b in pairs:
        assert acceptable(a, b, now)
    # Maximal: no two unpaired players could still be paired with each other.
    first = {}
    for w in waiting:
        first.setdefault(w.user_id, w)
    left = [w for uid, w in first.items() if uid not in set(used)]
    assert not any(acceptable(x, y, now) for i, x in enumerate(left) for y in left[i + 1 :])


# --- Services --------------------------------------------------------------------------


def give_rating(user: Any, rating: int, game: Game) -> None:
    """A ledger entry that puts `user` at `rating` (for pairing tests only)."""
    RatingEntry.objects.create(
        player=user,
        game=game,
        reason="game",
        rating_before=1500,
        rating_after=rating,
        delta=rating - 1500,
    )


def players_of(game: Game) -> set[int]:
    return {game.player0_id, game.player1_id}


@pytest.mark.django_db
def test_two_close_players_are_paired_and_both_redirected(
    players, django_capture_on_commit_callbacks
):
    alice, bob = players[:2]
    layer = get_channel_layer()
    channels = {}
    for user in (alice, bob):
        channels[user.pk] = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(user_group(user.pk), channels[user.pk])
    now = timezone.now()
    first = queue_join(user=alice, now=now)
    assert first.in_queue and first.waiting == 1 and first.accepted_range == 100
    with django_capture_on_commit_callbacks(execute=True):
        second = queue_join(user=bob, now=now + timedelta(seconds=1))
    assert not second.in_queue and second.game_id is not None
    game = Game.objects.get(pk=second.game_id)
    assert players_of(game) == {alice.pk, bob.pk}
    assert game.rated and game.status == Game.Status.WAITING
    assert not QueueEntry.objects.exists()
    # Bob's other "Play now" pages were told that he joined (Alice's join ran outside
    # the captured commits); then every page of both heard of their new game (the header's
    # "your game"), and both were sent to it.
    joined = async_to_sync(layer.receive)(channels[bob.pk])
    assert joined["type"] == "user.lobby.queue" and joined["change"] == "joined"
    # Where he stands, read once for all of his pages when the callback ran: paired.
    assert joined["status"]["game"] == game.pk and not joined["status"]["in_queue"]
    for user, other in ((alice, bob), (bob, alice)):
        yours = async_to_sync(layer.receive)(channels[user.pk])
        assert yours["type"] == "user.games.game"
        assert yours["game"]["id"] == game.pk and yours["game"]["opponent"] == other.username
        assert yours["game"]["status"] == "waiting" and yours["game"]["your_turn"]
        message = async_to_sync(layer.receive)(channels[user.pk])
        assert message == {
            "type": "user.games.redirect",
            "url": f"/games/{game.pk}/",
            "game": game.pk,
        }
    # Alice now has a game: joining again points her to it instead of queueing her.
    assert queue_join(user=alice).game_id == game.pk
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db
def test_a_distant_pair_is_made_only_after_widening(players, play_game):
    alice, bob, carol, dave = players
    rated = play_game(carol, dave, winner=0)
    give_rating(alice, 1500, rated)  # stays 1500
    give_rating(bob, 1800, rated)
    now = timezone.now()
    queue_join(user=alice, now=now)
    queue_join(user=bob, now=now)
    assert queue_pair(now=now + timedelta(seconds=19)) == []
    status = queue_status_of(user=bob, now=now + timedelta(seconds=19))
    assert (status.rating, status.accepted_range, status.waiting) == (1800, 250, 2)
    (game,) = queue_pair(now=now + timedelta(seconds=20))
    assert players_of(game) == {alice.pk, bob.pk}


@pytest.mark.django_db
def test_joining_twice_keeps_the_place_and_leaving_removes(players):
    alice = players[0]
    now = timezone.now()
    queue_join(user=alice, now=now)
    status = queue_join(user=alice, now=now + timedelta(seconds=7))
    assert status.in_queue and status.wait_seconds == 7.0 and status.accepted_range == 150
    assert QueueEntry.objects.count() == 1
    assert queue_leave(user=alice)
    assert not queue_leave(user=alice)
    assert not queue_status_of(user=alice).in_queue


@pytest.mark.django_db
def test_abandoned_entries_are_dropped(players):
    alice, bob = players[:2]
    now = timezone.now()
    queue_join(user=alice, now=now - timedelta(minutes=5))
    queue_touch(user=alice, now=now - timedelta(seconds=31))  # its page went silent
    queue_leave(user=bob)
    QueueEntry.objects.create(user=bob, rating=2500, joined_at=now, seen_at=now)
    assert queue_drop_stale(now=now) == 1
    assert list(QueueEntry.objects.values_list("user_id", flat=True)) == [bob.pk]


@pytest.mark.django_db
def test_a_player_with_a_game_is_dropped_from_the_queue_at_pairing(players):
    from tests.games.factories import make_game

    alice, bob, carol = players[:3]
    QueueEntry.objects.create(user=alice, rating=1500, joined_at=timezone.now(),
                              seen_at=timezone.now())  # fmt: skip
    make_game(alice, carol)  # she accepted a challenge meanwhile
    queue_join(user=bob)
    assert Game.objects.count() == 1
    assert list(QueueEntry.objects.values_list("user_id", flat=True)) == [bob.pk]


def assert_nobody_paired_twice(user_ids: list[int]) -> list[Game]:
    games = list(Game.objects.all())
    seats = Counter(uid for game in games for uid in players_of(game))
    assert all(game.player0_id != game.player1_id for game in games)
    assert set(seats.values()) <= {1}, seats
    assert set(seats) | set(QueueEntry.objects.values_list("user_id", flat=True)) == set(user_ids)
    return games


@pytest.mark.django_db(transaction=True)
def test_concurrent_joins_from_many_threads_never_pair_anyone_twice(user_factory):
    users = [user_factory(f"p{i:02d}") for i in range(24)]
    barrier = threading.Barrier(len(users))
    errors: list[BaseException] = []

    def join(user: Any) -> None:
        try:
            barrier.wait(timeout=20)
            queue_join(user=user)
            queue_pair()
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    queue_pair()  # a pass that SKIP LOCKED left out is caught by the next one (the beat's)
    games = assert_nobody_paired_twice([u.pk for u in users])
    assert len(games) == 12 and not QueueEntry.objects.exists()


# --- The lobby socket ------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_queue_over_the_lobby_socket(players):
    from channels.db import database_sync_to_async

    from tests.games.wsclient import WsClient

    alice, bob = players[:2]
    a = WsClient("/ws/lobby/?challenges=1", user=alice)
    b = WsClient("/ws/lobby/?challenges=1", user=bob)
    assert (await a.connect())[0] and (await b.connect())[0]
    for socket in (a, b):
        assert (await socket.recv())["type"] == "challenges"
        await socket.until(lambda m: m["type"] == "invitations")  # the player's news, last

    await a.send({"type": "queue", "do": "join", "id": "j-1"})
    status = await a.until(lambda m: m.get("id") == "j-1")
    assert status["type"] == "queue" and status["in_queue"] and status["waiting"] == 1
    assert status["range"] == 100 and status["rating"] == 1500
    # The page's other tabs are told too (here the same socket, in the user's group).
    pushed = await a.until(lambda m: m.get("change") == "joined")
    assert pushed["in_queue"] and pushed["type"] == "queue"
    await a.send({"type": "queue", "do": "status"})
    assert (await a.recv())["in_queue"]

    await b.send({"type": "queue", "do": "join"})
    await b.until(lambda m: m["type"] == "redirect")
    frames = b.frames
    game = await database_sync_to_async(lambda: Game.objects.get())()
    url = f"/games/{game.pk}/"
    assert {"type": "redirect", "url": url, "game": game.pk} in frames
    assert any(f["type"] == "queue" and f["url"] == url and "change" not in f for f in frames)
    assert any(f.get("change") == "joined" for f in frames)
    assert (await a.until(lambda m: m["type"] == "your_game"))["game"]["id"] == game.pk
    assert await a.recv() == {"type": "redirect", "url": url, "game": game.pk}

    # Leaving and disconnecting both take a player out of the queue.
    await a.close()
    await b.close()
    carol = players[2]
    c = WsClient("/ws/lobby/?challenges=1", user=carol)
    assert (await c.connect())[0]
    await c.until(lambda m: m["type"] == "invitations")
    await c.send({"type": "queue", "do": "join", "id": 1})
    assert (await c.until(lambda m: m.get("id") == 1))["in_queue"]
    await c.send({"type": "queue", "do": "leave", "id": 2})
    assert (await c.until(lambda m: m.get("id") == 2))["in_queue"] is False
    left = await c.until(lambda m: m.get("change") == "left")
    assert left["in_queue"] is False
    await c.send({"type": "queue", "do": "join", "id": 3})
    assert (await c.until(lambda m: m.get("id") == 3))["in_queue"]
    await c.close()
    assert not await database_sync_to_async(QueueEntry.objects.exists)()
    await c.connect()
    await c.until(lambda m: m["type"] == "invitations")
    await c.send({"type": "queue", "do": "dance"})
    assert (await c.recv())["code"] == "bad_request"
    await c.close()
