"""Service faults (R7.10): detection, the void of the games in the window (games.clock.faults),
and the reversal of their ratings that the ratings app does on hearing of it."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client, override_settings
from django.utils import timezone

from games import services
from games.clock.faults import (
    fault_process,
    fault_record,
    fault_report_late_clock_check,
    fault_threshold,
    heartbeat_beat,
    timekeeping_status,
)
from games.live import presence
from games.live.audiences import SEAT_0, SEAT_1, WATCH
from games.live.broadcast import state_message
from games.models import Game, Heartbeat, ServiceFault
from ratings.models import RatingEntry
from ratings.selectors import rating_of as player_rating
from tests.games.factories import make_game
from tests.ratings import conftest as rated_games
from tests.ratings.ledger import assert_ledger_consistent

pytestmark = pytest.mark.django_db

# Rated games played to their end, as the ratings tests play them: the reversal is checked here.
players = rated_games.players
play_game = rated_games.play_game


def started_game(p0: AbstractBaseUser, p1: AbstractBaseUser) -> Game:
    game = make_game(p0, p1)
    for user in (p0, p1):
        assert services.game_submit_action(
            game_id=game.pk, user=user, action={"do": "start"}, request_id=None
        ).ok
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    return game


def move_to_the_past(game: Game, hours: float) -> None:
    """Put a played game's clock times `hours` back, outside any window of the test."""
    shift = timedelta(hours=hours)
    Game.objects.filter(pk=game.pk).update(
        created_at=game.created_at - shift,
        started_at=game.started_at - shift,
        finished_at=game.finished_at - shift if game.finished_at else None,
    )


@pytest.fixture
def scene(players: list[AbstractBaseUser], play_game: Callable[..., Game]) -> dict[str, Any]:
    """Games in every position relative to a fault window that will cover "now"."""
    alice, bob, carol, dave = players
    old = play_game(carol, dave, winner=0)  # rated, long before the window
    move_to_the_past(old, hours=2)
    rated = play_game(alice, bob, winner=0)  # rated, finished inside the window
    running = started_game(carol, dave)  # clock running now
    waiting = make_game(alice, carol)  # nobody pressed Start: no clock has run
    return {"old": old, "rated": rated, "running": running, "waiting": waiting}


def statuses(scene: dict[str, Any]) -> dict[str, str]:
    return {name: Game.objects.get(pk=game.pk).status for name, game in scene.items()}


def assert_voided(scene: dict[str, Any], players: list[AbstractBaseUser]) -> None:
    alice, bob, carol, dave = players
    assert statuses(scene) == {
        "old": "finished",
        "rated": "cancelled",
        "running": "cancelled",
        "waiting": "waiting",
    }
    for name in ("rated", "running"):
        game = Game.objects.get(pk=scene[name].pk)
        assert game.reason == "service_fault" and game.winner_seat is None
        assert game.next_deadline is None
    # The voided game's rating changes are undone; the old game keeps its ratings.
    assert player_rating(alice) == player_rating(bob) == 1500
    assert player_rating(carol) == 1520 and player_rating(dave) == 1480
    reasons = RatingEntry.objects.filter(game=scene["rated"]).values_list("reason", flat=True)
    assert sorted(reasons) == ["fault_reversal", "fault_reversal", "game", "game"]
    assert not RatingEntry.objects.filter(game=scene["old"], reason="fault_reversal").exists()
    assert_ledger_consistent()


def test_threshold_is_the_setting_and_never_less_than_ten_beats():
    assert fault_threshold() == timedelta(seconds=20)  # 1 s beats: the setting rules
    with override_settings(HEARTBEAT_SECONDS=5.0):
        assert fault_threshold() == timedelta(seconds=50)
    with override_settings(FAULT_THRESHOLD_SECONDS=3.0, HEARTBEAT_SECONDS=0.2):
        assert fault_threshold() == timedelta(seconds=3)


def test_an_outage_shorter_than_the_threshold_records_no_fault():
    now = timezone.now()
    assert heartbeat_beat(at=now - timedelta(seconds=10))[1] is None  # the first beat ever
    assert heartbeat_beat(at=now - timedelta(seconds=9))[1] is None
    # A 10 s database stop seen with 1 s beats: an 11 to 12 s gap, well under 20 s.
    assert heartbeat_beat(at=now + timedelta(seconds=3))[1] is None
    assert heartbeat_beat(at=now + timedelta(seconds=23))[1] is None  # 20 s: not more
    assert Heartbeat.objects.count() == 4
    assert not ServiceFault.objects.exists()


