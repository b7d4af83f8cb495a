"""The arenas' services: joining, waves, scores recounted from the games, the arena's clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.clock import timebase
from games.models import Game
from games.selectors import decisions_by_seat
from lobby.models import QueueEntry
from lobby.services import queue_join
from ratings.models import RatingEntry
from tests.games.factories import drive
from tournaments import arena as scoring
from tournaments import services
from tournaments.errors import ArenaError
from tournaments.models import Arena, ArenaGame, ArenaPlayer, ArenaSchedule
from tournaments.selectors import standings_message

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(user_factory):
    return [user_factory(name) for name in ("ana", "ben", "cai", "dee")]


def running_arena(**fields) -> Arena:
    now = timezone.now()
    arena = Arena.objects.create(
        name="Test arena", starts_at=now - timedelta(minutes=1), minutes=60, **fields
    )
    services.arena_start(arena_id=arena.pk, now=now)
    arena.refresh_from_db()
    return arena


def resign(game: Game, user) -> None:
    result = game_services.game_submit_action(
        game_id=game.pk, user=user, action={"do": "resign"}, request_id=f"resign-{game.pk}"
    )
    assert result.ok, result.code


def loser_of(game: Game, winner) -> object:
    return game.player1 if game.player0 == winner else game.player0


def entry(arena: Arena, user) -> ArenaPlayer:
    return ArenaPlayer.objects.get(arena=arena, user=user)


def test_a_wave_pairs_the_free_players_once_with_the_arenas_clock(players):
    arena = running_arena(bank_seconds=60)
    for user in players:
        services.arena_join(user=user, arena_id=arena.pk)
    games = services.arena_wave(arena_id=arena.pk)
    assert len(games) == 2
    assert {p for g in games for p in (g.player0_id, g.player1_id)} == {u.pk for u in players}
    assert all(g.setup["banks"] == [60.0, 60.0] for g in games)
    for game in games:
        first, second = entry(arena, game.player0), entry(arena, game.player1)
        assert (first.last_opponent_id, first.first_seats) == (game.player1_id, 1)
        assert (second.last_opponent_id, second.first_seats) == (game.player0_id, -1)
        assert first.free_since is None and second.free_since is None
    assert services.arena_wave(arena_id=arena.pk) == []  # a second run pairs nobody twice
    assert ArenaGame.objects.filter(arena=arena).count() == 2


def test_scores_follow_wins_streaks_and_voids(players, settings):
    settings.ARENA_MIN_DECISIONS = 0  # resignations at once count here
    settings.ARENA_SAME_OPPONENT_MAX_RUN = 4  # the same two players, four games in a row
    ana, ben = players[:2]
    arena = running_arena()
    for user in (ana, ben):
        services.arena_join(user=user, arena_id=arena.pk)
    won = []
    for _ in range(4):
        [game] = services.arena_wave(arena_id=arena.pk)
        resign(game, ben)  # ana wins every game
        won.append(game)
        arena.refresh_from_db()
    assert (entry(arena, ana).score, entry(arena, ana).streak) == (2 + 2 + 4 + 4, 4)
    assert entry(arena, ben).score == 0 and entry(arena, ben).losses == 4
    # The third game voided (a service fault): it counts nothing and breaks no streak, so
    # the fourth is now ana's third win in a row: 2 + 2 + 4.
    assert game_services.game_void(game_id=won[2].pk)
    ana_entry = entry(arena, ana)
    assert (ana_entry.score, ana_entry.wins, ana_entry.streak) == (8, 3, 3)
    assert recounted(arena) == {e.user_id: e.score for e in ArenaPlayer.objects.filter(arena=arena)}


def recounted(arena: Arena) -> dict[int, int]:
    """Each player's score recomputed from the arena's games and their logs alone."""
    outcomes: dict[int, list[scoring.Outcome]] = {}
    for played in ArenaGame.objects.filter(arena=arena, ended_at__isnull=False).order_by(
        "ended_at", "pk"
    ):
        game = played.game
        for seat, user_id in enumerate((played.player0_id, played.player1_id)):
            if game.status != Game.Status.FINISHED:
                outcome = scoring.Outcome.NONE
            elif min(decisions_by_seat(game.pk)) < django_settings.ARENA_MIN_DECISIONS:
                outcome = scoring.Outcome.SHORT
            else:
                won = game.winner_seat == seat
                outcome = scoring.Outcome.WIN if won else scoring.Outcome.LOSS
            outcomes.setdefault(user_id, []).append(outcome)
    return {user_id: scoring.total(seq)[0] for user_id, seq in outcomes.items()}


def test_a_paused_player_is_not_paired_and_a_rejoined_one_is(players):
    ana, ben = players[:2]
    arena = running_arena()
    for user in (ana, ben):
        services.arena_join(user=user, arena_id=arena.pk)
    services.arena_pause(user=ben, arena_id=arena.pk)
    assert services.arena_wave(arena_id=arena.pk) == []
    services.arena_join(user=ben, arena_id=arena.pk)
    assert len(services.arena_wave(arena_id=arena.pk)) == 1


def test_the_queue_and_the_arena_exclude_each_other(players):
    ana = players[0]
    arena = running_arena()
    queue_join(user=ana)
    assert QueueEntry.objects.filter(user=ana).exists()
    services.arena_join(user=ana, arena_id=arena.pk)
    assert not QueueEntry.objects.filter(user=ana).exists()
    queue_join(user=ana)
    assert entry(arena, ana).state == ArenaPlayer.State.PAUSED


def test_no_pairing_in_the_last_minute_and_games_running_at_the_end_still_count(players, settings):
    settings.ARENA_MIN_DECISIONS = 0  # resignations at once count here
    arena = running_arena()
    for user in players:
        services.arena_join(user=user, arena_id=arena.pk)
    [first, second] = services.arena_wave(arena_id=arena.pk)
    resign(first, loser_of(first, first.player0))
    late = arena.ends_at - timedelta(seconds=30)
    assert services.arena_wave(arena_id=arena.pk, now=late) == []
    assert services.arena_finish(arena_id=arena.pk, now=arena.ends_at)
    resign(second, second.player1)  # ends after the arena did: counts
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED
    assert entry(arena, second.player0).score == 2
    assert not ArenaPlayer.objects.filter(arena=arena, free_since__isnull=False).exists()


def test_an_abort_counts_nothing_and_pauses_who_never_pressed_start(players, monkeypatch):
    ana, ben = players[:2]
    arena = running_arena()
    for user in (ana, ben):
        services.arena_join(user=user, arena_id=arena.pk)
    [game] = services.arena_wave(arena_id=arena.pk)
    starter = game.player0
    assert game_services.game_submit_action(
        game_id=game.pk, user=starter, action={"do": "start"}, request_id="s"
    ).ok
    later = game.state["created_at"] + 61  # P1: nobody may wait a minute for a Start
    monkeypatch.setattr(timebase, "server_now", lambda: later)
    assert game_services.game_advance(game_id=game.pk).changed
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert entry(arena, starter).state == ArenaPlayer.State.ACTIVE
    assert entry(arena, starter).free_since is not None
    assert entry(arena, game.player1).state == ArenaPlayer.State.PAUSED
    assert entry(arena, starter).score == 0


def test_joining_checks_the_arena_and_the_rating_band(players):
    ana = players[0]
    over = Arena.objects.create(
        name="Old", starts_at=timezone.now() - timedelta(hours=2), minutes=30
    )
    with pytest.raises(ArenaError) as refused:
        services.arena_join(user=ana, arena_id=over.pk)
    assert refused.value.code == "arena_over"
    strong = running_arena(min_rating=1800)
    with pytest.raises(ArenaError) as refused:
        services.arena_join(user=ana, arena_id=strong.pk)
    assert refused.value.code == "arena_rating_band"
    with pytest.raises(ArenaError) as refused:
        services.arena_join(user=ana, arena_id=10**9)
    assert refused.value.code == "arena_not_found"


def test_a_removed_player_cannot_rejoin(players):
    ana = players[0]
    arena = running_arena()
    joined = services.arena_join(user=ana, arena_id=arena.pk)
    assert services.arena_remove_player(entry_id=joined.pk)
    with pytest.raises(ArenaError):
        services.arena_join(user=ana, arena_id=arena.pk)


@override_settings(ARENAS_PER_PLAYER_PER_DAY=1)
def test_players_create_arenas_within_a_daily_limit(players):
    ana = players[0]
    options = {"name": "Ana's", "minutes": 30, "bank_seconds": 120, "rated": False}
    arena = services.arena_create(user=ana, starts_at=timezone.now(), **options)
    assert entry(arena, ana).state == ArenaPlayer.State.ACTIVE
    with pytest.raises(ArenaError) as refused:
        services.arena_create(user=ana, starts_at=timezone.now(), **options)
    assert refused.value.code == "too_many_arenas"


def test_a_schedule_creates_each_arena_once():
    ArenaSchedule.objects.create(name="Hourly", every_hours=1, at_minute=0, minutes=60)
    now = timezone.now()
    made = services.arenas_schedule(now=now, ahead=timedelta(hours=3))
    assert made == 3
    assert services.arenas_schedule(now=now, ahead=timedelta(hours=3)) == 0
    assert all(a.starts_at.minute == 0 for a in Arena.objects.all())


def test_the_tick_starts_pairs_and_ends_an_arena(players):
    now = timezone.now()
    arena = Arena.objects.create(name="Soon", starts_at=now + timedelta(seconds=5), minutes=10)
    for user in players:
        services.arena_join(user=user, arena_id=arena.pk, now=now)
    assert services.arenas_tick(now=now)["started"] == 0
    later = now + timedelta(seconds=6)
    result = services.arenas_tick(now=later)
    assert (result["started"], result["games"]) == (1, 2)
    assert services.arenas_tick(now=arena.ends_at + timedelta(seconds=1))["ended"] == 1


def test_a_player_who_pauses_while_a_wave_pairs_gets_no_game_and_their_partner_waits(
    players, monkeypatch
):
    arena = running_arena()
    for user in players:
        services.arena_join(user=user, arena_id=arena.pk)
    pair_wave = scoring.pair_wave

    def pairs_then_ana_pauses(free, **options):
        pairs = pair_wave(free, **options)
        services.arena_pause(user=players[0], arena_id=arena.pk)
        return pairs

    monkeypatch.setattr(services.scoring, "pair_wave", pairs_then_ana_pauses)

    [game] = services.arena_wave(arena_id=arena.pk)

    paired = {game.player0_id, game.player1_id}
    assert players[0].pk not in paired
    waiting = [user for user in players[1:] if user.pk not in paired]
    assert [entry(arena, user).free_since is not None for user in waiting] == [True]
    assert Game.objects.filter(arena_game__arena=arena).count() == 1


def test_an_arena_starting_before_the_next_tick_is_seen_and_started_on_the_dot(players):
    now = timezone.now()
    soon = Arena.objects.create(name="Soon", starts_at=now + timedelta(seconds=0.3))
    later = Arena.objects.create(name="Later", starts_at=now + timedelta(seconds=5))
    for user in players:
        services.arena_join(user=user, arena_id=soon.pk)
        services.arena_join(user=user, arena_id=later.pk)

    assert services.arenas_starting_soon(now=now) == [(soon.pk, soon.starts_at)]
    assert services.arena_start_on_time(arena_id=soon.pk)

    soon.refresh_from_db()
    assert soon.status == Arena.Status.RUNNING and timezone.now() >= soon.starts_at
    assert ArenaGame.objects.filter(arena=soon).count() == 2  # its first wave, at once
    assert not services.arena_start_on_time(arena_id=soon.pk)  # started once
    assert services.arenas_starting_soon() == []


def test_the_tick_runs_no_wave_of_its_own_before_an_on_time_starts_first_wave(players):
    arena = Arena.objects.create(name="Now", starts_at=timezone.now() - timedelta(seconds=1))
    for user in players:
        services.arena_join(user=user, arena_id=arena.pk)
    assert services.arena_start(arena_id=arena.pk, waving=True)

    assert services.arenas_tick()["games"] == 0  # the starter's wave is on its way
    assert len(services.arena_wave(arena_id=arena.pk)) == 2


def play_decisions(game: Game, users, each: int) -> None:
    """Both players press Start and make `each` decisions of their own (or more: a seat may
    be asked several in a row), through the service, with the tests' legal-move policy."""
    order = {game.player0_id: 0, game.player1_id: 1}
    seated = tuple(sorted(users, key=lambda user: order[user.pk]))
    drive(game.pk, seated, lambda view: min(decisions_by_seat(game.pk)) >= each)


