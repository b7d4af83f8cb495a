"""The arenas' pages, forms, tasks and admin."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tournaments import services, tasks
from tournaments.models import Arena, ArenaGame, ArenaPlayer

pytestmark = pytest.mark.django_db


@pytest.fixture
def arena() -> Arena:
    return Arena.objects.create(
        name="Friday <b>night</b>", starts_at=timezone.now() + timedelta(minutes=10)
    )


def test_the_list_shows_the_arenas_to_anyone(client, arena):
    page = client.get(reverse("arenas"))
    body = page.content.decode()
    assert page.status_code == 200
    assert "Friday &lt;b&gt;night&lt;/b&gt;" in body and "<b>night</b>" not in body
    assert "Create your own arena" not in body


@pytest.mark.parametrize("language, heading", [("en", "Finished"), ("es", "Terminadas")])
def test_the_lists_headings_speak_of_arenas_in_the_plural(client, language, heading):
    client.cookies["django_language"] = language
    body = client.get(reverse("arenas")).content.decode()
    assert f"<h2>{heading}</h2>" in body


@pytest.mark.parametrize("language, words", [("en", "Join"), ("es", "Unirse")])
def test_the_arena_page_offers_to_join_in_the_readers_language(
    client_logged_in, alice, arena, language, words
):
    client = client_logged_in(alice)
    client.cookies["django_language"] = language
    page = client.get(reverse("arena", kwargs={"arena_id": arena.pk}))
    assert page.status_code == 200
    assert words in page.content.decode()


def test_join_pause_and_withdraw_by_forms(client_logged_in, alice, arena):
    client = client_logged_in(alice)
    url = reverse("arena", kwargs={"arena_id": arena.pk})
    assert client.post(reverse("arena-join", kwargs={"arena_id": arena.pk})).url == url
    assert ArenaPlayer.objects.get(arena=arena, user=alice).state == "active"
    page = client.get(url).content.decode()
    assert "alice" in page and "Pause" in page
    client.post(reverse("arena-pause", kwargs={"arena_id": arena.pk}))
    assert ArenaPlayer.objects.get(arena=arena, user=alice).state == "paused"
    client.post(reverse("arena-withdraw", kwargs={"arena_id": arena.pk}))
    assert ArenaPlayer.objects.get(arena=arena, user=alice).state == "withdrawn"
    assert "alice" not in client.get(url).content.decode().split("<tbody")[1]


def test_forms_refuse_what_they_cannot_do(client, client_logged_in, alice, arena):
    join = reverse("arena-join", kwargs={"arena_id": arena.pk})
    assert client.post(join).status_code == 302 and not ArenaPlayer.objects.exists()  # login
    signed_in = client_logged_in(alice)
    assert signed_in.get(join).status_code == 405
    missing = signed_in.post(reverse("arena-join", kwargs={"arena_id": 10**9}), follow=True)
    assert "No such arena." in missing.content.decode()
    assert signed_in.get(reverse("arena", kwargs={"arena_id": 10**9})).status_code == 404


def test_a_player_creates_an_arena_and_is_in_it(client_logged_in, alice):
    client = client_logged_in(alice)
    starts = (timezone.now() + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "Alice's", "starts_at": starts, "minutes": 30, "bank_seconds": 120}
    answer = client.post(reverse("arenas"), form)
    arena = Arena.objects.get(name="Alice's")
    assert answer.url == reverse("arena", kwargs={"arena_id": arena.pk})
    assert arena.created_by == alice and not arena.rated
    assert ArenaPlayer.objects.filter(arena=arena, user=alice).exists()
    far = (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    refused = client.post(reverse("arenas"), {**form, "starts_at": far})
    assert refused.status_code == 200 and Arena.objects.count() == 1


def test_the_tasks_run_the_services(alice, bob):
    arena = Arena.objects.create(name="Now", starts_at=timezone.now() - timedelta(seconds=1))
    for user in (alice, bob):
        services.arena_join(user=user, arena_id=arena.pk)
    assert tasks.arenas_tick_task()["started"] == 1
    assert tasks.arenas_schedule_task() == 0


def test_the_tick_times_the_start_of_an_arena_due_before_the_next(alice, bob, monkeypatch):
    starts_at = timezone.now() + timedelta(seconds=1)
    arena = Arena.objects.create(name="Soon", starts_at=starts_at)
    timed = []
    # The broker is the edge here: what is sent, and for when.
    monkeypatch.setattr(
        tasks.arena_start_task, "apply_async", lambda args, eta: timed.append((args, eta))
    )
    tasks.arenas_tick_task()
    assert timed == [([arena.pk], starts_at)]
    services.arena_join(user=alice, arena_id=arena.pk)
    services.arena_join(user=bob, arena_id=arena.pk)
    assert tasks.arena_start_task(arena.pk)
    assert ArenaGame.objects.filter(arena=arena).count() == 1


def test_the_admin_lists_cancels_and_removes(admin_client, alice, arena):
    services.arena_join(user=alice, arena_id=arena.pk)
    listing = admin_client.get(reverse("admin:tournaments_arena_changelist"))
    assert listing.status_code == 200 and "Friday" in listing.content.decode()
    change = admin_client.get(reverse("admin:tournaments_arena_change", args=[arena.pk]))
    assert change.status_code == 200 and "alice" in change.content.decode()
    entry = ArenaPlayer.objects.get(arena=arena, user=alice)
    admin_client.post(
        reverse("admin:tournaments_arenaplayer_changelist"),
        {"action": "remove", "_selected_action": [entry.pk]},
    )
    assert ArenaPlayer.objects.get(pk=entry.pk).state == "removed"
    admin_client.post(
        reverse("admin:tournaments_arena_changelist"),
        {"action": "cancel", "_selected_action": [arena.pk]},
    )
    arena.refresh_from_db()
    assert arena.status == Arena.Status.CANCELLED


def test_the_home_page_offers_the_arenas_and_the_profile_lists_those_played(
    client_logged_in, alice, bob, arena, settings
):
    settings.ARENA_MIN_DECISIONS = 0  # a resignation at once counts here
    client = client_logged_in(alice)
    home = client.get(reverse("home")).content.decode()
    assert reverse("arena-join", kwargs={"arena_id": arena.pk}) in home
    client.post(reverse("arena-join", kwargs={"arena_id": arena.pk}))
    home = client.get(reverse("home")).content.decode()
    assert reverse("arena-join", kwargs={"arena_id": arena.pk}) not in home  # joined: Open
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now())
    services.arena_start(arena_id=arena.pk)
    services.arena_join(user=bob, arena_id=arena.pk)
    [game] = services.arena_wave(arena_id=arena.pk)
    from games import services as game_services

    game_services.game_submit_action(
        game_id=game.pk, user=bob, action={"do": "resign"}, request_id="r"
    )
    profile = client.get(reverse("profile", kwargs={"username": "alice"})).content.decode()
    assert "Arenas played" in profile and "rank 1 of 2" in profile


def test_an_arena_games_card_reads_its_arena_and_the_podium_waits(
    client_logged_in, alice, bob, carol
):
    from games.services import game_submit_action

    arena = Arena.objects.create(name="Now", starts_at=timezone.now() - timedelta(seconds=1))
    for user in (alice, bob):
        services.arena_join(user=user, arena_id=arena.pk)
    services.arena_start(arena_id=arena.pk)
    [game] = services.arena_wave(arena_id=arena.pk)
    url = reverse("game-arena", kwargs={"game_id": game.pk})
    assert client_logged_in(carol).get(url).json() == {"arena": None}  # not carol's game
    services.arena_finish(arena_id=arena.pk, now=arena.ends_at)
    page = reverse("arena", kwargs={"arena_id": arena.pk})
    body = client_logged_in(carol).get(page).content.decode()
    assert "Finishing the last games" in body and "arena__podium" not in body
    assert "Lasts 60 minutes · clock: 2 minutes (standard) · rated" in " ".join(body.split())
    for n, user in enumerate((game.player0, game.player1)):
        game_submit_action(game_id=game.pk, user=user, action={"do": "start"}, request_id=n)
    game_submit_action(game_id=game.pk, user=game.player1, action={"do": "resign"}, request_id=9)
    result = client_logged_in(game.player0).get(url).json()["arena"]
    assert result["name"] == "Now" and result["url"] == page and result["status"] == "finished"
    assert result["rank"] == 1 and result["players"] == 2 and result["state"] == "active"
    assert result["score"] == result["points"] and result["next_seconds"] > 0
    body = client_logged_in(carol).get(page).content.decode()
    assert "Finishing the last games" not in body and "arena__podium" in body


def test_the_start_is_typed_in_the_players_zone_to_the_minute(client_logged_in, alice):
    client = client_logged_in(alice)
    page = client.get(reverse("arenas")).content.decode()
    assert 'type="datetime-local"' in page and 'step="60"' in page
    served = page.split('name="starts_at" value="')[1].split('"')[0]
    assert len(served) == len("2026-01-01T12:00")  # no seconds for the steps to count from
    utc = (timezone.now() + timedelta(minutes=30)).replace(second=0, microsecond=0)
    madrid = utc + timedelta(hours=1)  # what a player in UTC+1 types; the browser says -60
    form = {"name": "Local", "starts_at": madrid.strftime("%Y-%m-%dT%H:%M"), "offset": -60}
    client.post(reverse("arenas"), {**form, "minutes": 30, "bank_seconds": 120})
    assert Arena.objects.get(name="Local").starts_at == utc
