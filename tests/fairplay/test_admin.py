"""The moderators' queue in Django's admin, as a superuser through the test client: each
action (warn, mark, refund, close, dismiss, lift a mark) does its work, closes the item it
was taken from and is logged with who did it; what the player sees of it, in both languages;
a mark keeps the player off the leaderboard, the queue and arenas."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from fairplay.models import Flag, ModerationLog, PlayerWarning, Report, Status
from fairplay.services import account_mark, report_create
from lobby.errors import LobbyError
from lobby.models import QueueEntry
from lobby.services import queue_join
from ratings.models import MarkedPlayer, RatingEntry
from ratings.selectors import leaderboard
from tests.ratings.ledger import assert_ledger_consistent
from tournaments import services as arenas
from tournaments.errors import ArenaError
from tournaments.models import Arena, ArenaPlayer

pytestmark = pytest.mark.django_db

REPORTS = reverse("admin:fairplay_report_changelist")
FLAGS = reverse("admin:fairplay_flag_changelist")


def act(client: Client, url: str, action: str, *items: Any, query: str = "") -> Any:
    data = {"action": action, "_selected_action": [item.pk for item in items]}
    return client.post(f"{url}{query}", data, follow=True)


def said(response: Any) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_the_queue_lists_open_items_by_default(admin_client, alice, bob, carol):
    open_one = report_create(reporter=alice, username="bob", reason="abuse", text="rude")
    handled = report_create(reporter=carol, username="bob", reason="name")
    Report.objects.filter(pk=handled.pk).update(status=Status.HANDLED)
    page = admin_client.get(REPORTS)
    assert page.status_code == 200
    assert [r.pk for r in page.context["cl"].result_list] == [open_one.pk]
    listed = admin_client.get(f"{REPORTS}?queue=handled").context["cl"].result_list
    assert [r.pk for r in listed] == [handled.pk]
    assert len(admin_client.get(f"{REPORTS}?queue=all").context["cl"].result_list) == 2
    assert admin_client.get(FLAGS).status_code == 200


def test_warn_from_a_report_the_player_sees_it_and_reads_it(
    admin_client, admin_user, alice, bob, client_logged_in
):
    report = report_create(reporter=alice, username="bob", reason="name")
    response = act(admin_client, REPORTS, "warn", report)
    assert "1 player warned." in said(response)
    warning = PlayerWarning.objects.get()
    assert (warning.player, warning.reason, warning.created_by) == (bob, "name", admin_user)
    report.refresh_from_db()
    assert (report.status, report.handled_by) == (Status.HANDLED, admin_user)
    log = ModerationLog.objects.get()
    assert (log.actor, log.action, log.player, log.report) == (admin_user, "warn", bob, report)

    player = client_logged_in(bob)
    home = player.get(reverse("home")).content.decode()
    assert "A moderator has warned you." in home and "An offensive username" in home
    profile = player.get(reverse("profile", kwargs={"username": "bob"})).content.decode()
    assert "A moderator has warned you." in profile
    player.cookies["django_language"] = "es"
    assert "Un moderador te ha advertido." in player.get(reverse("home")).content.decode()
    # Nobody else sees it on bob's profile.
    other = client_logged_in(alice).get(reverse("profile", kwargs={"username": "bob"}))
    assert "warned you" not in other.content.decode()
    read_url = reverse("fairplay-warning-read", kwargs={"warning_id": warning.pk})
    # Another player cannot mark it read.
    client_logged_in(alice).post(read_url, {"back": "/"})
    assert PlayerWarning.objects.get().seen_at is None
    read = player.post(read_url, {"back": "//evil.example/"})
    assert read.status_code == 302 and read["Location"] == "/"  # only a path on this site
    assert "te ha advertido" not in player.get(reverse("home")).content.decode()
    assert PlayerWarning.objects.get().seen_at is not None


def test_mark_from_a_flag_keeps_the_player_off_the_leaderboard_the_queue_and_arenas(
    admin_client, admin_user, alice, bob, client_logged_in, played_game
):
    played_game(alice, bob, winner=0)
    assert "alice" in [row.username for row in leaderboard()]
    flag = Flag.objects.create(player=alice, opponent=bob, kind="boosting", games=5)
    now = timezone.now()
    arena = Arena.objects.create(name="Evening", starts_at=now - timedelta(minutes=1), minutes=60)
    arenas.arena_start(arena_id=arena.pk, now=now)
    arenas.arena_join(user=alice, arena_id=arena.pk)
    QueueEntry.objects.create(user=alice, rating=1500, joined_at=now, seen_at=now)

    response = act(admin_client, FLAGS, "mark", flag)
    assert "1 account marked." in said(response)
    assert MarkedPlayer.objects.filter(player=alice).exists()
    assert "alice" not in [row.username for row in leaderboard()]
    assert not QueueEntry.objects.filter(user=alice).exists()
    assert ArenaPlayer.objects.get(user=alice).state == ArenaPlayer.State.WITHDRAWN
    with pytest.raises(LobbyError) as refused:
        queue_join(user=alice)
    assert refused.value.code == "account_marked"
    with pytest.raises(ArenaError) as refused_arena:
        arenas.arena_join(user=alice, arena_id=arena.pk)
    assert refused_arena.value.code == "account_marked"
    flag.refresh_from_db()
    assert flag.status == Status.HANDLED
    log = ModerationLog.objects.get()
    assert (log.actor, log.action, log.player, log.flag) == (admin_user, "mark", alice, flag)
    # The player sees it, on the home page and the profile, in both languages.
    player = client_logged_in(alice)
    assert "Your account is marked" in player.get(reverse("home")).content.decode()
    profile = player.get(reverse("profile", kwargs={"username": "alice"})).content.decode()
    assert "Your account is marked" in profile
    page = player.post(reverse("arena-join", kwargs={"arena_id": arena.pk}), follow=True)
    assert "marked your account" in page.content.decode()
    player.cookies["django_language"] = "es"
    assert "Los moderadores han marcado tu cuenta." in player.get(reverse("home")).content.decode()

    # Lifted from the marked accounts' list: listed and free to play again, and logged.
    marks = reverse("admin:ratings_markedplayer_changelist")
    data = {"action": "unmark", "_selected_action": [alice.pk]}
    assert "1 mark lifted." in said(admin_client.post(marks, data, follow=True))
    assert "alice" in [row.username for row in leaderboard()]
    assert queue_join(user=alice).in_queue
    assert ModerationLog.objects.filter(action="unmark", actor=admin_user, player=alice).exists()


def test_refund_needs_a_mark_then_gives_back_the_victims_losses(
    admin_client, admin_user, alice, bob, carol, played_game
):
    played_game(alice, bob, winner=0)
    played_game(carol, alice, winner=1)
    report = report_create(reporter=bob, username="alice", reason="boosting")
    refused = act(admin_client, REPORTS, "refund", report)
    assert any("mark it first" in text for text in said(refused))
    assert not RatingEntry.objects.filter(reason="refund").exists()
    report.refresh_from_db()
    assert report.status == Status.OPEN  # a refused action closes nothing

    act(admin_client, REPORTS, "mark", report)
    response = act(admin_client, REPORTS, "refund", report, query="?queue=all")
    assert any("2 entries" in text for text in said(response))
    refunds = RatingEntry.objects.filter(reason="refund")
    assert sorted(refunds.values_list("player__username", flat=True)) == ["bob", "carol"]
    assert_ledger_consistent()
    assert [entry.action for entry in ModerationLog.objects.order_by("id")] == ["mark", "refund"]


def test_close_deactivates_the_account_and_ends_its_sessions(
    admin_client, admin_user, alice, bob, client_logged_in
):
    report = report_create(reporter=alice, username="bob", reason="abuse")
    player = client_logged_in(bob)
    assert player.get(reverse("home")).context["user"].is_authenticated
    assert "1 account closed." in said(act(admin_client, REPORTS, "close", report))
    bob.refresh_from_db()
    assert not bob.is_active
    assert not player.get(reverse("home")).context["user"].is_authenticated
    profile = reverse("profile", kwargs={"username": "bob"})
    assert client_logged_in(alice).get(profile).status_code == 404
    log = ModerationLog.objects.get()
    assert (log.actor, log.action, log.player, log.report) == (admin_user, "close", bob, report)


def test_dismiss_closes_the_item_and_nothing_else(admin_client, admin_user, alice, bob):
    report = report_create(reporter=alice, username="bob", reason="other", text="?")
    flag = Flag.objects.create(player=bob, kind="early_resign", games=12)
    assert "1 item dismissed." in said(act(admin_client, REPORTS, "dismiss", report))
    assert "1 item dismissed." in said(act(admin_client, FLAGS, "dismiss", flag))
    report.refresh_from_db()
    flag.refresh_from_db()
    assert report.status == flag.status == Status.HANDLED
    assert not PlayerWarning.objects.exists() and not MarkedPlayer.objects.exists()
    assert get_user_model().objects.get(pk=bob.pk).is_active
    assert ModerationLog.objects.filter(action="dismiss", actor=admin_user).count() == 2


def test_a_flag_warns_with_its_reason(admin_client, bob):
    flag = Flag.objects.create(player=bob, kind="early_resign", games=12)
    act(admin_client, FLAGS, "warn", flag)
    assert PlayerWarning.objects.get().reason == "sandbagging"


def test_the_log_and_the_items_are_read_only(admin_client, admin_user, alice, bob):
    report = report_create(reporter=alice, username="bob", reason="abuse")
    account_mark(actor=admin_user, player=bob, source=report)
    log = ModerationLog.objects.get()
    assert admin_client.get(reverse("admin:fairplay_moderationlog_changelist")).status_code == 200
    assert admin_client.get(reverse("admin:fairplay_moderationlog_add")).status_code == 403
    change = reverse("admin:fairplay_moderationlog_change", args=[log.pk])
    assert admin_client.post(change, {"note": "edited"}).status_code == 403
    delete = reverse("admin:fairplay_moderationlog_delete", args=[log.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert admin_client.get(reverse("admin:fairplay_report_add")).status_code == 403
    log.refresh_from_db()
    assert log.note == ""
    choices = admin_client.get(REPORTS).context["action_form"].fields["action"].choices
    assert "delete_selected" not in [name for name, _ in choices]
    assert {"warn", "mark", "refund", "close", "dismiss"} <= {name for name, _ in choices}


@pytest.mark.django_db(transaction=True)
async def test_the_queue_socket_tells_a_marked_account_why(alice, admin_user):
    from channels.db import database_sync_to_async

    from tests.games.wsclient import WsClient

    await database_sync_to_async(account_mark)(actor=admin_user, player=alice)
    lobby = WsClient("/ws/lobby/", user=alice)
    assert (await lobby.connect())[0]
    await lobby.send({"type": "queue", "do": "join", "id": "j-1"})
    reply = await lobby.until(lambda m: m["type"] == "error")
    assert (reply["code"], reply["id"]) == ("account_marked", "j-1")
    assert "marked your account" in reply["message"]
    assert not await database_sync_to_async(QueueEntry.objects.filter(user=alice).exists)()
    await lobby.close()
