"""The clock keeper's pass, in-process: beats, settles due games, quarantines, sleeps well."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.clock import timebase
from games.clock.keeper import ClockKeeper
from games.live import presence
from games.models import Game, Heartbeat, ServiceFault
from tests.games.factories import make_game

pytestmark = pytest.mark.django_db

T0 = 1_800_000_000.0


@pytest.fixture
def clock(monkeypatch):
    now = {"t": T0}
    monkeypatch.setattr(timebase, "server_now", lambda: now["t"])
    return now


def started(game: Game, *users) -> Game:
    for user in users:
        assert services.game_submit_action(
            game_id=game.pk, user=user, action={"do": "start"}, request_id=None
        ).ok
    game.refresh_from_db()
    return game


def test_a_pass_settles_the_due_games_and_sleeps_until_the_next_deadline(alice, bob, carol, clock):
    flagged = started(make_game(alice, bob, banks=(1, 1)), alice, bob)  # flag at T0 + 11
    waiting = make_game(alice, carol)  # P1 abort at T0 + 60
    keeper = ClockKeeper(poll=0.2, beat_every=1.0, started_at=T0)
    clock["t"] = T0 + 10.9
    sleep = keeper.run_pass()
    assert 0 < sleep <= 0.1 + 1e-6  # woken at the flag, not a poll later
    assert Heartbeat.objects.count() == 1
    clock["t"] = T0 + 11.0
    keeper.run_pass()
    flagged.refresh_from_db()
    waiting.refresh_from_db()
    assert (flagged.status, flagged.reason) == ("finished", "time")
    assert waiting.status == "waiting"
    assert not ServiceFault.objects.exists()


def test_a_keeper_that_fell_behind_while_running_records_a_late_check(alice, bob, clock):
    game = started(make_game(alice, bob, banks=(1, 1)), alice, bob)
    keeper = ClockKeeper(started_at=T0)
    keeper.next_beat = float("inf")  # this test is about the late check, not the heartbeat
    clock["t"] = T0 + 11 + 25  # stuck for 25 s past the deadline, while it was running
    keeper.run_pass()
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    assert ServiceFault.objects.get().kind == ServiceFault.Kind.LATE_CLOCK_CHECK


def test_a_keeper_started_after_the_deadline_is_not_late(alice, bob, clock):
    game = started(make_game(alice, bob, banks=(1, 1)), alice, bob)
    clock["t"] = T0 + 120
    ClockKeeper(started_at=T0 + 119.5).run_pass()
    game.refresh_from_db()
    assert (game.status, game.reason) == ("finished", "time")
    assert not ServiceFault.objects.exists()  # the first beat ever: no gap either


def test_the_first_beat_after_a_long_stall_voids_the_games_that_ran(alice, bob):
    game = started(make_game(alice, bob), alice, bob)  # on the real clock, like the beats
    Heartbeat.objects.create(at=timezone.now() - timedelta(seconds=45))
    ClockKeeper().run_pass()
    fault = ServiceFault.objects.get()
    assert fault.kind == ServiceFault.Kind.HEARTBEAT_GAP
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED


def test_a_broken_game_is_quarantined_and_does_not_stop_the_others(alice, bob, carol, clock):
    broken = make_game(alice, bob)
    healthy = make_game(alice, carol)
    Game.objects.filter(pk=broken.pk).update(state={"junk": True})
    keeper = ClockKeeper(started_at=T0)
    clock["t"] = T0 + 61
    keeper.run_pass()
    broken.refresh_from_db()
    healthy.refresh_from_db()
    assert healthy.status == Game.Status.ABORTED
    assert broken.clock_failures == 1 and broken.clock_retry_at is not None
    keeper.run_pass()  # in quarantine: not tried again on the next pass
    broken.refresh_from_db()
    assert broken.clock_failures == 1


def test_presence_entries_expire_when_nobody_refreshes_them(alice, bob, settings):
    game = make_game(alice, bob)
    conn = f"test-{game.pk}"
    presence.presence_join(game.pk, [0], conn)
    assert presence.presence_connected(game.pk) == [True, False]
    now = presence.time.time()
    # Other tests' games share this Redis: only this game's entry is this test's to judge.
    assert game.pk not in presence.presence_expire(now=now)
    assert game.pk in presence.presence_expire(now=now + presence.TTL_SECONDS + 1)
    assert (
        presence.presence_connected(game.pk) == [False, False]
        or presence.presence_expire(now=now + presence.TTL_SECONDS + 1) == set()
    )
    presence.presence_leave(game.pk, [0], conn)


def test_a_refresh_says_whether_the_entry_had_to_be_written_anew(alice, bob):
    """What a socket learns from its refresh: a lost entry (Redis restarted) means its
    groups may be lost too (games.live.consumer.GameConsumer.keep_presence)."""
    game = make_game(alice, bob)
    conn = f"test-anew-{game.pk}"
    try:
        assert presence.presence_join(game.pk, [0], conn) is True
        assert presence.presence_refresh(game.pk, [0], conn) is False
        presence.presence_leave(game.pk, [0], conn)  # as a restart of Redis loses it
        assert presence.presence_refresh(game.pk, [0], conn) is True
    finally:
        presence.presence_leave(game.pk, [0], conn)


def test_a_refresh_that_cannot_reach_redis_says_so(alice, bob, monkeypatch):
    game = make_game(alice, bob)

    def unreachable(*args, **kwargs):
        raise presence.redis.ConnectionError("Redis is away")

    monkeypatch.setattr(presence._store(), "put", unreachable)
    assert presence.presence_refresh(game.pk, [0], "test-away") is None


@pytest.mark.django_db(transaction=True)
def test_games_flagging_together_are_settled_by_several_threads(
    alice, bob, user_factory, clock, settings
):
    """A burst of deadlines (games started together) is settled at once, not in a queue."""
    games = [
        started(make_game(alice, user_factory(f"rival{i}"), banks=(1, 1)), alice) for i in range(6)
    ]
    for game, rival in zip(games, [g.player1 for g in games], strict=True):
        started(game, rival)
    keeper = ClockKeeper(started_at=T0, settlers=3)
    keeper.next_beat = float("inf")
    threads: set[str] = set()
    settle_one = keeper.settle_one

    def traced(game_id, deadline, now):
        threads.add(threading.current_thread().name)
        return settle_one(game_id, deadline, now)

    keeper.settle_one = traced  # type: ignore[method-assign]
    clock["t"] = T0 + 11.5
    keeper.run_pass()
    assert {Game.objects.get(pk=g.pk).reason for g in games} == {"time"}
    assert len(threads) > 1 and all(name.startswith("clock-settler") for name in threads)
    assert not ServiceFault.objects.exists()
