"""games.services: the one door. Idempotency, clocks, the log, replay, races."""

from __future__ import annotations

import random
import time
from functools import partial

import pytest

from games import engine, services
from games.clock import timebase
from games.models import Game, GameAction
from games.replay.log import game_replay
from tests.games.factories import SIXES_DEAL, drive, make_game, seeded_deals
from tests.threads import at_once

pytestmark = pytest.mark.django_db


def submit(game, user, action, request_id=None):
    return services.game_submit_action(
        game_id=game.pk, user=user, action=action, request_id=request_id
    )


def start_both(game, alice, bob):
    assert submit(game, alice, {"do": "start"}).ok
    assert submit(game, bob, {"do": "start"}).ok
    game.refresh_from_db()
    return game


def at(monkeypatch, t: float) -> None:
    """Freeze the server clock at `t` (epoch seconds)."""
    monkeypatch.setattr(timebase, "server_now", lambda: t)


def test_game_create_waits_for_start_and_stores_the_P1_deadline(alice, bob):
    game = make_game(alice, bob)
    assert game.status == Game.Status.WAITING
    assert game.version == 0
    # P1: aborted 60 s after creation; the clock keeper finds it through this column.
    deadline = engine.deadline(engine.from_json(game.state))
    assert game.next_deadline == timebase.to_datetime(deadline)


def test_submit_applies_logs_and_bumps_version(alice, bob, django_capture_on_commit_callbacks):
    game = make_game(alice, bob)
    result = submit(game, alice, {"do": "start"}, "a1")
    assert result.ok and result.version == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert submit(game, bob, {"do": "start"}, "b1").version == 2
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.started_at is not None
    rows = list(game.actions.order_by("seq"))
    assert [(r.seq, r.seat, r.action["do"], r.version) for r in rows] == [
        (1, 0, "start", 1),
        (2, 1, "start", 2),
    ]
    # The deal is logged unfiltered: the log alone can show what happened.
    assert any(e["type"] == "deal" and e["hands"] for e in rows[1].events)
    # The decision's deadline is stored for the clock keeper.
    deadline = engine.deadline(engine.from_json(game.state))
    assert deadline is not None and game.next_deadline == timebase.to_datetime(deadline)


def test_duplicate_request_id_gets_the_same_answer_and_changes_nothing(alice, bob):
    game = start_both(make_game(alice, bob), alice, bob)
    play = {"do": "play", "tile": "5-0", "end": "right"}
    first = submit(game, bob, play, "x")
    assert first.ok
    log = list(GameAction.objects.values_list("seq", flat=True))
    again = submit(game, bob, play, "x")
    assert again.ok and again.duplicate and again.version == first.version
    assert list(GameAction.objects.values_list("seq", flat=True)) == log
    game.refresh_from_db()
    assert game.version == first.version


def test_duplicate_of_a_refused_request_is_refused_the_same_way(alice, bob):
    game = start_both(make_game(alice, bob), alice, bob)
    first = submit(game, alice, {"do": "draw"}, "early")  # seat 1 is to act
    assert (first.ok, first.code) == (False, "not_your_turn")
    again = submit(game, alice, {"do": "draw"}, "early")
    assert (again.ok, again.code, again.duplicate) == (False, "not_your_turn", True)


def test_only_the_latest_refusal_of_a_user_in_a_game_is_kept(alice, bob):
    game = start_both(make_game(alice, bob), alice, bob)  # seat 1 (bob) is to act
    accepted = set(GameAction.objects.filter(game=game).values_list("pk", "seq", "error"))
    for n in range(130):
        refused = submit(game, alice, {"do": "draw"}, f"probe-{n}")
        assert (refused.ok, refused.code) == (False, "not_your_turn")
    refused_bob = submit(game, bob, {"do": "bid", "amount": 15}, "bob-1")
    assert refused_bob.code == "wrong_phase"
    rows = GameAction.objects.filter(game=game)
    assert set(rows.filter(error="").values_list("pk", "seq", "error")) == accepted
    assert list(rows.filter(user=alice).exclude(error="").values_list("request_id", flat=True)) == [
        "probe-129"
    ]
    assert rows.filter(user=bob).exclude(error="").count() == 1  # alice's did not touch bob's
    seqs = list(rows.order_by("pk").values_list("seq", flat=True))
    assert seqs == sorted(seqs)  # seq never goes back
    again = submit(game, alice, {"do": "draw"}, "probe-129")
    assert (again.ok, again.code, again.duplicate) == (False, "not_your_turn", True)
    # Bob's accepted move later on is logged alongside the refusals.
    state = engine.from_json(Game.objects.get(pk=game.pk).state)
    play = next(a for a in engine.legal_actions(state, 1) if a["do"] != "resign")
    assert submit(game, bob, play, "bob-2").ok
    assert rows.filter(error="").count() == len(accepted) + 1