def test_a_resignation_before_a_real_start_scores_nothing_and_moves_no_rating(players):
    ana, ben = players[:2]
    arena = running_arena(rated=True)
    for user in (ana, ben):
        services.arena_join(user=user, arena_id=arena.pk)
    [game] = services.arena_wave(arena_id=arena.pk)
    play_decisions(game, (ana, ben), each=2)  # one decision short of a real start
    resign(game, ben)
    played = ArenaGame.objects.get(game=game)
    assert (played.outcome0, played.outcome1) == ("short", "short")
    assert (played.points0, played.points1) == (0, 0)
    for user in (ana, ben):
        row = entry(arena, user)
        assert (row.score, row.wins, row.losses, row.short, row.streak) == (0, 0, 0, 1, 0)
    assert not RatingEntry.objects.filter(game=game).exists()
    message = standings_message(arena)
    assert {row["user"]: row["short"] for row in message["rows"]} == {"ana": 1, "ben": 1}
    assert message["games"][0] == {
        "game": game.pk,
        "players": [game.player0.username, game.player1.username],
        "winner": 1 - game.seats_of(ben.pk)[0],
        "short": True,
        "points": [0, 0],
    }
    assert "too short" in Client().get(reverse("arena", kwargs={"arena_id": arena.pk})).text


