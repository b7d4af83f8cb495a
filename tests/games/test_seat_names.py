"""Same-device seat names cannot copy another account's username (nor look like one)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("copy", ["bob", "BOB", "b\u043eb", "b0b"])  # the third has a Cyrillic o
def test_a_seat_name_copying_an_account_is_refused(alice: Any, bob: Any, copy: str) -> None:
    with pytest.raises(ValueError) as refused:
        services.same_device_game_create(user=alice, names=("Marta", copy))
    assert refused.value.args == ("account", copy)
    assert not Game.objects.exists()


def test_the_creator_may_name_a_seat_after_themselves(alice: Any, bob: Any) -> None:
    game = services.same_device_game_create(user=alice, names=("alice", "Marta"))
    assert game.seat_names == ["alice", "Marta"]


def test_names_unlike_any_account_are_welcome(alice: Any, bob: Any) -> None:
    game = services.same_device_game_create(user=alice, names=("Bob Marley", "Luis"))
    assert game.seat_names == ["Bob Marley", "Luis"]


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "“bob” looks like another player&#x27;s username"),
        ("es", "«bob» se parece al nombre de usuario de otro jugador"),
    ],
)
def test_the_form_says_so_in_both_languages(
    alice: Any, bob: Any, client_logged_in: Any, language: str, says: str
) -> None:
    client = client_logged_in(alice)
    client.cookies["django_language"] = language
    response = client.post(reverse("same-device-new"), {"first": "Marta", "second": "bob"})
    assert response.status_code == 200
    assert says in response.content.decode()
    assert not Game.objects.exists()