def test_request_ids_are_per_player(alice, bob):
    """Two clients counting from 1 must not get each other's answers."""
    game = make_game(alice, bob)
    assert submit(game, alice, {"do": "start"}, "1").ok
    second = submit(game, bob, {"do": "start"}, "1")
    assert second.ok and not second.duplicate


@pytest.mark.parametrize(
    "action",
    [
        None,
        "start",
        [],
        {},
        {"do": 3},
        {"do": "fly"},
        {"do": "play", "tile": "5-0", "end": "right", "x": 1, "y": 2},
        {"do": "play", "tile": {"nested": True}},
        {"do": "bid", "amount": "9" * 300},
    ],
)
def test_malformed_actions_are_bad_requests(alice, bob, action):
    game = make_game(alice, bob)
    result = submit(game, alice, action)
    assert (result.ok, result.code) == (False, "bad_request")
    assert not GameAction.objects.exists()


def test_engine_bad_request_is_mapped(alice, bob):
    game = start_both(make_game(alice, bob), alice, bob)
    result = submit(game, bob, {"do": "play", "tile": 5})
    assert (result.ok, result.code) == (False, "bad_request")
    assert str(result.message)


def test_strangers_and_missing_games(alice, bob, carol):
    game = make_game(alice, bob)
    assert submit(game, carol, {"do": "start"}).code == "forbidden"
    missing = services.game_submit_action(
        game_id=game.pk + 999, user=alice, action={"do": "start"}, request_id=None
    )
    assert missing.code == "not_found"


def test_R7_6_a_flag_wins_over_a_late_move_and_is_logged(alice, bob, monkeypatch):
    t0 = 1_800_000_000.0
    at(monkeypatch, t0)
    game = make_game(alice, bob, banks=(5, 5))
    start_both(game, alice, bob)
    at(monkeypatch, t0 + 10 + 5 + 0.001)  # seat 1's delay and bank are spent
    result = submit(game, bob, {"do": "play", "tile": "5-0", "end": "right"}, "late")
    assert (result.ok, result.code) == (False, "game_over")
    game.refresh_from_db()
    assert (game.status, game.winner_seat, game.reason) == ("finished", 0, "time")
    assert game.finished_at is not None and game.next_deadline is None
    flag_row, refused = game.actions.order_by("-seq")[:2][::-1]
    assert flag_row.seat is None and flag_row.action == {"do": "advance"}
    assert [e["type"] for e in flag_row.events] == ["flag", "game_over"]
    assert refused.error == "game_over" and refused.version == game.version


def test_advance_is_a_no_op_on_version_mismatch_or_nothing_due(alice, bob, monkeypatch):
    t0 = 1_800_000_000.0
    at(monkeypatch, t0)
    game = make_game(alice, bob)
    at(monkeypatch, t0 + 61)  # P1 is due...
    result = services.game_advance(game_id=game.pk, expected_version=game.version + 1)
    assert not result.changed  # ...but this check belongs to another version
    at(monkeypatch, t0 + 30)
    assert not services.game_advance(game_id=game.pk).changed  # nothing due yet
    assert not services.game_advance(game_id=game.pk + 999).changed  # no such game
    at(monkeypatch, t0 + 61)
    assert services.game_advance(game_id=game.pk, expected_version=0).changed
    game.refresh_from_db()
    assert (game.status, game.reason, game.version) == ("aborted", "abort", 1)
    assert not services.game_advance(game_id=game.pk).changed  # over: idempotent
    assert game.actions.count() == 1


