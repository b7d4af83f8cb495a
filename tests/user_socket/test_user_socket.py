"""The user socket's services and pages: what every page of a player learns and shows.

The challenges addressed to a player are pushed to their own group (and to nobody else's);
"your game" is drawn in every page's header and on the home page; a rematch is answered
from another page; and "Play now" keeps or drops the player's place when they play the
computer meanwhile, coherently with one game at a time.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.urls import reverse
from django.utils import timezone

from games.computer.moves import computer_game_create
from games.models import Game
from games.services import game_create, game_rematch, game_submit_action
from lobby import challenges
from lobby.models import QueueEntry
from lobby.services import (
    QUEUE_HELD_AFTER_GAME,
    queue_drop_stale,
    queue_hold,
    queue_join,
    queue_leave,
    queue_pair,
    queue_status_of,
)
from realtime.groups import user_group
from tests.games.wsclient import WsClient

pytestmark = pytest.mark.django_db


def listening(*users: Any) -> dict[int, str]:
    """A channel in each user's group, as their user socket's would be."""
    layer = get_channel_layer()
    channels = {}
    for user in users:
        channels[user.pk] = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(user_group(user.pk), channels[user.pk])
    return channels


def heard(channel: str) -> list[dict[str, Any]]:
    """Every event waiting on the channel (whichever the layer: in memory or Redis)."""
    layer = get_channel_layer()
    # The in-memory layer's group_send has queued its messages when it returns; Redis's
    # may still be on their way.
    wait = 0.02 if isinstance(layer, InMemoryChannelLayer) else 0.3

    async def drain() -> list[dict[str, Any]]:
        events = []
        while True:
            try:
                events.append(await asyncio.wait_for(layer.receive(channel), wait))
            except TimeoutError:
                return events

    return async_to_sync(drain)()


def invitations(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The challenges each invitations event carried (failing on any other event)."""
    assert all(event["type"] == "user.lobby.invitations" for event in events), events
    return [event["challenges"] for event in events]


def start(game: Game) -> None:
    for user in (game.player0, game.player1):
        game_submit_action(game_id=game.pk, user=user, action={"do": "start"}, request_id=None)


# ---------------------------------------------------------------- challenges, everywhere


def test_a_challenge_is_told_to_its_opponents_pages_only(
    alice, bob, carol, django_capture_on_commit_callbacks
):
    channels = listening(alice, bob, carol)
    with django_capture_on_commit_callbacks(execute=True):
        made = challenges.challenge_create(challenger=alice, opponent_username="bob")
    # Built once where it was made: the open challenges addressed to Bob, finished.
    [told] = heard(channels[bob.pk])
    assert told["type"] == "user.lobby.invitations"
    assert [(c["id"], c["challenger"], c["to_me"]) for c in told["challenges"]] == [
        (made.pk, "alice", True)
    ]
    assert heard(channels[carol.pk]) == []
    with django_capture_on_commit_callbacks(execute=True):
        challenges.challenge_create(challenger=carol)  # open: the lobby list's only
    assert heard(channels[bob.pk]) == []
    with django_capture_on_commit_callbacks(execute=True):
        challenges.challenge_decline(challenge_id=made.pk, user=bob)
    assert invitations(heard(channels[bob.pk])) == [[]]  # its notice goes
    assert heard(channels[alice.pk]) == [{"type": "user.lobby.declined", "by": "bob"}]
    # One that expires takes its notice with it too.
    with django_capture_on_commit_callbacks(execute=True):
        challenges.challenge_create(challenger=alice, opponent_username="bob")
    heard(channels[bob.pk])
    with django_capture_on_commit_callbacks(execute=True):
        assert challenges.challenges_expire(now=timezone.now() + timedelta(hours=1)) == 2
    assert invitations(heard(channels[bob.pk])) == [[]]
    assert heard(channels[carol.pk]) == []


@pytest.mark.django_db(transaction=True)
async def test_the_socket_of_any_page_offers_the_challenges_addressed_to_the_player(alice, bob):
    page_b = WsClient("/ws/lobby/", user=bob)  # the home page's: no list asked for
    assert (await page_b.connect())[0]
    first = await page_b.until(lambda m: m["type"] == "invitations")
    assert first["challenges"] == []
    assert [f["type"] for f in page_b.frames] == ["your_game", "invitations"]
    made = await database_sync_to_async(challenges.challenge_create)(
        challenger=alice, opponent_username="bob"
    )
    told = await page_b.until(lambda m: m["type"] == "invitations" and m["challenges"])
    (entry,) = told["challenges"]
    assert (entry["id"], entry["challenger"], entry["to_me"]) == (made.pk, "alice", True)
    await database_sync_to_async(challenges.challenge_accept)(challenge_id=made.pk, user=bob)
    news = await page_b.until(lambda m: m["type"] == "your_game" and m["game"])
    assert news["game"]["opponent"] == "alice" and news["game"]["status"] == "waiting"
    await page_b.until(lambda m: m["type"] == "invitations" and not m["challenges"])
    await page_b.until(lambda m: m["type"] == "redirect")
    # The page that shows no list is sent no list.
    assert not any(f["type"] in ("challenges", "live_games") for f in page_b.frames)
    await page_b.close()


