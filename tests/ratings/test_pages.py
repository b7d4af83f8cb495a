"""Pages: profile (rating, chart, games), leaderboard, admin lists."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.clock.faults import fault_record
from games.models import Game
from lobby.models import QueueEntry
from ratings.chart import rating_chart
from ratings.selectors import rating_state
from tests.games.factories import make_game

pytestmark = pytest.mark.django_db


def test_chart_scales_the_history_into_the_box():
    chart = rating_chart([1520, 1498, 1530])
    assert [p.rating for p in chart.points] == [1500, 1520, 1498, 1530]
    ys = [p.y for p in chart.points]
    assert max(ys) <= chart.height and min(ys) >= 0
    assert ys[3] == min(ys) and ys[2] == max(ys)  # higher rating, higher on the screen
    assert chart.polyline.count(",") == 4
    flat = rating_chart([1500])
    assert flat.top - flat.bottom == 100  # a flat history still has a scale


def test_profile_shows_rating_chart_results_and_games(players, play_game, client_logged_in):
    alice, bob, carol = players[:3]
    won = play_game(alice, bob, winner=0)
    lost = play_game(alice, carol, winner=1)
    page = client_logged_in(bob).get(f"/accounts/{alice.username}/").content.decode()
    rating = rating_state(user_id=alice.pk).rating  # +20, then -21 against carol (1500)
    assert rating == 1499
    assert f'class="rating-value" data-rating="{rating}"' in page
    assert f"{rating}?" in page  # provisional
    assert "<svg" in page and "<polyline" in page
    assert page.count('class="game-row') == 2
    assert f'href="/games/{won.pk}/"' in page and f'href="/games/{won.pk}/replay/"' in page
    assert f'href="/accounts/{carol.username}/"' in page
    assert "+20" in page and "Won" in page and "Lost" in page
    assert lost.pk


def test_profile_rating_numbers_come_from_the_ledger(players, play_game, client_logged_in):
    alice, bob = players[:2]
    play_game(alice, bob, winner=0)
    page = Client().get(f"/accounts/{bob.username}/").content.decode()
    assert "1480?" in page and "-20" in page


def test_profile_of_a_new_player_has_no_empty_section(players):
    page = Client().get(f"/accounts/{players[0].username}/").content.decode()
    assert "profile-ratings" not in page and "profile-games" not in page


def test_profile_tells_why_a_game_was_cancelled(players, play_game):
    alice, bob = players[:2]
    game = play_game(alice, bob, winner=0)
    fault_record(kind="admin", start=timezone.now() - timedelta(minutes=5), end=timezone.now())
    page = Client().get(f"/accounts/{alice.username}/").content.decode()
    row = re.search(rf'data-game="{game.pk}">.*?</tr>', page, re.S).group(0)
    assert "Cancelled" in row and "R7.10" in row and "reversed" in row
    assert "Fault window" in row
    assert "1500" in page  # back to the initial rating


def test_profile_in_spanish(players, play_game):
    alice, bob = players[:2]
    play_game(alice, bob, winner=0)
    client = Client(headers={"accept-language": "es"})
    page = client.get(f"/accounts/{alice.username}/").content.decode()
    assert "Partidas" in page and "Ganada" in page
    # Numbers for the browser are never localised: "44,0" is no SVG coordinate (issue 12).
    svg = re.search(r"<svg.*?</svg>", page, re.S)
    assert svg is not None
    numbers = re.findall(r'\b(?:x|y|x1|x2|y1|y2|cx|cy|width|height)="([^"]*)"', svg.group(0))
    assert numbers and all(re.fullmatch(r"-?\d+(\.\d+)?(%)?", n) for n in numbers), numbers
    for pair in re.search(r'points="([^"]*)"', svg.group(0)).group(1).split():
        assert re.fullmatch(r"\d+(\.\d+)?,\d+(\.\d+)?", pair), pair
    assert re.search(r'data-rating="\d+"', page)


def test_leaderboard(players, play_game):
    alice, bob = players[:2]
    play_game(alice, bob, winner=0)
    page = Client().get("/leaderboard/").content.decode()
    assert "1520?" in page and "1480?" in page
    assert page.index("alice") < page.index("bob")
    assert "carol" not in page  # not rated
    assert 'href="/leaderboard/"' in page  # the nav link appears now that the page exists


def test_admin_lists(players, play_game, user_factory):
    alice, bob, carol = players[:3]
    game = play_game(alice, bob, winner=0)
    QueueEntry.objects.create(user=carol, rating=1500, joined_at=timezone.now(),
                              seen_at=timezone.now())  # fmt: skip
    fault_record(kind="admin", start=timezone.now() - timedelta(minutes=1), end=timezone.now())
    admin = user_factory("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    for url in (
        "/admin/ratings/ratingentry/",
        "/admin/ratings/ratingentry/?reason__exact=fault_reversal",
        "/admin/games/servicefault/",
        "/admin/games/servicefault/add/",
        "/admin/lobby/queueentry/",
        "/admin/games/game/",
        f"/admin/games/game/{game.pk}/change/",
        "/admin/games/game/?status__exact=cancelled",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
    ledger = client.get("/admin/ratings/ratingentry/").content.decode()
    assert "alice" in ledger and "Add rating" not in ledger  # read-only
    assert Game.objects.get(pk=game.pk).status == Game.Status.CANCELLED


def test_a_games_rating_change_for_the_game_over_card(players, play_game, client_logged_in):
    alice, bob, carol = players[:3]
    game = play_game(alice, bob, winner=0)
    client = client_logged_in(carol)  # ratings are public: a spectator's card shows them too
    seats = client.get(f"/ratings/games/{game.pk}/").json()["seats"]
    assert [s["delta"] for s in seats] == [20, -20]
    assert [(s["before"], s["after"]) for s in seats] == [(1500, 1520), (1500, 1480)]
    waiting = Game.objects.create(
        player0=alice, player1=bob, state=game.state, players_snapshot=game.players_snapshot
    )
    assert client.get(f"/ratings/games/{waiting.pk}/").json() == {"seats": None}
    assert client.get("/ratings/games/987654/").json() == {"seats": None}
    assert Client().get(f"/ratings/games/{game.pk}/").status_code == 302  # signed in only
    # A service fault voids the game and reverses its ratings: the card shows no change.
    fault_record(kind="admin", start=timezone.now() - timedelta(minutes=5), end=timezone.now())
    assert client.get(f"/ratings/games/{game.pk}/").json() == {"seats": None}


def test_profile_offers_no_replay_of_a_game_that_never_started(players, play_game, client):
    alice, bob = players[:2]
    won = play_game(alice, bob, winner=0)
    never = make_game(alice, bob)
    Game.objects.filter(pk=never.pk).update(status=Game.Status.ABORTED, started_at=None)
    page = client.get(f"/accounts/{alice.username}/").content.decode()
    assert f'href="/games/{won.pk}/replay/"' in page
    assert f'href="/games/{never.pk}/"' in page and f"/games/{never.pk}/replay/" not in page


def test_the_chart_names_its_dates_and_its_scale_as_text(players, play_game):
    alice, bob = players[:2]
    play_game(alice, bob, winner=0)
    play_game(alice, bob, winner=1)
    page = Client(headers={"accept-language": "en"}).get(f"/accounts/{alice.username}/")
    html = page.content.decode()
    # The scale and the dates are text beside the drawing (readable on a phone), not in it.
    svg = re.search(r"<svg.*?</svg>", html, re.S)
    assert svg is not None and "<text" not in svg.group(0)
    scale = (
        r'class="rating-chart__scale"><span>\d+</span>'
        r'<span class="rating-chart__axis">Rating</span><span>\d+</span>'
    )
    assert re.search(scale, html)
    figure = re.search(r'<figure class="rating-chart">.*?</figure>', html, re.S)
    assert figure is not None
    dates = re.findall(r'<time datetime="(\d{4}-\d\d-\d\d)T', figure.group(0))
    assert len(dates) == 2 and dates[0] <= dates[1], dates
    chart = rating_chart([1520, 1510], dates=[timezone.now(), timezone.now()])
    assert chart.points[0].date is None and chart.points[-1].date == chart.last_date
