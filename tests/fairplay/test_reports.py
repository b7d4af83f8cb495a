"""Reports: who may report whom, from a profile, a game (seat or spectator) and a replay; the
form's validation; the per-reporter limits, also under 32 parallel posts; both languages."""

from __future__ import annotations

import time
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models.signals import pre_save
from django.test import Client
from django.urls import reverse

from fairplay.errors import FairPlayError
from fairplay.models import REPORT_TEXT_MAX, Report, Status
from fairplay.services import report_create
from games.computer.moves import computer_game_create
from games.services import same_device_game_create
from tests.games.factories import make_game
from tests.threads import at_once


@pytest.fixture
def slow_insert() -> Any:
    """Each report's insert waits 20 ms inside its transaction: a count-then-create without
    the reporter's lock lets every racing request through that window."""

    def wait(**kwargs: Any) -> None:
        time.sleep(0.02)

    pre_save.connect(wait, sender=Report, dispatch_uid="slow_insert")
    yield
    pre_save.disconnect(sender=Report, dispatch_uid="slow_insert")


pytestmark = pytest.mark.django_db

URL = "/fair-play/report/"


def post(client: Client, **form: Any) -> Any:
    return client.post(reverse("fairplay-report"), {"reason": "abuse", "text": "", **form})


def test_the_address_is_stable() -> None:
    assert reverse("fairplay-report") == URL


def test_a_player_reports_another_from_the_profile(alice, bob, client_logged_in):
    client = client_logged_in(alice)
    profile = client.get(reverse("profile", kwargs={"username": "bob"})).content.decode()
    assert f'href="{URL}?player=bob"' in profile
    page = client.get(URL, {"player": "bob"})
    assert page.status_code == 200 and "Report a player" in page.content.decode()
    sent = post(client, player="bob", reason="name", text="  A rude name.  ")
    assert sent.status_code == 302 and sent["Location"].startswith("/fair-play/report/sent/")
    report = Report.objects.get()
    assert (report.reporter, report.player, report.game, report.reason, report.text) == (
        alice,
        bob,
        None,
        "name",
        "A rude name.",
    )
    assert report.status == Status.OPEN
    confirmation = client.get(sent["Location"]).content.decode()
    assert "your report about bob has reached the moderators" in confirmation
    assert 'href="/accounts/bob/"' in confirmation  # back to the profile


def test_the_confirmation_is_in_spanish(alice, bob, client_logged_in):
    client = client_logged_in(alice)
    client.cookies["django_language"] = "es"
    sent = post(client, player="bob")
    html = client.get(sent["Location"]).content.decode()
    assert "tu denuncia sobre bob ha llegado a los moderadores" in html
    assert '<html lang="es">' in html


def test_no_report_link_on_ones_own_profile_nor_for_visitors(alice, client_logged_in):
    own = client_logged_in(alice).get(reverse("profile", kwargs={"username": "alice"}))
    assert "data-report-link" not in own.content.decode()
    visitor = Client().get(reverse("profile", kwargs={"username": "alice"}))
    assert "data-report-link" not in visitor.content.decode()
    assert Client().get(URL, {"player": "alice"}).status_code == 302  # to the log-in page


def test_a_seat_reports_the_opponent_and_a_spectator_either_player(
    alice, bob, carol, client_logged_in
):
    game = make_game(alice, bob)
    seat = client_logged_in(alice)
    page = seat.get(URL, {"game": game.pk}).content.decode()
    assert 'value="bob"' in page and 'value="alice"' not in page
    assert post(seat, game=game.pk, player="bob", reason="abuse").status_code == 302
    # A seat cannot name itself through a forged form.
    assert post(seat, game=game.pk, player="alice").status_code == 400
    spectator = client_logged_in(carol)
    page = spectator.get(URL, {"game": game.pk}).content.decode()
    assert 'value="alice"' in page and 'value="bob"' in page
    assert post(spectator, game=game.pk, player="alice", reason="boosting").status_code == 302
    assert post(spectator, game=game.pk, player="bob", reason="boosting").status_code == 302
    assert Report.objects.filter(game=game).count() == 3


def test_the_game_and_replay_pages_link_to_the_report(alice, bob, client_logged_in):
    game = make_game(alice, bob)
    client = client_logged_in(alice)
    link = f'href="{URL}?game={game.pk}"'
    assert link in client.get(reverse("game", kwargs={"game_id": game.pk})).content.decode()
    replay = client.get(reverse("game-replay", kwargs={"game_id": game.pk})).content.decode()
    assert link in replay