def test_games_due_lists_overdue_games_earliest_first(alice, bob, carol, monkeypatch):
    t0 = 1_800_000_000.0
    at(monkeypatch, t0)
    stale = make_game(alice, bob, banks=(1, 1))
    start_both(stale, alice, bob)
    at(monkeypatch, t0 + 20)
    fresh = make_game(alice, carol)  # P1 deadline at t0 + 80
    assert [pk for pk, _ in services.games_due(now=t0 + 20)] == [stale.pk]
    assert [pk for pk, _ in services.games_due(now=t0 + 20, horizon=60)] == [stale.pk, fresh.pk]
    assert services.game_advance(game_id=stale.pk).changed
    stale.refresh_from_db()
    assert (stale.status, stale.reason, stale.winner_seat) == ("finished", "time", 0)
    assert services.games_due(now=t0 + 20) == []


def test_advance_takes_no_lock_when_nothing_is_due(
    alice, bob, monkeypatch, django_assert_num_queries
):
    t0 = 1_800_000_000.0
    at(monkeypatch, t0)
    game = make_game(alice, bob)
    with django_assert_num_queries(1):  # one plain read, no SELECT … FOR UPDATE
        assert services.game_advance(game_id=game.pk) == services.AdvanceResult(changed=False)
    with django_assert_num_queries(1):
        assert not services.game_advance(game_id=game.pk, expected_version=7).changed


def test_a_game_that_cannot_be_advanced_is_quarantined(alice, bob, monkeypatch):
    t0 = 1_800_000_000.0
    at(monkeypatch, t0)
    broken = make_game(alice, bob)
    Game.objects.filter(pk=broken.pk).update(state={"not": "an engine state"})
    at(monkeypatch, t0 + 61)
    assert services.game_quarantine(game_id=broken.pk, now=t0 + 61) == 1
    broken.refresh_from_db()
    assert broken.clock_failures == 1
    assert broken.clock_retry_at == timebase.to_datetime(t0 + 63)  # 2 s, then 4, 8 …
    assert services.games_due(now=t0 + 62) == []
    assert [pk for pk, _ in services.games_due(now=t0 + 63)] == [broken.pk]
    assert services.game_quarantine(game_id=broken.pk, now=t0 + 63) == 2
    broken.refresh_from_db()
    assert broken.clock_retry_at == timebase.to_datetime(t0 + 67)


def test_P2_auto_continue_is_logged_as_a_timed_transition(alice, bob, monkeypatch):
    t0 = 1_800_000_000.0
    clock = {"t": t0}
    monkeypatch.setattr(timebase, "server_now", lambda: clock["t"])

    def tick_until(view):
        clock["t"] += 0.5
        return view["phase"] == "round_over"

    game = make_game(alice, bob, deals=seeded_deals(1), balances=(30, 30))
    game = drive(game.pk, (alice, bob), tick_until)
    clock["t"] += 31
    assert services.game_advance(game_id=game.pk).changed
    game.refresh_from_db()
    row = game.actions.order_by("-seq").first()
    assert row.seat is None and any(e["type"] == "deal" for e in row.events)


def test_replay_reproduces_a_played_game(alice, bob, monkeypatch):
    clock = {"t": 1_800_000_000.0}
    monkeypatch.setattr(timebase, "server_now", lambda: clock["t"])

    def step(view):
        clock["t"] += 0.7
        return view["status"] not in ("waiting", "playing")

    game = make_game(alice, bob, deals=seeded_deals(3), balances=(30, 30))
    submit(game, alice, {"do": "draw"}, "refused")  # refused rows are skipped by the replay
    game = drive(game.pk, (alice, bob), step)
    assert game.status == "finished" and game.actions.filter(error="").count() > 20
    assert engine.to_json(game_replay(game)) == game.state