# ---------------------------------------------------------------- your game, everywhere


def test_every_page_draws_your_game_in_its_header(alice, bob, carol, client_logged_in):
    game = game_create(player0=alice, player1=bob)
    client = client_logged_in(bob)
    for name in ("home", "rules", "leaderboard"):
        page = client.get(reverse(name)).content.decode()
        assert f'href="/games/{game.pk}/" data-your-game data-turn="you"' in page, name
        assert "vs alice" in page and ">2:00<" in page
        assert "js/user.js" in page and 'id="user-words"' in page
    assert "Your game in progress" in client.get(reverse("home")).content.decode()
    # The seat's own game page hears its player too (what comes after the game), but has no
    # "your game" in its header: it is the game; a spectator's has both.
    seat_page = client.get(reverse("game", kwargs={"game_id": game.pk})).content.decode()
    assert "js/user.js" in seat_page and "data-your-game" not in seat_page
    watcher = client_logged_in(carol)
    assert (
        "js/user.js" in watcher.get(reverse("game", kwargs={"game_id": game.pk})).content.decode()
    )
    # Over: the header shows no game; signed out, no socket at all.
    game_submit_action(game_id=game.pk, user=bob, action={"do": "resign"}, request_id=None)
    assert "data-your-game hidden" in client.get(reverse("rules")).content.decode()


def test_a_signed_out_page_opens_no_user_socket(client):
    page = client.get(reverse("home")).content.decode()
    assert "js/user.js" not in page and "data-your-game" not in page