def test_timekeeping_status_says_when_no_keeper_beats():
    now = timezone.now()
    assert timekeeping_status(now=now)["up"] is False  # never beaten
    heartbeat_beat(at=now - timedelta(seconds=1), keeper="host:1")
    status = timekeeping_status(now=now)
    assert status["up"] is True and status["last_keeper"] == "host:1"
    late = timekeeping_status(now=now + timedelta(seconds=30))
    assert late["up"] is False and late["seconds_since_beat"] == pytest.approx(31)


def test_heartbeat_gap_records_a_fault_and_voids_the_games_that_ran(scene, players):
    last_beat = timezone.now() - timedelta(minutes=1)
    Heartbeat.objects.create(at=last_beat)
    beat, fault = heartbeat_beat(at=timezone.now() + timedelta(seconds=1))
    assert fault is not None
    assert fault.kind == ServiceFault.Kind.HEARTBEAT_GAP
    assert (fault.start, fault.end) == (last_beat, beat.at)
    assert fault.processed_at is not None
    assert set(fault.games.values_list("pk", flat=True)) == {
        scene["rated"].pk,
        scene["running"].pk,
    }
    assert_voided(scene, players)
    # Processing again, or the same detection reported again, changes nothing.
    assert fault_process(fault=fault) == []
    again = fault_record(kind=fault.kind, start=fault.start, end=fault.end)
    assert again.pk == fault.pk
    assert ServiceFault.objects.count() == 1
    assert_voided(scene, players)


def test_an_interrupted_fault_is_finished_by_the_next_beat(scene, players, monkeypatch):
    from games.clock import faults

    Heartbeat.objects.create(at=timezone.now() - timedelta(minutes=1))
    with monkeypatch.context() as patch:  # the process dies before processing the fault
        patch.setattr(faults, "fault_process_pending", lambda: 0)
        patch.setattr(faults, "fault_process", lambda *, fault: [])
        _beat, fault = heartbeat_beat()
    assert fault is not None and fault.processed_at is None
    assert statuses(scene)["running"] == "playing"
    heartbeat_beat(at=timezone.now() + timedelta(seconds=2))  # the next beat, on time
    fault.refresh_from_db()
    assert fault.processed_at is not None
    assert_voided(scene, players)


def test_overlapping_faults_reverse_a_game_once(scene, players):
    now = timezone.now()
    fault_record(kind="admin", start=now - timedelta(minutes=5), end=now + timedelta(seconds=1))
    second = fault_record(kind="admin", start=now - timedelta(minutes=1), end=now)
    assert fault_process(fault=second) == []
    assert_voided(scene, players)


def test_a_fault_before_the_games_touches_nothing(scene, players):
    now = timezone.now()
    fault = fault_record(
        kind="admin", start=now - timedelta(minutes=30), end=now - timedelta(minutes=20)
    )
    assert fault.games.count() == 0
    assert set(statuses(scene).values()) == {"finished", "playing", "waiting"}
    assert player_rating(players[0]) == 1520
    assert_ledger_consistent()


def test_late_clock_check_counts_from_when_it_could_first_run(scene, players):
    running = Game.objects.get(pk=scene["running"].pk)
    deadline = running.next_deadline
    assert deadline is not None
    long_ago = deadline - timedelta(hours=1)
    args = {"game_id": running.pk, "deadline": deadline}
    late = deadline + timedelta(seconds=20)
    assert fault_report_late_clock_check(**args, ran_at=late, runnable_since=long_ago) is None
    # A keeper that started after the deadline only counts from its own start.
    restarted = deadline + timedelta(minutes=5)
    assert (
        fault_report_late_clock_check(
            **args, ran_at=restarted + timedelta(seconds=1), runnable_since=restarted
        )
        is None
    )
    assert not ServiceFault.objects.exists()
    ran_at = deadline + timedelta(seconds=30)
    fault = fault_report_late_clock_check(**args, ran_at=ran_at, runnable_since=long_ago)
    assert fault is not None and fault.kind == ServiceFault.Kind.LATE_CLOCK_CHECK
    assert (fault.start, fault.end) == (deadline, ran_at)
    assert f"game #{running.pk}" in fault.note
    # The window starts at the running game's deadline: the games finished before it stand.
    assert statuses(scene) == {
        "old": "finished",
        "rated": "finished",
        "running": "cancelled",
        "waiting": "waiting",
    }
    assert player_rating(players[0]) == 1520
    assert_ledger_consistent()