def test_replay_with_shuffled_deals_and_timed_transitions(alice, bob, monkeypatch):
    """Real random deals (recorded in the state), a P2 auto-continue and a flag."""
    clock = {"t": 1_800_000_000.0}
    monkeypatch.setattr(timebase, "server_now", lambda: clock["t"])
    game = services.game_create(player0=alice, player1=bob, balances=(30, 30), banks=(3, 3))

    def step(view):
        clock["t"] += 0.3
        return view["phase"] == "round_over" or view["status"] not in ("waiting", "playing")

    game = drive(game.pk, (alice, bob), step)
    clock["t"] += 200  # the next round starts by itself (P2), then its clock flags
    services.game_advance(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == "finished"
    replayed = engine.to_json(game_replay(game))
    stored = dict(game.state)
    # The seed only decides deals not dealt yet; the replay has every dealt one listed.
    assert replayed.pop("seed") is None and stored.pop("seed")
    assert replayed == stored


def test_same_device_requests_go_to_the_seat_to_act(alice):
    game = make_game(alice, alice, same_device=True, deals=[SIXES_DEAL])
    assert not game.rated
    assert submit(game, alice, {"do": "start"}).ok  # seat 0
    assert submit(game, alice, {"do": "start"}).ok  # seat 1
    game.refresh_from_db()
    view = engine.view(engine.from_json(game.state), None, timebase.server_now())
    assert view["to_act"] == 1 and view["awaiting_reveal"]
    assert submit(game, alice, {"do": "draw"}).code == "wrong_phase"  # reveal first (R7.7)
    assert submit(game, alice, {"do": "reveal"}).ok
    assert submit(game, alice, {"do": "draw"}).ok
    assert game.actions.filter(seat=1, error="").count() == 3


def test_same_device_resign_acts_for_the_seat_on_screen(alice):
    # engine.device_seat: once seat 0 has pressed Start, the screen is seat 1's, and so is
    # a resignation sent from it (before issue 10 it went to seat 0, the first seat allowed).
    game = make_game(alice, alice, same_device=True, deals=[SIXES_DEAL])
    assert submit(game, alice, {"do": "start"}).ok  # seat 0
    assert submit(game, alice, {"do": "resign"}).ok
    game.refresh_from_db()
    assert game.actions.get(action__do="resign").seat == 1
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0


def _race(game_id: int, users_actions: list) -> list:
    return at_once(
        *(
            partial(
                services.game_submit_action,
                game_id=game_id,
                user=user,
                action=action,
                request_id=f"race-{i}",
            )
            for i, (user, action) in enumerate(users_actions)
        )
    )


@pytest.mark.django_db(transaction=True)
def test_two_racing_requests_exactly_one_applies(alice, bob):
    """Seat 1 must play 5-0 on one of two ends: two requests at once, only one can win."""
    game = start_both(make_game(alice, bob), alice, bob)
    version = game.version
    results = _race(
        game.pk,
        [
            (bob, {"do": "play", "tile": "5-0", "end": "left"}),
            (bob, {"do": "play", "tile": "5-0", "end": "right"}),
        ],
    )
    assert sorted(r.ok for r in results) == [False, True], results
    assert [r.code for r in results if not r.ok] == ["not_your_turn"]
    game.refresh_from_db()
    assert game.version == version + 1
    assert game.actions.filter(error="", action__do="play").count() == 1


@pytest.mark.django_db(transaction=True)
def test_racing_start_from_both_players_both_apply_in_order(alice, bob):
    game = make_game(alice, bob, deals=[SIXES_DEAL])
    results = _race(game.pk, [(alice, {"do": "start"}), (bob, {"do": "start"})])
    assert all(r.ok for r in results)
    assert sorted(r.version for r in results) == [1, 2]
    game.refresh_from_db()
    assert game.status == "playing"
    assert list(game.actions.values_list("seq", flat=True)) == [1, 2]


def test_timebase_conversions():
    assert timebase.to_ms(1.2345) == 1234 or timebase.to_ms(1.2345) == 1235
    assert timebase.to_ms(None) is None
    # Rounded up, never down, even where floats are coarser than a microsecond.
    rng = random.Random(7)
    for _ in range(10_000):
        moment = time.time() + rng.random() * 1000
        stored = timebase.to_datetime(moment)
        assert stored.timestamp() >= moment
        assert stored.timestamp() - moment < 2e-6


# ---------------------------------------------------------------- same-device names, rematch


def test_same_device_game_stores_its_players_names(alice):
    game = services.same_device_game_create(user=alice, names=(" Marta ", "Luis  Pérez"))
    assert game.seat_names == ["Marta", "Luis Pérez"]
    assert (game.seat_name(0), game.seat_name(1)) == ("Marta", "Luis Pérez")
    assert not game.rated and game.same_device
    # The screen that asked for it pressed both Starts: the first hand-over is next (P1).
    assert game.status == "playing"
    players = engine.view(engine.from_json(game.state), 0, time.time())["players"]
    assert [p["started"] for p in players] == [True, True]


@pytest.mark.parametrize(
    "names", [("", "Luis"), ("Marta", "MARTA"), ("x" * 21, "Luis"), ("a\x00", "b")]
)
def test_same_device_names_that_cannot_tell_the_seats_apart_are_refused(alice, names):
    with pytest.raises(ValueError):
        services.same_device_game_create(user=alice, names=names)
    assert not Game.objects.exists()


def test_a_game_without_seat_names_is_named_by_usernames(alice, bob):
    game = make_game(alice, bob)
    assert (game.seat_name(0), game.seat_name(1)) == ("alice", "bob")


def finished_game(alice, bob):
    game = make_game(alice, bob, deals=seeded_deals(1), balances=(20, 20))
    return drive(game.pk, (alice, bob), lambda v: v["status"] == "finished")


def rematch(game, user, answer):
    return services.game_rematch(game_id=game.pk, user=user, answer=answer)


def test_a_rematch_offer_accepted_starts_one_game_with_the_seats_swapped(
    alice, bob, carol, django_capture_on_commit_callbacks
):
    game = finished_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        offer = rematch(game, alice, "offer")
    assert offer.ok and offer.game_id is None and len(callbacks) == 1  # the broadcast
    game.refresh_from_db()
    assert game.rematch_offered_by == 0
    assert rematch(game, alice, "offer").ok  # offering again changes nothing
    assert not rematch(game, carol, "offer").ok  # a spectator cannot
    accepted = rematch(game, bob, "offer")
    assert accepted.ok and accepted.game_id is not None
    new = Game.objects.get(pk=accepted.game_id)
    assert (new.player0, new.player1, new.status, new.rated) == (bob, alice, "waiting", True)
    # The ratings app stored the players' ratings as they are after the last game.
    assert new.players_snapshot != [{"rating": 1500, "rating_label": "1500?"}] * 2
    # Later answers find that game; nothing else is created.
    again = rematch(game, alice, "offer")
    assert again.ok and again.game_id == new.pk
    assert Game.objects.count() == 2


def test_a_declined_rematch_withdraws_the_offer(alice, bob):
    game = finished_game(alice, bob)
    assert rematch(game, bob, "decline").code == "rematch_no_offer"
    assert rematch(game, alice, "offer").ok
    assert rematch(game, bob, "decline").ok
    game.refresh_from_db()
    assert game.rematch_offered_by is None and game.rematch_game is None
    assert Game.objects.count() == 1


@pytest.mark.parametrize("answer", ["accept", "", None, 3, {"do": "offer"}])
def test_a_rematch_answer_outside_the_vocabulary_changes_nothing(alice, bob, answer):
    game = finished_game(alice, bob)
    assert rematch(game, alice, answer).code == "bad_request"
    game.refresh_from_db()
    assert game.rematch_offered_by is None


def test_no_rematch_while_playing_nor_on_a_shared_screen(alice, bob):
    game = start_both(make_game(alice, bob), alice, bob)
    assert rematch(game, alice, "offer").code == "rematch_not_over"
    shared = services.same_device_game_create(user=alice, names=("A", "B"))
    assert rematch(shared, alice, "offer").code == "rematch_same_device"


@pytest.mark.django_db(transaction=True)
def test_crossing_rematch_offers_meet_in_one_game(alice, bob):
    """Two offers racing from both seats: the row lock makes the second an acceptance."""
    game = finished_game(alice, bob)
    results = at_once(partial(rematch, game, alice, "offer"), partial(rematch, game, bob, "offer"))
    assert len(results) == 2 and all(r.ok for r in results)
    created = {r.game_id for r in results if r.game_id is not None}
    assert len(created) == 1 and Game.objects.count() == 2
    new = Game.objects.get(pk=created.pop())
    assert (new.player0, new.player1) == (bob, alice)