def test_your_game_is_pushed_on_turn_changes_only(alice, bob, django_capture_on_commit_callbacks):
    """One small message per player when the turn moves; none for a change that keeps it."""
    channels = listening(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        game = game_create(player0=alice, player1=bob)
    for user in (alice, bob):
        (event,) = heard(channels[user.pk])
        assert event["type"] == "user.games.game" and event["game"]["your_turn"]
    with django_capture_on_commit_callbacks(execute=True):
        start(game)
    game.refresh_from_db()
    to_act = game.state["to_act"]
    for seat, user in enumerate((alice, bob)):
        events = heard(channels[user.pk])
        assert events and all(e["type"] == "user.games.game" for e in events)
        last = events[-1]["game"]
        assert last["status"] == "playing"
        assert last["your_turn"] == (seat == to_act) and last["their_turn"] == (seat != to_act)
        assert last["flag_at"] is None if seat != to_act else last["flag_at"] > 0
        assert "hand" not in str(events)  # never a tile
    # A request refused changes nothing: nobody's pages hear of it.
    wrong = (alice, bob)[1 - to_act]
    with django_capture_on_commit_callbacks(execute=True):
        result = game_submit_action(
            game_id=game.pk, user=wrong, action={"do": "pass"}, request_id="r1"
        )
    assert not result.ok
    assert heard(channels[alice.pk]) == heard(channels[bob.pk]) == []
    with django_capture_on_commit_callbacks(execute=True):
        game_submit_action(game_id=game.pk, user=alice, action={"do": "resign"}, request_id=None)
    for user in (alice, bob):
        assert heard(channels[user.pk])[-1] == {"type": "user.games.game", "game": None}


def test_a_rematch_offer_is_told_to_the_opponents_pages(
    alice, bob, django_capture_on_commit_callbacks
):
    game = game_create(player0=alice, player1=bob)
    start(game)
    game_submit_action(game_id=game.pk, user=bob, action={"do": "resign"}, request_id=None)
    channels = listening(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        game_rematch(game_id=game.pk, user=alice, answer="offer")
    url = f"/games/{game.pk}/"
    assert heard(channels[bob.pk]) == [
        {"type": "user.games.rematch", "game": game.pk, "url": url, "by": "alice"}
    ]
    assert heard(channels[alice.pk]) == [
        {"type": "user.games.rematch", "game": game.pk, "url": url, "by": None}
    ]


def test_a_rematch_is_accepted_from_another_page(alice, bob, client_logged_in):
    game = game_create(player0=alice, player1=bob)
    start(game)
    game_submit_action(game_id=game.pk, user=bob, action={"do": "resign"}, request_id=None)
    url = reverse("game-rematch", kwargs={"game_id": game.pk})
    client = client_logged_in(bob)
    assert client.get(url).status_code == 405  # only a POST answers
    # Nothing offered yet: bob's offer stands, and he is shown the game that says so.
    response = client.post(url, {"answer": "offer"})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    response = client_logged_in(alice).post(url, {"answer": "offer"})
    game.refresh_from_db()
    assert response["Location"] == f"/games/{game.rematch_game_id}/"
    assert client_logged_in(alice).post(url, {"answer": "dance"}).status_code == 302
    missing = reverse("game-rematch", kwargs={"game_id": 999_999})
    assert client.post(missing, {"answer": "offer"}).status_code == 404


# ---------------------------------------------------------------- Play now, meanwhile


def test_a_held_place_is_never_paired_and_is_taken_up_again(alice, bob):
    now = timezone.now()
    queue_join(user=alice, now=now - timedelta(seconds=40))
    assert queue_hold(user=alice)
    status = queue_status_of(user=alice)
    assert not status.in_queue and status.held and status.waiting == 0
    assert queue_join(user=bob, now=now).in_queue
    assert queue_pair(now=now) == []  # alice's place is held: bob waits alone
    assert not queue_leave(user=alice, closed=True)  # her waiting page closing keeps it
    assert queue_leave(user=bob)
    back = queue_join(user=alice, now=now)  # taken up again, with the wait it had
    assert back.in_queue and not back.held and back.wait_seconds >= 40
    queue_join(user=bob, now=now)
    assert Game.objects.filter(player0__in=(alice, bob), player1__in=(alice, bob)).exists()


def test_pairing_leaves_a_held_place_alone_while_its_player_plays(alice, bob, carol):
    queue_join(user=alice)
    queue_hold(user=alice)
    game_create(player0=alice, player1=carol)
    queue_join(user=bob)
    assert queue_pair() == []
    assert QueueEntry.objects.get(user=alice).held  # not dropped for being in a game


def test_a_held_place_lasts_the_game_and_a_while_after(alice, bob):
    now = timezone.now()
    queue_join(user=alice, now=now)
    queue_hold(user=alice, now=now)
    game = game_create(player0=alice, player1=bob)  # the computer's game stands in here
    later = now + QUEUE_HELD_AFTER_GAME * 2
    assert queue_drop_stale(now=later) == 0  # kept through the game
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert queue_drop_stale(now=later + QUEUE_HELD_AFTER_GAME / 2) == 0
    assert queue_drop_stale(now=later + QUEUE_HELD_AFTER_GAME * 2) == 1


def test_a_kept_place_waits_again_when_the_computer_game_ends_and_is_paired(
    alice, bob, django_capture_on_commit_callbacks
):
    now = timezone.now()
    queue_join(user=alice, now=now - timedelta(seconds=40))
    played = computer_game_create(user=alice, strength="easy")
    queue_hold(user=alice)
    queue_join(user=bob)
    assert queue_pair() == []  # held through the game
    with django_capture_on_commit_callbacks(execute=True):
        game_submit_action(game_id=played.pk, user=alice, action={"do": "resign"}, request_id="r")
    assert not QueueEntry.objects.filter(user__in=(alice, bob)).exists()  # paired at once
    game = Game.objects.get(bot_seat__isnull=True)
    assert {game.player0_id, game.player1_id} == {alice.pk, bob.pk}


def test_a_kept_place_waits_again_alone_with_its_wait(alice, django_capture_on_commit_callbacks):
    now = timezone.now()
    queue_join(user=alice, now=now - timedelta(seconds=40))
    played = computer_game_create(user=alice, strength="easy")
    queue_hold(user=alice)
    with django_capture_on_commit_callbacks(execute=True):
        game_submit_action(game_id=played.pk, user=alice, action={"do": "resign"}, request_id="r")
    status = queue_status_of(user=alice)
    assert status.in_queue and not status.held and status.wait_seconds >= 40


@pytest.mark.parametrize(("choice", "held"), [("keep", True), ("leave", None)])
def test_play_the_computer_from_play_now_keeps_or_leaves_the_place(
    alice, client_logged_in, choice, held
):
    queue_join(user=alice)
    client = client_logged_in(alice)
    response = client.post(reverse("computer-new"), {"strength": "easy", "queue": choice})
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/" and game.against_computer
    entry = QueueEntry.objects.filter(user=alice).first()
    assert (entry.held if entry else None) is held


def test_a_refused_computer_game_keeps_the_place_as_it_was(alice, client_logged_in, settings):
    settings.COMPUTER_GAMES_PER_HOUR = 1
    played = computer_game_create(user=alice, strength="easy")
    Game.objects.filter(pk=played.pk).update(status=Game.Status.FINISHED)
    queue_join(user=alice)
    client_logged_in(alice).post(reverse("computer-new"), {"strength": "easy", "queue": "keep"})
    assert Game.objects.count() == 1  # refused: past the hour's limit
    assert not QueueEntry.objects.get(user=alice).held


def test_play_now_offers_the_computer_with_the_place_to_keep(alice, client_logged_in):
    page = client_logged_in(alice).get(reverse("play-now")).content.decode()
    assert 'data-role="meanwhile" hidden' in page
    assert 'name="queue" value="keep" checked' in page and 'name="queue" value="leave"' in page
    # Elsewhere the computer's form asks nothing of a queue.
    assert 'name="queue"' not in client_logged_in(alice).get(reverse("lobby")).content.decode()