def _admin_client(user_factory: Callable[..., AbstractBaseUser]) -> Client:
    admin = user_factory("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    return client


def _split(moment: datetime) -> dict[str, str]:
    local = timezone.localtime(moment)
    return {"0": local.strftime("%Y-%m-%d"), "1": local.strftime("%H:%M:%S")}


def test_an_admin_recorded_fault_voids_the_games_in_its_window(scene, players, user_factory):
    client = _admin_client(user_factory)
    start = _split(timezone.now() - timedelta(minutes=10))
    end = _split(timezone.now() + timedelta(seconds=2))
    response = client.post(
        "/admin/games/servicefault/add/",
        {
            "kind": "admin",
            "start_0": start["0"],
            "start_1": start["1"],
            "end_0": end["0"],
            "end_1": end["1"],
            "note": "database failover",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    fault = ServiceFault.objects.get()
    assert fault.created_by.username == "root" and fault.note == "database failover"
    assert fault.games.count() == 2
    assert_voided(scene, players)
    # The fault's page lists the games it touched.
    page = client.get(f"/admin/games/servicefault/{fault.pk}/change/").content.decode()
    assert f"#{scene['rated'].pk}" in page and f"#{scene['running'].pk}" in page


def test_admin_refuses_a_window_that_ends_before_it_starts(user_factory):
    client = _admin_client(user_factory)
    start = _split(timezone.now())
    end = _split(timezone.now() - timedelta(hours=1))
    response = client.post(
        "/admin/games/servicefault/add/",
        {"kind": "admin", "start_0": start["0"], "start_1": start["1"], "end_0": end["0"],
         "end_1": end["1"], "note": ""},
    )  # fmt: skip
    assert response.status_code == 200
    assert not ServiceFault.objects.exists()


def test_admin_action_cancels_a_game_and_reverses_its_rating(players, play_game, user_factory):
    alice, bob = players[:2]
    game = play_game(alice, bob, winner=1)
    kept = play_game(players[2], players[3], winner=0)
    client = _admin_client(user_factory)
    response = client.post(
        "/admin/games/game/",
        {"action": "cancel_for_service_fault", "_selected_action": [str(game.pk)]},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED and game.reason == "service_fault"
    assert player_rating(alice) == player_rating(bob) == 1500
    assert Game.objects.get(pk=kept.pk).status == Game.Status.FINISHED
    assert player_rating(players[2]) == 1520
    assert_ledger_consistent()
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "fault_reversal" in page or "reversal after a service fault" in page


def test_a_cancelled_game_refuses_moves_and_tells_both_players(players):
    alice, bob = players[:2]
    game = started_game(alice, bob)
    fault_record(kind="admin", start=timezone.now() - timedelta(seconds=5), end=timezone.now())
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    result = services.game_submit_action(
        game_id=game.pk, user=alice, action={"do": "resign"}, request_id="after"
    )
    assert not result.ok and result.code == "game_over"
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED  # not resurrected by the engine's status
    for audience in (SEAT_0, SEAT_1, WATCH):
        view = state_message(game, audience)["game"]
        assert view["status"] == "cancelled"
        assert view["reason"] == "service_fault"
        assert view["legal"] == []


def test_cancellation_is_broadcast_to_the_game_page(players, django_capture_on_commit_callbacks):
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from games.live.groups import game_group

    alice, bob = players[:2]
    game = started_game(alice, bob)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(game_group(game.pk, SEAT_0), channel)
    presence.presence_join(game.pk, [0], channel)  # as the seat's socket does
    with django_capture_on_commit_callbacks(execute=True):
        fault_record(kind="admin", start=timezone.now() - timedelta(seconds=5), end=timezone.now())
    presence.presence_leave(game.pk, [0], channel)
    message = json.loads(async_to_sync(layer.receive)(channel)["text"])
    assert message["type"] == "state"
    assert message["game"]["status"] == "cancelled"
    assert message["game"]["reason"] == "service_fault"


@pytest.mark.parametrize("finished", [False, True])
def test_a_void_is_an_engine_transition_logged_and_replayed(players, play_game, finished):
    from games.replay.log import game_replay

    alice, bob = players[:2]
    game = play_game(alice, bob, winner=0) if finished else started_game(alice, bob)
    version = game.version
    assert services.game_void(game_id=game.pk, note="test") is True
    game.refresh_from_db()
    assert game.version == version + 1
    assert game.status == Game.Status.CANCELLED and game.winner_seat is None
    assert game.state["status"] == "cancelled" and game.state["reason"] == "service_fault"
    last = game.actions.order_by("-seq").first()
    assert last.seat is None and last.user is None
    assert last.action == {"do": "void", "reason": "service_fault"}
    assert last.version == game.version and last.error == ""
    # The log reproduces the void, as it reproduces every other change.
    replayed = game_replay(game)
    assert replayed.status == "cancelled" and replayed.winner is None
    # Reversed once, if it had been rated; a second void changes nothing.
    reversals = RatingEntry.objects.filter(game=game, reason="fault_reversal").count()
    assert reversals == (2 if finished else 0)
    assert services.game_void(game_id=game.pk) is False
    game.refresh_from_db()
    assert game.version == version + 1
    assert_ledger_consistent()
