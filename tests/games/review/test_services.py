"""Reviews stored and run: by themselves when a game ends, on request within a limit, in
parts, never before the game is over (games.review.services)."""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import close_old_connections, connection
from django.urls import reverse

from games.errors import ServiceError
from games.models import Game, GameReview, GameReviewPart, ReviewRequests
from games.review import services
from games.review.version import review_version
from tests.games.factories import drive, make_game, seeded_deals

TASKS: dict[str, Callable[..., None]] = {
    services.TASK_START: lambda **kw: services.review_start(**kw) and None,
    services.TASK_PLAN: services.review_plan,
    services.TASK_PART: services.review_part,
}


@pytest.fixture(autouse=True)
def quick_review(settings: Any) -> None:
    settings.REVIEW_SAMPLES = 4
    settings.REVIEW_PART_SIZE = 7


@pytest.fixture
def queue(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """The review tasks, as they would have gone to the review queue."""
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(services, "_send", lambda name, **kwargs: sent.append((name, kwargs)))
    return sent


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What the game's sockets were told of the review."""
    messages: list[dict[str, Any]] = []
    monkeypatch.setattr(
        services, "review_push", lambda review: messages.append(services.review_message(review))
    )
    return messages


@pytest.fixture
def work(
    queue: list[tuple[str, dict[str, Any]]], django_capture_on_commit_callbacks: Any
) -> Callable[[], int]:
    """Run every queued review task as a worker would, until none is left."""

    def run() -> int:
        ran = 0
        while queue:
            name, kwargs = queue.pop(0)
            with django_capture_on_commit_callbacks(execute=True):
                TASKS[name](**kwargs)
            ran += 1
        return ran

    return run


def page_data(content: bytes) -> dict[str, Any]:
    """The review's JSON in a review page."""
    data: dict[str, Any] = json.loads(
        content.split(b'id="review-data" type="application/json">')[1].split(b"</script>")[0]
    )
    return data


def finished_game(alice: Any, bob: Any, django_capture_on_commit_callbacks: Any) -> Game:
    game = make_game(alice, bob, deals=seeded_deals(21), balances=(25, 25))
    with django_capture_on_commit_callbacks(execute=True):
        return drive(
            game.pk,
            (alice, bob),
            lambda view: view["status"] != "playing" and view["status"] != "waiting",
        )


@pytest.fixture
def reviewed_game(
    alice: Any, bob: Any, pushed: Any, work: Any, django_capture_on_commit_callbacks: Any
) -> Game:
    """alice and bob's finished game, its review done as the review queue's worker does."""
    game = finished_game(alice, bob, django_capture_on_commit_callbacks)
    work()
    return game


@pytest.mark.django_db(transaction=False)
def test_a_rated_game_is_reviewed_by_itself_when_it_ends_in_parts(
    alice: Any,
    bob: Any,
    queue: Any,
    pushed: Any,
    work: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = finished_game(alice, bob, django_capture_on_commit_callbacks)
    assert game.status == Game.Status.FINISHED
    assert [name for name, _ in queue] == [services.TASK_START]
    assert not GameReview.objects.exists()  # nothing in the game's own transaction
    work()
    review = GameReview.objects.get(game=game)
    assert review.version == review_version()
    assert review.status == GameReview.Status.DONE
    assert review.seats == [0, 1]
    assert review.total > 0 and review.done == review.total
    assert review.parts_total == math.ceil(review.total / 7) == review.parts.count()
    assert review.parts_done == review.parts_total
    decisions = review.result["decisions"]
    assert len(decisions) == review.total
    assert [d["step"] for d in decisions] == sorted(d["step"] for d in decisions)
    assert [p["seat"] for p in review.result["players"]] == [0, 1]
    assert review.accuracy0 == review.result["players"][0]["accuracy"]
    # Progress was pushed as parts finished, then the review's end, with its link.
    assert pushed[-1]["status"] == "done" and pushed[-1]["done"] == review.total
    dones = [m["done"] for m in pushed]
    assert dones == sorted(dones)
    assert pushed[-1]["url"] == reverse("game-review", args=[game.pk])


@pytest.mark.django_db
def test_a_part_delivered_twice_is_counted_once(reviewed_game: Game) -> None:
    game = reviewed_game
    review = GameReview.objects.get(game=game)
    part = GameReviewPart.objects.filter(review=review).first()
    assert part is not None
    services.review_part(part_id=part.pk)
    review.refresh_from_db()
    assert review.done == review.total and review.parts_done == review.parts_total


@pytest.mark.django_db
def test_no_review_before_the_game_ends(
    alice: Any, bob: Any, queue: Any, client_logged_in: Any
) -> None:
    game = make_game(alice, bob, deals=seeded_deals(3))
    for call in (
        lambda: services.review_start(game_id=game.pk),
        lambda: services.review_request(game_id=game.pk, user_id=alice.pk),
    ):
        with pytest.raises(ServiceError) as error:
            call()
        assert error.value.code == "not_finished"
    assert not GameReview.objects.exists() and not queue
    page = client_logged_in(alice).get(reverse("game-review", args=[game.pk]))
    assert page.status_code == 200
    assert b"review-data" not in page.content
    assert not ReviewRequests.objects.filter(count__gt=0).exists()


@pytest.mark.django_db
def test_requests_are_limited_per_player_and_a_reviewed_game_costs_none(
    alice: Any,
    bob: Any,
    carol: Any,
    queue: Any,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.REVIEW_REQUESTS_PER_DAY = 1
    first = finished_game(alice, bob, django_capture_on_commit_callbacks)
    second = finished_game(alice, bob, django_capture_on_commit_callbacks)
    queue.clear()  # the automatic reviews never ran
    services.review_request(game_id=first.pk, user_id=carol.pk)
    again = services.review_request(game_id=first.pk, user_id=carol.pk)  # exists: free
    assert again.game_id == first.pk
    with pytest.raises(ServiceError) as error:
        services.review_request(game_id=second.pk, user_id=carol.pk)
    assert error.value.code == "review_limit"
    assert GameReview.objects.filter(game=second).count() == 0
    assert ReviewRequests.objects.get(user=carol).count == 1
    # Another player has a limit of their own.
    services.review_request(game_id=second.pk, user_id=bob.pk)
    assert GameReview.objects.filter(game=second).count() == 1


@pytest.mark.django_db
def test_a_review_of_another_version_is_made_again(reviewed_game: Game) -> None:
    game = reviewed_game
    GameReview.objects.filter(game=game).update(version="old")
    assert services.review_current(game_id=game.pk) is None
    services.review_start(game_id=game.pk)
    assert services.review_start(game_id=game.pk).pk == services.review_current(game_id=game.pk).pk  # type: ignore[union-attr]
    assert GameReview.objects.filter(game=game).count() == 2


@pytest.mark.django_db
def test_the_review_page_shows_the_graph_data_and_the_players_mistakes_to_anyone(
    alice: Any,
    bob: Any,
    queue: Any,
    pushed: Any,
    work: Any,
    client: Any,
    client_logged_in: Any,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # Everything a mistake: every decision that is not the best shows in "learn".
    settings.REVIEW_INACCURACY, settings.REVIEW_MISTAKE, settings.REVIEW_BLUNDER = 1e-6, 2e-6, 0.5
    game = finished_game(alice, bob, django_capture_on_commit_callbacks)
    anonymous = client.get(reverse("game-review", args=[game.pk]))
    assert b"review-data" not in anonymous.content  # still queued
    work()
    anonymous = client.get(reverse("game-review", args=[game.pk]))
    data = page_data(anonymous.content)
    assert data["learn"] == []  # a spectator has no mistakes of their own
    assert len(data["curve"]) == sum(1 for d in data["decisions"])
    page = client_logged_in(alice).get(reverse("game-review", args=[game.pk]))
    mine = page_data(page.content)
    assert mine["learn"], "no decision of alice lost anything"
    for step in mine["learn"]:
        d = next(d for d in mine["decisions"] if d["step"] == step)
        assert d["seat"] == 0 and d["grade"] in ("mistake", "blunder")
        assert d["seen"]["seat"] == 0 and d["seen"]["hand"]
        assert "sentence" in d


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "1 inaccuracy · 0 mistakes · 2 blunders"),
        ("es", "1 imprecisión · 0 errores · 2 errores graves"),
    ],
)
def test_the_review_page_counts_each_grade_in_its_own_singular_or_plural(
    reviewed_game: Game, client: Any, lang: str, said: str
) -> None:
    game = reviewed_game
    review = GameReview.objects.get(game=game)
    for player in review.result["players"]:
        player["grades"] = {"good": 3, "inaccuracy": 1, "mistake": 0, "blunder": 2}
    review.save(update_fields=["result"])
    client.cookies["django_language"] = lang
    page = client.get(reverse("game-review", args=[game.pk])).content.decode()
    assert page.count(said) == len(review.result["players"])


@pytest.mark.django_db
def test_the_review_filter_offers_only_the_reviewed_players_mistakes(
    reviewed_game: Game, client: Any
) -> None:
    game = reviewed_game
    url = reverse("game-review", args=[game.pk])
    page = client.get(url).content.decode()
    assert ('<option value="0">alice' in page, '<option value="1">bob' in page) == (True, True)
    # As against the computer, whose decisions are not reviewed: its seat has no option.
    review = GameReview.objects.get(game=game)
    review.result["players"] = [p for p in review.result["players"] if p["seat"] == 0]
    review.save(update_fields=["result"])
    page = client.get(url).content.decode()
    assert ('<option value="0">alice' in page, '<option value="1">' in page) == (True, False)


@pytest.mark.django_db
def test_the_graph_shows_the_readers_own_chance_else_the_one_reviewed_players(
    reviewed_game: Game, alice: Any, bob: Any, client: Any, client_logged_in: Any
) -> None:
    game = reviewed_game
    url = reverse("game-review", args=[game.pk])

    def seen_by(reader: Any) -> tuple[int, str]:
        page = (client_logged_in(reader) if reader else client).get(url).content
        caption = page.decode().split('<figcaption class="muted">')[1].split("</figcaption>")[0]
        return page_data(page)["perspective"], caption

    assert seen_by(bob) == (1, "bob's chance to win after each decision")
    assert seen_by(alice) == (0, "alice's chance to win after each decision")
    assert seen_by(None)[0] == 0
    # As against the computer: a spectator sees the one reviewed player's chance.
    review = GameReview.objects.get(game=game)
    review.result["players"] = [p for p in review.result["players"] if p["seat"] == 1]
    review.save(update_fields=["result"])
    assert seen_by(None) == (1, "bob's chance to win after each decision")


@pytest.mark.django_db
def test_the_profile_charts_the_accuracy_of_the_last_reviewed_games(
    alice: Any,
    bob: Any,
    queue: Any,
    pushed: Any,
    work: Any,
    client: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    url = reverse("profile", kwargs={"username": alice.get_username()})
    finished_game(alice, bob, django_capture_on_commit_callbacks)
    work()
    assert b"accuracy-title" not in client.get(url).content  # one game: no line to draw
    finished_game(bob, alice, django_capture_on_commit_callbacks)
    work()
    page = client.get(url).content.decode()
    assert 'id="accuracy-title"' in page
    page = page.split('id="accuracy-title"')[1].split("</section>")[0]
    assert page.count('class="rating-chart__point"') == 2
    reviews = GameReview.objects.order_by("finished_at")
    expected = [reviews[0].accuracy0, reviews[1].accuracy1]  # alice's seat in each
    for accuracy in expected:
        assert f"<title>{accuracy} ·" in page


@pytest.mark.django_db
def test_a_part_that_fails_stops_the_review_and_asking_again_starts_it_anew(
    alice: Any,
    bob: Any,
    queue: Any,
    pushed: Any,
    work: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from games.review import tasks

    game = finished_game(alice, bob, django_capture_on_commit_callbacks)
    real = services.evaluate_steps

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a worker's bad day")

    monkeypatch.setattr(services, "evaluate_steps", broken)
    TASKS[services.TASK_PART] = lambda **kw: tasks.review_part.run(**kw)
    try:
        work()
    finally:
        TASKS[services.TASK_PART] = services.review_part
    review = GameReview.objects.get(game=game)
    assert review.status == GameReview.Status.FAILED
    assert pushed[-1]["status"] == "failed"
    monkeypatch.setattr(services, "evaluate_steps", real)
    with django_capture_on_commit_callbacks(execute=True):
        again = services.review_request(game_id=game.pk, user_id=alice.pk)
    assert again.pk == review.pk and again.status == GameReview.Status.RUNNING
    work()
    review.refresh_from_db()
    assert review.status == GameReview.Status.DONE and review.done == review.total


@pytest.mark.django_db
def test_reviews_are_listed_in_the_admin(
    alice: Any,
    bob: Any,
    queue: Any,
    pushed: Any,
    work: Any,
    admin_client: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = finished_game(alice, bob, django_capture_on_commit_callbacks)
    work()
    review = GameReview.objects.get(game=game)
    listing = admin_client.get(reverse("admin:games_gamereview_changelist"))
    assert listing.status_code == 200 and review.version.encode() in listing.content
    detail = admin_client.get(reverse("admin:games_gamereview_change", args=[review.pk]))
    assert detail.status_code == 200


def test_a_process_values_one_part_at_a_time_and_sends_the_others_back() -> None:
    from celery.exceptions import Retry

    from games.review import tasks

    assert tasks._SLOT.acquire(blocking=False)  # a part being valued on another thread
    try:
        with pytest.raises(Retry):
            tasks.review_part.run(part_id=123)
    finally:
        tasks._SLOT.release()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers")
def test_requests_racing_each_other_never_pass_the_limit(
    alice: Any, bob: Any, carol: Any, queue: Any, settings: Any
) -> None:
    settings.REVIEW_REQUESTS_PER_DAY = 2
    games = []
    for _ in range(5):
        game = make_game(alice, bob, deals=seeded_deals(21), balances=(25, 25))
        games.append(drive(game.pk, (alice, bob), lambda v: v["status"] == "finished"))
    queue.clear()
    start = threading.Barrier(len(games))
    outcomes: list[str] = []

    def ask(game_id: int) -> None:
        try:
            start.wait()
            services.review_request(game_id=game_id, user_id=carol.pk)
            outcomes.append("ok")
        except ServiceError as error:
            outcomes.append(error.code)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=ask, args=(g.pk,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok", "ok", "review_limit", "review_limit", "review_limit"]
    assert GameReview.objects.filter(requested_by=carol).count() == 2
    assert ReviewRequests.objects.get(user=carol).count == 2


def test_the_accuracy_charts_points_are_drawn_whole_inside_the_chart() -> None:
    from games.review.selectors import accuracy_chart

    history = [{"accuracy": a, "game": g, "at": None} for g, a in enumerate((100.0, 0.0, 57.4))]
    chart = accuracy_chart(history)
    assert chart is not None
    radius = 3  # the circles' r in games/_profile_accuracy.html
    for point in chart["points"]:
        assert radius <= point["x"] <= chart["width"] - radius, point
        assert radius <= point["y"] <= chart["height"] - radius, point
    ys = [point["y"] for point in chart["points"]]
    assert ys[0] < ys[2] < ys[1]  # higher accuracy drawn higher


@pytest.mark.parametrize(
    ("lang", "choices", "played", "by"),
    [
        ("en", ["renounce", "bid 20", "play [6|4] on the left"], "bid 20", "by 12.5 points"),
        ("es", ["renunciar", "pujar 20", "jugar [6|4] a la izquierda"], "pujó 20", "por 12,5"),
    ],
)
def test_learning_offers_each_option_as_a_choice_to_make_not_a_past_move(
    lang: str, choices: list[str], played: str, by: str
) -> None:
    from django.utils import translation

    from games.review.page import explain

    actions = [
        {"do": "renounce"},
        {"do": "bid", "amount": 20},
        {"do": "play", "tile": "6-4", "end": "left"},
    ]
    decision = {
        "seat": 0,
        "chosen": 1,
        "loss": 0.1,
        "points_lost": 12.5,
        "options": [{"action": a, "chance": 0.5, "points": 0.0} for a in actions],
    }
    with translation.override(lang):
        explained = explain(decision, ["ana", "ben"])
    assert [option["choice"] for option in explained["options"]] == choices
    assert explained["played_text"] == played
    assert by in explained["sentence"]  # the decimal mark of the language
