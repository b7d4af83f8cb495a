"""Games against the computer per player and hour (COMPUTER_GAMES_PER_HOUR), in both languages."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games.computer.moves import computer_game_create, computer_games_wait
from games.errors import ServiceError
from games.models import Game

pytestmark = pytest.mark.django_db


def _played(user: Any, count: int) -> list[Game]:
    """`count` games against the computer, each over already (one at a time is the rule)."""
    games = []
    for _ in range(count):
        game = computer_game_create(user=user, strength="easy")
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        games.append(game)
    return games


def test_the_service_refuses_a_game_past_the_limit(alice: Any, settings: Any) -> None:
    settings.COMPUTER_GAMES_PER_HOUR = 3
    _played(alice, 3)
    with pytest.raises(ServiceError) as refused:
        computer_game_create(user=alice, strength="hard")
    assert refused.value.code == "computer_games_limit"
    assert Game.objects.count() == 3


def test_the_hour_slides(alice: Any, bob: Any, settings: Any) -> None:
    settings.COMPUTER_GAMES_PER_HOUR = 2
    first, second = _played(alice, 2)
    Game.objects.filter(pk=second.pk).update(created_at=timezone.now() - timedelta(minutes=20))
    Game.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(minutes=50))
    wait = computer_games_wait(user=alice)
    assert wait is not None and timedelta(minutes=9) < wait <= timedelta(minutes=10)
    assert computer_games_wait(user=bob) is None  # per player
    Game.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(minutes=61))
    assert computer_games_wait(user=alice) is None
    computer_game_create(user=alice, strength="easy")


def test_no_limit_at_zero(alice: Any, settings: Any) -> None:
    settings.COMPUTER_GAMES_PER_HOUR = 0
    _played(alice, 3)
    assert computer_games_wait(user=alice) is None


@pytest.mark.parametrize(
    ("language", "heading", "when"),
    [
        ("en", "Too many games against the computer", "in about 60 minutes"),
        ("es", "Demasiadas partidas contra el ordenador", "dentro de unos 60 minutos"),
    ],
)
def test_the_page_says_so_with_429(
    alice: Any, client_logged_in: Any, settings: Any, language: str, heading: str, when: str
) -> None:
    settings.COMPUTER_GAMES_PER_HOUR = 2
    _played(alice, 2)
    client = client_logged_in(alice)
    client.cookies["django_language"] = language
    response = client.post(reverse("computer-new"), {"strength": "easy"})
    assert response.status_code == 429
    html = response.content.decode()
    assert heading in html and when in html
    assert 3500 < int(response["Retry-After"]) <= 3600
    assert Game.objects.count() == 2
