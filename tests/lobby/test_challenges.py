"""Challenges: services, the lobby pages' forms, and the lobby socket's pushes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone

from games.errors import ServiceError
from games.models import Game
from lobby import challenges
from lobby.models import Challenge
from tests.games.wsclient import WsClient


def refused(code: str):
    return pytest.raises(ServiceError, match=f"^{code}$")


@pytest.mark.django_db
class TestServices:
    def test_create_and_accept_seats_both_players(self, alice, bob):
        challenge = challenges.challenge_create(challenger=alice, opponent_username="BOB")
        assert challenge.opponent == bob and challenge.status == "open"
        assert challenge.expires_at > timezone.now() + timedelta(minutes=9)
        game = challenges.challenge_accept(challenge_id=challenge.pk, user=bob)
        assert {game.player0, game.player1} == {alice, bob}
        assert game.rated and not game.same_device and game.status == "waiting"
        challenge.refresh_from_db()
        assert (challenge.status, challenge.game) == ("accepted", game)

    def test_the_challenger_seat_is_random(self, alice, bob):
        seats = set()
        for _ in range(24):
            challenge = challenges.challenge_create(challenger=alice)
            game = challenges.challenge_accept(challenge_id=challenge.pk, user=bob)
            seats.add(game.seats_of(alice.pk)[0])
            Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)  # the next one
        assert seats == {0, 1}

    def test_a_player_in_a_game_starts_no_other_by_challenge(self, alice, bob, carol):
        waiting = challenges.challenge_create(challenger=carol, opponent_username="alice")
        posted = challenges.challenge_create(challenger=alice)
        game = challenges.challenge_accept(
            challenge_id=challenges.challenge_create(challenger=alice).pk, user=bob
        )
        with refused("already_playing"):  # alice, in that game
            challenges.challenge_create(challenger=alice, opponent_username="carol")
        with refused("already_playing"):
            challenges.challenge_accept(challenge_id=waiting.pk, user=alice)
        with refused("challenger_playing"):  # alice's open challenge from before the game
            challenges.challenge_accept(challenge_id=posted.pk, user=carol)
        assert Game.objects.count() == 1
        assert Challenge.objects.get(pk=waiting.pk).status == "open"  # for after the game
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        assert challenges.challenge_accept(challenge_id=waiting.pk, user=alice).pk != game.pk

    def test_refusals(self, alice, bob, carol):
        with refused("challenge_self"):
            challenges.challenge_create(challenger=alice, opponent_username="alice")
        with refused("unknown_user"):
            challenges.challenge_create(challenger=alice, opponent_username="nobody")
        challenge = challenges.challenge_create(challenger=alice, opponent_username="bob")
        with refused("challenge_own"):
            challenges.challenge_accept(challenge_id=challenge.pk, user=alice)
        with refused("challenge_not_yours"):
            challenges.challenge_accept(challenge_id=challenge.pk, user=carol)
        with refused("challenge_not_yours"):
            challenges.challenge_decline(challenge_id=challenge.pk, user=carol)
        with refused("challenge_not_yours"):
            challenges.challenge_cancel(challenge_id=challenge.pk, user=bob)
        with refused("challenge_not_found"):
            challenges.challenge_accept(challenge_id=challenge.pk + 100, user=bob)
        assert not Game.objects.exists()

    def test_open_challenge_accepted_by_a_third_user(self, alice, carol):
        challenge = challenges.challenge_create(challenger=alice, opponent_username="")
        assert challenge.opponent is None
        game = challenges.challenge_accept(challenge_id=challenge.pk, user=carol)
        assert {game.player0, game.player1} == {alice, carol}
        with refused("challenge_not_open"):
            challenges.challenge_accept(challenge_id=challenge.pk, user=carol)

    def test_decline_and_cancel(self, alice, bob):
        first = challenges.challenge_create(challenger=alice, opponent_username="bob")
        assert challenges.challenge_decline(challenge_id=first.pk, user=bob).status == "declined"
        with refused("challenge_not_open"):
            challenges.challenge_accept(challenge_id=first.pk, user=bob)
        second = challenges.challenge_create(challenger=alice, opponent_username="bob")
        assert challenges.challenge_cancel(challenge_id=second.pk, user=alice).status == "cancelled"
        with refused("challenge_not_open"):
            challenges.challenge_accept(challenge_id=second.pk, user=bob)

    def test_expiry(self, alice, bob):
        challenge = challenges.challenge_create(challenger=alice, opponent_username="bob")
        Challenge.objects.filter(pk=challenge.pk).update(expires_at=timezone.now())
        # Past its time but not yet marked: already refused.
        with refused("challenge_expired"):
            challenges.challenge_accept(challenge_id=challenge.pk, user=bob)
        fresh = challenges.challenge_create(challenger=alice)
        assert challenges.challenges_expire() == 1
        challenge.refresh_from_db()
        fresh.refresh_from_db()
        assert (challenge.status, fresh.status) == ("expired", "open")
        with refused("challenge_expired"):
            challenges.challenge_accept(challenge_id=challenge.pk, user=bob)
        assert challenges.challenges_expire() == 0

    def test_open_challenges_are_limited(self, alice):
        for _ in range(challenges.MAX_OPEN_CHALLENGES):
            challenges.challenge_create(challenger=alice)
        with refused("too_many_challenges"):
            challenges.challenge_create(challenger=alice)


@pytest.mark.django_db
class TestPages:
    def test_lobby_needs_login(self, client):
        response = client.get(reverse("lobby"))
        assert response.status_code == 302 and "login" in response["Location"]

    def test_lobby_lists_what_the_user_may_see(self, alice, bob, carol, client_logged_in):
        mine = challenges.challenge_create(challenger=alice)
        to_bob = challenges.challenge_create(challenger=carol, opponent_username="bob")
        private = challenges.challenge_create(challenger=carol, opponent_username="alice")
        response = client_logged_in(bob).get(reverse("lobby"))
        html = response.content.decode()
        assert response.status_code == 200
        assert f'data-challenge-id="{mine.pk}"' in html
        assert f'data-challenge-id="{to_bob.pk}"' in html
        assert f'data-challenge-id="{private.pk}"' not in html  # addressed to someone else
        assert reverse("challenge-decline", kwargs={"challenge_id": to_bob.pk}) in html
        assert "csrfmiddlewaretoken" in html
        # The script is a module and takes its words from the JavaScript catalogue.
        assert 'type="module"' in html and static("jsi18n/en/djangojs.js") in html

    def test_forms_work_without_javascript(self, alice, bob, client_logged_in):
        client = client_logged_in(alice)
        response = client.post(reverse("challenge-create"), {"opponent": "bob"})
        assert response.status_code == 302
        challenge = Challenge.objects.get()
        response = client_logged_in(bob).post(
            reverse("challenge-accept", kwargs={"challenge_id": challenge.pk})
        )
        game = Game.objects.get()
        assert response["Location"] == reverse("game", kwargs={"game_id": game.pk})

    def test_form_errors_are_messages(self, alice, client_logged_in):
        client = client_logged_in(alice)
        response = client.post(reverse("challenge-create"), {"opponent": "alice"}, follow=True)
        assert "You cannot challenge yourself." in response.content.decode()
        assert not Challenge.objects.exists()

    def test_decline_and_cancel_forms(self, alice, bob, client_logged_in):
        challenge = challenges.challenge_create(challenger=alice, opponent_username="bob")
        client_logged_in(bob).post(
            reverse("challenge-decline", kwargs={"challenge_id": challenge.pk})
        )
        challenge.refresh_from_db()
        assert challenge.status == "declined"
        other = challenges.challenge_create(challenger=alice)
        client_logged_in(alice).post(reverse("challenge-cancel", kwargs={"challenge_id": other.pk}))
        other.refresh_from_db()
        assert other.status == "cancelled"

    def test_forms_need_csrf_and_post(self, alice):
        from django.test import Client

        client = Client(enforce_csrf_checks=True)
        client.force_login(alice)
        assert client.post(reverse("challenge-create"), {"opponent": ""}).status_code == 403
        assert client.get(reverse("challenge-create")).status_code == 405

    def test_same_device_game(self, alice, client_logged_in):
        client = client_logged_in(alice)
        page = client.get(reverse("same-device-new"))
        assert page.status_code == 200 and not Game.objects.exists()  # a GET changes nothing
        refused = client.post(reverse("same-device-new"), {"first": "Marta", "second": " marta "})
        assert refused.status_code == 200 and not Game.objects.exists()  # names must differ
        response = client.post(reverse("same-device-new"), {"first": " Marta ", "second": "Luis"})
        game = Game.objects.get()
        assert game.seat_names == ["Marta", "Luis"]
        assert (game.player0, game.player1, game.rated, game.same_device) == (
            alice,
            alice,
            False,
            True,
        )
        assert response["Location"] == reverse("game", kwargs={"game_id": game.pk})

    def test_game_page_shell(self, alice, bob, carol, client_logged_in):
        from tests.games.factories import make_game

        game = make_game(alice, bob)
        html = client_logged_in(carol).get(reverse("game", kwargs={"game_id": game.pk}))
        assert html.status_code == 200
        text = html.content.decode()
        assert f'data-ws-path="/ws/games/{game.pk}/"' in text and 'data-audience="watch"' in text
        missing = client_logged_in(carol).get(reverse("game", kwargs={"game_id": game.pk + 9}))
        assert missing.status_code == 404


@pytest.mark.django_db(transaction=True)
class TestLobbySocket:
    async def test_anonymous_is_told_to_sign_in(self):
        assert await WsClient("/ws/lobby/").close_code() == 4401

    async def test_pushes_changes_and_redirects_both_players(self, alice, bob, carol):
        lobby_a = WsClient("/ws/lobby/?challenges=1", user=alice)
        lobby_b = WsClient("/ws/lobby/?challenges=1", user=bob)
        lobby_c = WsClient("/ws/lobby/?challenges=1", user=carol)
        for lobby in (lobby_a, lobby_b, lobby_c):
            assert (await lobby.connect())[0]
            assert (await lobby.recv()) == {"type": "challenges", "challenges": []}
        challenge = await database_sync_to_async(challenges.challenge_create)(
            challenger=alice, opponent_username="bob"
        )
        pushed = await lobby_b.until(lambda m: m["type"] == "challenges" and m["challenges"])
        entry = pushed["challenges"][0]
        assert entry["id"] == challenge.pk and entry["to_me"] and not entry["mine"]
        assert (entry["challenger"], entry["opponent"]) == ("alice", "bob")
        assert set(entry) == {
            "id",
            "challenger",
            "opponent",
            "created_at",
            "expires_at",
            "mine",
            "to_me",
        }
        mine = await lobby_a.until(lambda m: m["type"] == "challenges" and m["challenges"])
        assert mine["challenges"][0]["mine"]
        # Carol is told something changed, but sees nothing of a challenge not meant for her.
        told = await lobby_c.until(lambda m: m["type"] == "challenges")
        assert told == {"type": "challenges", "challenges": []}
        game = await database_sync_to_async(challenges.challenge_accept)(
            challenge_id=challenge.pk, user=bob
        )
        url = reverse("game", kwargs={"game_id": game.pk})
        for lobby in (lobby_a, lobby_b):
            redirect = await lobby.until(lambda m: m["type"] == "redirect")
            assert redirect == {"type": "redirect", "url": url, "game": game.pk}
        assert all(f["type"] != "redirect" for f in lobby_c.frames)
        await lobby_c.drain()
        assert all(f["type"] != "redirect" for f in lobby_c.frames)
        for lobby in (lobby_a, lobby_b, lobby_c):
            await lobby.send({"type": "ping"})
            assert (await lobby.until(lambda m: m["type"] == "pong"))["server_time"]
            await lobby.send("junk")
            assert (await lobby.until(lambda m: m["type"] == "error"))["code"] == "bad_request"
            await lobby.close()

    async def test_the_challenger_is_told_who_declined(self, alice, bob, carol):
        lobby_a = WsClient("/ws/lobby/?challenges=1", user=alice)
        lobby_c = WsClient("/ws/lobby/?challenges=1", user=carol)
        for lobby in (lobby_a, lobby_c):
            assert (await lobby.connect())[0]
            await lobby.recv()
        challenge = await database_sync_to_async(challenges.challenge_create)(
            challenger=alice, opponent_username="bob"
        )
        await database_sync_to_async(challenges.challenge_decline)(
            challenge_id=challenge.pk, user=bob
        )
        told = await lobby_a.until(lambda m: m["type"] == "declined")
        assert told == {"type": "declined", "by": "bob"}
        await lobby_c.drain()
        assert all(f["type"] != "declined" for f in lobby_c.frames)
        for lobby in (lobby_a, lobby_c):
            await lobby.close()

    async def test_open_challenge_is_pushed_to_everyone_and_expiry_too(self, alice, carol):
        lobby_c = WsClient("/ws/lobby/?challenges=1", user=carol)
        assert (await lobby_c.connect())[0]
        await lobby_c.recv()
        challenge = await database_sync_to_async(challenges.challenge_create)(challenger=alice)
        pushed = await lobby_c.until(lambda m: m["type"] == "challenges" and m["challenges"])
        assert pushed["challenges"][0]["opponent"] is None
        await database_sync_to_async(
            lambda: Challenge.objects.filter(pk=challenge.pk).update(expires_at=timezone.now())
        )()
        assert await database_sync_to_async(challenges.challenges_expire)() == 1
        await lobby_c.until(lambda m: m["type"] == "challenges" and not m["challenges"])
        await lobby_c.close()