def test_a_game_after_a_real_start_scores_and_is_rated(players):
    ana, ben = players[:2]
    arena = running_arena(rated=True)
    for user in (ana, ben):
        services.arena_join(user=user, arena_id=arena.pk)
    [game] = services.arena_wave(arena_id=arena.pk)
    play_decisions(game, (ana, ben), each=3)
    resign(game, ben)
    assert (entry(arena, ana).score, entry(arena, ana).short) == (2, 0)
    assert entry(arena, ben).losses == 1
    assert RatingEntry.objects.filter(game=game).count() == 2
    assert standings_message(arena)["games"][0]["short"] is False


def test_a_short_game_keeps_the_streak_it_interrupts(players, settings):
    ana, ben = players[:2]
    settings.ARENA_SAME_OPPONENT_MAX_RUN = 5
    arena = running_arena(rated=False)
    for user in (ana, ben):
        services.arena_join(user=user, arena_id=arena.pk)
    for each in (3, 3, 0, 3):
        [game] = services.arena_wave(arena_id=arena.pk)
        play_decisions(game, (ana, ben), each=each)
        resign(game, ben)
    # Win, win, too short, win: the third win is doubled, as if the short one never was.
    assert (entry(arena, ana).score, entry(arena, ana).streak) == (2 + 2 + 4, 3)
    assert recounted(arena) == {e.user_id: e.score for e in ArenaPlayer.objects.filter(arena=arena)}


def test_two_players_alone_meet_at_most_the_run_allowed_then_wait_for_someone_else(
    players, settings
):
    ana, ben, cai = players[:3]
    settings.ARENA_SAME_OPPONENT_MAX_RUN = 3
    arena = running_arena()
    for user in (ana, ben):
        services.arena_join(user=user, arena_id=arena.pk)
    for run in (1, 2, 3):
        [game] = services.arena_wave(arena_id=arena.pk)
        assert (entry(arena, ana).same_run, entry(arena, ben).same_run) == (run, run)
        resign(game, ben)
    assert services.arena_wave(arena_id=arena.pk) == []  # a fourth in a row: no
    services.arena_join(user=cai, arena_id=arena.pk)
    [game] = services.arena_wave(arena_id=arena.pk)
    assert cai.pk in (game.player0_id, game.player1_id)
    assert entry(arena, cai).same_run == 1
    assert entry(arena, cai).last_opponent_id in (ana.pk, ben.pk)