def test_computer_and_same_device_games_cannot_be_reported(alice, bob, client_logged_in):
    client = client_logged_in(alice)
    computer = computer_game_create(user=alice, strength="easy")
    page = client.get(URL, {"game": computer.pk})
    assert page.status_code == 400 and "cannot be reported" in page.content.decode()
    assert (
        "data-report-link"
        not in client.get(reverse("game", kwargs={"game_id": computer.pk})).content.decode()
    )
    shared = same_device_game_create(user=bob, names=("Ana", "Luis"))
    with pytest.raises(FairPlayError) as refused:
        report_create(reporter=alice, username="bob", reason="abuse", game_id=shared.pk)
    assert refused.value.code == "report_not_reportable"
    assert not Report.objects.exists()


@pytest.mark.parametrize(
    ("form", "status"),
    [
        ({"player": "bob", "reason": "cheating"}, 400),  # not a reason
        ({"player": "bob", "reason": ""}, 400),
        ({"player": "bob", "text": "x" * (REPORT_TEXT_MAX + 1)}, 400),
        ({"player": "bob", "text": "a\x00b"}, 400),
        ({"player": "alice"}, 400),  # oneself
        ({"player": "nobody"}, 404),
        ({"player": "a\x00b"}, 400),
        ({"game": "12x"}, 404),
        ({"game": "999999"}, 404),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(alice, bob, client_logged_in, form, status):
    assert post(client_logged_in(alice), **form).status_code == status
    assert not Report.objects.exists()


def test_the_service_says_who_may_report_whom(alice, bob, carol):
    game = make_game(alice, bob)
    cases = [
        ({"username": "alice"}, "report_self"),
        ({"username": "ghost"}, "report_unknown_player"),
        ({"username": "carol", "game_id": game.pk}, "report_not_in_game"),
        ({"username": "bob", "reason": "spam"}, "bad_request"),
    ]
    for kwargs, code in cases:
        with pytest.raises(FairPlayError) as refused:
            report_create(reporter=alice, **{"reason": "abuse", **kwargs})
        assert refused.value.code == code
    get_user_model().objects.filter(pk=carol.pk).update(is_active=False)
    with pytest.raises(FairPlayError):
        report_create(reporter=alice, username="carol", reason="abuse")
    assert not Report.objects.exists()


def test_not_twice_for_one_game_nor_twice_open_from_a_profile(alice, bob):
    game = make_game(alice, bob)
    report_create(reporter=alice, username="bob", reason="abuse", game_id=game.pk)
    with pytest.raises(FairPlayError) as refused:
        report_create(reporter=alice, username="bob", reason="boosting", game_id=game.pk)
    assert refused.value.code == "report_duplicate"
    first = report_create(reporter=alice, username="bob", reason="name")
    with pytest.raises(FairPlayError):
        report_create(reporter=alice, username="bob", reason="name")
    # Once the moderators have handled it, a new one may come.
    Report.objects.filter(pk=first.pk).update(status=Status.HANDLED)
    report_create(reporter=alice, username="bob", reason="name")
    assert Report.objects.count() == 3


def test_a_day_allows_a_set_number_of_reports(alice, user_factory, client_logged_in, settings):
    settings.FAIRPLAY_REPORTS_PER_DAY = 3
    for n in range(4):
        user_factory(f"target{n}")
    client = client_logged_in(alice)
    for n in range(3):
        assert post(client, player=f"target{n}").status_code == 302
    refused = post(client, player="target3")
    assert refused.status_code == 429
    assert "as many reports as a day allows" in refused.content.decode()
    assert Report.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_32_parallel_reports_keep_the_daily_limit(alice, user_factory, settings, slow_insert):
    settings.FAIRPLAY_REPORTS_PER_DAY = 5
    for n in range(32):
        user_factory(f"target{n}")

    def send(n: int) -> str:
        try:
            report_create(reporter=alice, username=f"target{n}", reason="abuse")
        except FairPlayError as error:
            return error.code
        return "ok"

    results = at_once(*(partial(send, n) for n in range(32)))
    assert results.count("ok") == 5
    assert results.count("report_limit") == 27
    assert Report.objects.filter(reporter=alice).count() == 5


@pytest.mark.django_db(transaction=True)
def test_32_parallel_reports_of_one_game_make_one(alice, bob, slow_insert):
    game = make_game(alice, bob)

    def send() -> str:
        try:
            report_create(reporter=alice, username="bob", reason="abuse", game_id=game.pk)
        except FairPlayError as error:
            return error.code
        return "ok"

    results = at_once(*([send] * 32))
    assert results.count("ok") == 1
    assert results.count("report_duplicate") == 31
    assert Report.objects.count() == 1
