"""Leaving costs the leaver: what counts as leaving, the escalating wait, its reset, the
message in both languages, the gate at every door, and nothing counted inside a fault."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone, translation

from fairplay.models import GameConduct
from fairplay.services import LeaverWait, play_refusal
from fairplay.waits import Left
from games import services as game_services
from games.clock import timebase
from games.clock.faults import fault_record
from games.live.presence import presence_join, presence_leave
from games.models import ActiveSeat, Game, ServiceFault
from lobby import challenges
from lobby.errors import LobbyError
from lobby.models import Challenge, QueueEntry
from lobby.services import queue_join
from tests.games.factories import drive, make_game, started_in_the_past
from tournaments import services as arenas
from tournaments.models import Arena, ArenaPlayer

pytestmark = pytest.mark.django_db


def start(game: Game, user) -> None:
    result = game_services.game_submit_action(
        game_id=game.pk, user=user, action={"do": "start"}, request_id=f"start-{user.pk}"
    )
    assert result.ok, result.code


def abort_without(game: Game, starter, monkeypatch) -> Game:
    """Only `starter` presses Start; the start timeout (P1) then aborts the game."""
    start(game, starter)
    later = game.state["created_at"] + 61
    with monkeypatch.context() as patch:
        patch.setattr(timebase, "server_now", lambda: later)
        assert game_services.game_advance(game_id=game.pk).changed
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    return game


def left_without_starting(leaver, other, monkeypatch) -> Game:
    """A game made a minute ago that `leaver` never started, aborted now: so that the
    leaves and the clean games of a test end in the order they are played."""
    past = timebase.server_now() - 61
    with monkeypatch.context() as patch:
        patch.setattr(timebase, "server_now", lambda: past)
        game = make_game(other, leaver)
        start(game, other)
    assert game_services.game_advance(game_id=game.pk).changed
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    return game


def flagged(player0, player1, *, connected_seats=()) -> Game:
    """A game whose running clock has fallen, settled while `connected_seats` had a socket."""
    game = started_in_the_past(player0, player1, seconds_ago=400)
    for seat in connected_seats:
        presence_join(game.pk, [seat], f"conn-{seat}")
    try:
        assert game_services.game_advance(game_id=game.pk).changed
    finally:
        for seat in connected_seats:
            presence_leave(game.pk, [seat], f"conn-{seat}")
    game.refresh_from_db()
    assert (game.status, game.reason) == (Game.Status.FINISHED, "time")
    return game


def finished_cleanly(player0, player1) -> Game:
    game = make_game(player0, player1)
    drive(game.pk, (player0, player1), lambda view: view["status"] == "playing")
    result = game_services.game_submit_action(
        game_id=game.pk, user=player1, action={"do": "resign"}, request_id="resign"
    )
    assert result.ok
    return game


def wait_minutes(user) -> float | None:
    refusal = play_refusal(user_id=user.pk)
    if refusal is None:
        return None
    latest = GameConduct.objects.filter(user=user).exclude(left="").latest("at")
    return (refusal.until - latest.at) / timedelta(minutes=1)


# --- what counts as leaving ----------------------------------------------------------


def test_not_pressing_start_while_the_opponent_did_is_a_leave_and_only_theirs(
    alice, bob, monkeypatch
):
    game = left_without_starting(bob, alice, monkeypatch)
    assert list(GameConduct.objects.filter(game=game).values_list("user__username", "left")) == [
        ("bob", Left.NO_START)
    ]
    assert play_refusal(user_id=alice.pk) is None
    refusal = play_refusal(user_id=bob.pk)
    assert refusal is not None and refusal.reason is Left.NO_START


def test_an_abort_neither_started_counts_against_nobody(alice, bob, monkeypatch):
    game = make_game(alice, bob)
    with monkeypatch.context() as patch:
        patch.setattr(timebase, "server_now", lambda: game.state["created_at"] + 61)
        game_services.game_advance(game_id=game.pk)
    assert not GameConduct.objects.filter(game=game).exists()


def test_a_game_lost_on_time_while_away_is_a_leave_and_while_there_is_not(alice, bob):
    away = flagged(alice, bob)
    loser = away.player(1 - away.winner_seat)
    assert GameConduct.objects.get(game=away, user=loser).left == Left.RAN_OUT
    assert GameConduct.objects.get(game=away, user=away.player(away.winner_seat)).left == ""
    present = flagged(alice, bob, connected_seats=(0, 1))
    assert set(GameConduct.objects.filter(game=present).values_list("left", flat=True)) == {""}


def test_games_against_the_computer_count_nothing(alice, monkeypatch):
    from games.computer.accounts import bot_account

    bot = bot_account(strength="easy")
    game = make_game(alice, bot)
    Game.objects.filter(pk=game.pk).update(bot_seat=1, bot_strength="easy")
    start(game, bot)
    with monkeypatch.context() as patch:
        patch.setattr(timebase, "server_now", lambda: game.state["created_at"] + 61)
        game_services.game_advance(game_id=game.pk)
    assert not GameConduct.objects.filter(game=game).exists()
    assert play_refusal(user_id=alice.pk) is None


# --- the wait: escalation and reset ----------------------------------------------------


def test_each_leave_lengthens_the_wait_and_clean_games_clear_them(
    alice, bob, monkeypatch, settings
):
    settings.LEAVER_WAIT_MINUTES = [5, 15, 30, 60]
    settings.LEAVER_CLEAN_GAMES_RESET = 2
    waits = []
    for _ in range(5):
        left_without_starting(bob, alice, monkeypatch)
        waits.append(wait_minutes(bob))
    assert waits == [5, 15, 30, 60, 60]
    finished_cleanly(alice, bob)
    assert wait_minutes(bob) == 60  # one clean game: the run is not complete
    finished_cleanly(bob, alice)
    assert play_refusal(user_id=bob.pk) is None  # two in a row: every leave forgotten
    left_without_starting(bob, alice, monkeypatch)
    assert wait_minutes(bob) == 5  # and the next leave starts again from the first wait


def test_the_wait_ends_when_its_time_is_up(alice, bob, monkeypatch):
    left_without_starting(bob, alice, monkeypatch)
    refusal = play_refusal(user_id=bob.pk)
    assert refusal is not None
    assert play_refusal(user_id=bob.pk, now=refusal.until - timedelta(seconds=1)) is not None
    assert play_refusal(user_id=bob.pk, now=refusal.until) is None


# --- no player counted inside a service fault --------------------------------------------


def test_a_game_inside_a_service_fault_counts_nothing(alice, bob, monkeypatch):
    game = make_game(alice, bob)
    ServiceFault.objects.create(
        start=timezone.now() - timedelta(seconds=5), end=timezone.now() + timedelta(minutes=5)
    )
    abort_without(game, alice, monkeypatch)
    assert not GameConduct.objects.filter(game=game).exists()
    assert play_refusal(user_id=bob.pk) is None


def test_a_fault_recorded_after_the_leave_takes_it_back(alice, bob, monkeypatch):
    game = left_without_starting(bob, alice, monkeypatch)
    assert play_refusal(user_id=bob.pk) is not None
    fault_record(kind=ServiceFault.Kind.ADMIN, start=game.created_at, end=game.finished_at)
    assert play_refusal(user_id=bob.pk) is None


def test_a_game_voided_for_a_fault_counts_nothing(alice, bob):
    game = flagged(alice, bob)
    loser = game.player(1 - game.winner_seat)
    assert play_refusal(user_id=loser.pk) is not None
    assert game_services.game_void(game_id=game.pk)
    assert play_refusal(user_id=loser.pk) is None


# --- the message ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["You can start a new game in 5 minutes", "did not press Start"]),
        ("es", ["Podrás empezar una partida nueva dentro de 5 minutos", "no pulsaste"]),
    ],
)
def test_the_message_says_how_long_and_why_in_both_languages(
    alice, bob, monkeypatch, language, words
):
    left_without_starting(bob, alice, monkeypatch)
    game = GameConduct.objects.get(user=bob).game
    refusal = play_refusal(user_id=bob.pk, now=game.finished_at)
    assert refusal is not None and refusal.minutes_left == 5
    with translation.override(language):
        text = refusal.message
    assert all(word in text for word in words), text


# --- the gate at every door -------------------------------------------------------------------


@pytest.fixture
def waiting(alice, bob, monkeypatch):
    """bob left a game without pressing Start: he waits."""
    left_without_starting(bob, alice, monkeypatch)
    ActiveSeat.objects.all().delete()
    return bob


def running_arena() -> Arena:
    arena = Arena.objects.create(name="Open", starts_at=timezone.now() - timedelta(minutes=1))
    arenas.arena_start(arena_id=arena.pk)
    return arena


def test_the_queue_refuses_a_waiting_leaver(waiting, alice):
    with pytest.raises(LeaverWait) as refused:
        queue_join(user=waiting)
    assert refused.value.code == "leaver_wait" and "minute" in refused.value.message
    assert not QueueEntry.objects.filter(user=waiting).exists()
    queue_join(user=alice)
    assert QueueEntry.objects.filter(user=alice).exists()


def test_challenges_refuse_a_waiting_leaver_making_or_accepting(waiting, alice, carol):
    with pytest.raises(LeaverWait):
        challenges.challenge_create(challenger=waiting)
    with pytest.raises(LeaverWait):
        challenges.challenge_create(challenger=waiting, opponent_username="carol")
    open_one = challenges.challenge_create(challenger=alice)
    with pytest.raises(LeaverWait):
        challenges.challenge_accept(challenge_id=open_one.pk, user=waiting)
    assert Challenge.objects.get(pk=open_one.pk).status == Challenge.Status.OPEN


def test_a_challenge_made_before_the_wait_cannot_be_accepted_during_it(
    alice, bob, carol, monkeypatch
):
    made = challenges.challenge_create(challenger=bob)
    left_without_starting(bob, alice, monkeypatch)
    ActiveSeat.objects.all().delete()
    with pytest.raises(LobbyError) as refused:
        challenges.challenge_accept(challenge_id=made.pk, user=carol)
    assert refused.value.code == "challenger_waiting"


def rematch(game: Game, user, answer: str = "offer") -> game_services.RematchResult:
    return game_services.game_rematch(game_id=game.pk, user=user, answer=answer)


def test_rematches_refuse_a_waiting_leaver_offering_or_accepting(waiting, alice):
    left = GameConduct.objects.get(user=waiting).game  # over: its rematch may be offered
    refused = rematch(left, waiting)
    assert (refused.ok, refused.code) == (False, "leaver_wait")
    assert str(refused.message).startswith("You can start a new game in")
    assert "did not press Start" in str(refused.message)
    left.refresh_from_db()
    assert left.rematch_offered_by is None
    assert rematch(left, alice).ok  # the opponent, not waiting, may offer one
    accepted = rematch(left, waiting)
    assert (accepted.ok, accepted.code, accepted.game_id) == (False, "leaver_wait", None)
    left.refresh_from_db()
    assert left.rematch_game_id is None and left.rematch_offered_by is not None
    assert rematch(left, waiting, "decline").ok  # declining starts nothing: never refused
    with translation.override("es"):
        assert str(rematch(left, waiting).message).startswith("Podrás empezar una partida")


def test_a_rematch_offered_before_the_wait_cannot_be_accepted_during_it(
    alice, bob, carol, monkeypatch
):
    game = finished_cleanly(alice, bob)
    assert rematch(game, bob).ok
    left_without_starting(bob, carol, monkeypatch)
    ActiveSeat.objects.all().delete()
    refused = rematch(game, alice)
    assert (refused.ok, refused.code) == (False, "rematch_offerer_waiting")
    assert "Your opponent left a game" in str(refused.message)
    assert Game.objects.filter(player0=alice, player1=bob).count() == 1  # no rematch made


def test_the_rematch_form_refuses_a_waiting_leaver_with_the_wait(waiting, alice, client_logged_in):
    left = GameConduct.objects.get(user=waiting).game
    response = client_logged_in(waiting).post(
        reverse("game-rematch", args=[left.pk]), {"answer": "offer"}
    )
    assert response.status_code == 302
    text = str(next(iter(get_messages(response.wsgi_request))))
    assert text.startswith("You can start a new game in") and "did not press Start" in text
    left.refresh_from_db()
    assert left.rematch_offered_by is None


def test_arenas_refuse_a_waiting_leaver_joining_or_creating(waiting):
    arena = running_arena()
    with pytest.raises(LeaverWait):
        arenas.arena_join(user=waiting, arena_id=arena.pk)
    assert not ArenaPlayer.objects.filter(user=waiting).exists()
    with pytest.raises(LeaverWait):
        arenas.arena_create(
            user=waiting,
            name="Mine",
            starts_at=timezone.now(),
            minutes=30,
            bank_seconds=120,
            rated=True,
        )
    assert not Arena.objects.filter(created_by=waiting).exists()


def test_an_arena_game_sat_out_pauses_and_counts_as_sitting(alice, bob, monkeypatch):
    arena = running_arena()
    for user in (alice, bob):
        arenas.arena_join(user=user, arena_id=arena.pk)
    [game] = arenas.arena_wave(arena_id=arena.pk)
    starter, sitter = game.player0, game.player1
    abort_without(game, starter, monkeypatch)
    assert ArenaPlayer.objects.get(arena=arena, user=sitter).state == ArenaPlayer.State.PAUSED
    assert GameConduct.objects.get(game=game, user=sitter).left == Left.ARENA_SITTING
    refusal = play_refusal(user_id=sitter.pk)
    assert refusal is not None and refusal.reason is Left.ARENA_SITTING
    with pytest.raises(LeaverWait):
        arenas.arena_join(user=sitter, arena_id=arena.pk)  # rejoining is joining


def test_a_wait_begun_in_an_arena_keeps_the_player_out_of_its_waves_until_it_ends(
    alice, bob, monkeypatch
):
    arena = running_arena()
    for user in (alice, bob):
        arenas.arena_join(user=user, arena_id=arena.pk)
    [game] = arenas.arena_wave(arena_id=arena.pk)
    start(game, alice)
    start(game, bob)
    game.refresh_from_db()
    later = game.state["created_at"] + 600  # the 2-minute bank ran out, nobody connected
    with monkeypatch.context() as patch:
        patch.setattr(timebase, "server_now", lambda: later)
        assert game_services.game_advance(game_id=game.pk).changed
    game.refresh_from_db()
    assert (game.status, game.reason) == (Game.Status.FINISHED, "time")
    leaver = game.player(1 - game.winner_seat)
    assert GameConduct.objects.get(game=game, user=leaver).left == Left.RAN_OUT
    refusal = play_refusal(user_id=leaver.pk)
    assert refusal is not None
    entries = ArenaPlayer.objects.filter(arena=arena)
    assert set(entries.values_list("state", flat=True)) == {ArenaPlayer.State.ACTIVE}
    assert not entries.filter(free_since__isnull=True).exists()  # both free, still in it
    assert arenas.arena_wave(arena_id=arena.pk) == []
    almost = refusal.until - timedelta(seconds=1)
    assert arenas.arena_wave(arena_id=arena.pk, now=almost) == []
    [again] = arenas.arena_wave(arena_id=arena.pk, now=refusal.until)
    assert {again.player0, again.player1} == {alice, bob}


def test_the_pages_show_the_wait_and_the_forms_refuse_with_it(waiting, client_logged_in):
    client = client_logged_in(waiting)
    for name in ("play-now", "lobby"):
        page = client.get(reverse(name), HTTP_ACCEPT_LANGUAGE="en").text
        assert 'data-code="leaver_wait"' in page and "did not press Start" in page
    arena = running_arena()
    assert 'data-code="leaver_wait"' in client.get(reverse("arena", args=[arena.pk])).text
    response = client.post(reverse("challenge-create"), {"opponent": ""})
    assert next(str(m) for m in get_messages(response.wsgi_request)).startswith(
        "You can start a new game in"
    )
    response = client.post(reverse("arena-join", args=[arena.pk]))
    assert "because you did not press Start" in str(next(iter(get_messages(response.wsgi_request))))
    spanish = client.get(reverse("play-now"), HTTP_ACCEPT_LANGUAGE="es").text
    assert "Podrás empezar una partida nueva" in spanish


def test_pages_of_a_player_not_waiting_show_no_notice(client_logged_in, alice):
    page = client_logged_in(alice).get(reverse("play-now")).text
    assert "leaver_wait" not in page


def test_the_admin_lists_how_players_ended_their_games(waiting, client_logged_in, user_factory):
    admin = user_factory("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    page = client_logged_in(admin).get(
        reverse("admin:fairplay_gameconduct_changelist"), {"left": "no_start"}
    )
    assert page.status_code == 200 and "bob" in page.text
