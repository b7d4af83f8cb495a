"""Playing the computer: its accounts, games against it, its moves through the game service,
the keeper's nudge, the unrated result, the profile, and the replay's suggestions.

The computer's moves are driven here by running the requests the game writer scheduled on
commit (captured where they would go to the broker), through the real service; the live
tests (test_live_computer.py) run them in a real worker.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import bots, engine, services
from games.clock import timebase
from games.computer import accounts as computer
from games.computer import moves as computer_play
from games.computer import suggestions, wakeups
from games.live.audiences import SEAT_0
from games.live.broadcast import players_meta, state_message
from games.models import Bot, Game, GameAction
from games.replay.log import game_initial_state, replay_change
from games.signals import game_finished
from ratings.models import RatingEntry
from ratings.selectors import game_is_ratable
from tests.conftest import clear_cache
from tests.games.factories import choose as policy
from tests.games.factories import hidden_tiles, seeded_deals
from tests.pages.test_jsi18n import shipped_catalogue

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(db: None) -> Any:
    # No password: hashing one costs more than most of these tests (logins are forced).
    return get_user_model().objects.create(username="alice")


@pytest.fixture
def bob(db: None) -> Any:
    return get_user_model().objects.create(username="bob")


@pytest.fixture(autouse=True)
def quick_computer(settings: Any) -> None:
    # No human-like pause and a tiny budget: these tests are about the plumbing.
    settings.COMPUTER_PAUSE_SECONDS = 0.0
    settings.COMPUTER_THINK_SECONDS = 0.01
    settings.COMPUTER_SUGGEST_SECONDS = 0.02
    clear_cache()


@pytest.fixture
def requests_sent(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The computer's move requests, as they would have gone to the broker."""
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(wakeups, "_send", lambda **kwargs: sent.append(kwargs))
    return sent


@pytest.fixture
def committing(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """committing(fn, **kwargs): call fn and run what it left for on-commit (broadcasts and
    the computer's move requests), as a real commit would."""

    def run(fn: Callable[..., Any], **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return fn(**kwargs)

    return run


def bot_game(
    committing: Callable[..., Any], user: Any, strength: str, *, seat: int = 0, **options: Any
) -> Game:
    return committing(
        computer_play.computer_game_create, user=user, strength=strength, seat=seat, **options
    )


def start_as_of(game: Game, user: Any, request_id: str, *, version: int) -> services.ActionResult:
    """`user`'s start, sent straight to the service as decided on `version` of the game."""
    return services.game_submit_action(
        game_id=game.pk,
        user=user,
        action={"do": "start"},
        request_id=request_id,
        expected_version=version,
    )


def run_requests(committing: Callable[..., Any], sent: list[dict[str, Any]]) -> int:
    """Run every pending request like a worker would; returns how many ran."""
    ran = 0
    while sent:
        request = sent.pop(0)
        committing(computer_play.computer_move, **request)
        ran += 1
    return ran


def play_out(
    committing: Callable[..., Any],
    sent: list[dict[str, Any]],
    game: Game,
    human: Any,
    until: Callable[[Game], bool] = lambda game: not game.is_active,
) -> Game:
    """The human plays the tests' policy; the computer answers its scheduled requests."""
    human_seat = game.seats_of(human.pk)[0]
    for _ in range(3000):
        run_requests(committing, sent)
        game.refresh_from_db()
        if until(game):
            return game
        legal = engine.legal_actions(engine.from_json(game.state), human_seat)
        action = policy([a for a in legal if a["do"] != "resign"])
        assert action is not None or sent, "nobody can act"
        if action is not None:
            result = committing(
                services.game_submit_action,
                game_id=game.pk,
                user=human,
                action=action,
                request_id=None,
            )
            assert result.ok, (action, result)
    raise AssertionError("the game did not end")


# --- accounts ---------------------------------------------------------------------------


def test_strengths_are_the_bots_strengths():
    assert list(Bot.Strength.values) == list(bots.STRENGTHS)


def test_bot_account_is_made_once_per_strength_and_cannot_log_in(client: Client):
    first = computer.bot_account(strength="hard")
    assert computer.bot_account(strength="hard") == first
    assert computer.bot_account(strength="easy") != first
    assert Bot.objects.count() == 2
    assert not first.is_active and not first.has_usable_password()
    assert str(first.bot) == "Computer (hard)"
    # Not even a password set by an admin lets anyone in: the account is inactive.
    first.set_password("felt-green-spinner-42")
    first.save()
    response = client.post(
        reverse("login"),
        {"username": first.get_username(), "password": "felt-green-spinner-42"},
    )
    assert response.status_code == 200 and "_auth_user_id" not in client.session


def test_bot_account_refuses_an_unknown_strength():
    with pytest.raises(ValueError):
        computer.bot_account(strength="grandmaster")
    assert not Bot.objects.exists()


def test_bot_names_are_translated():
    from django.utils import translation

    bot = computer.bot_account(strength="medium")
    with translation.override("es"):
        assert str(bot.bot) == "Ordenador (medio)"


def test_the_pages_name_the_computer_in_spanish(alice, client_logged_in, requests_sent):
    client = client_logged_in(alice)
    client.cookies["django_language"] = "es"
    home = client.get(reverse("home")).content.decode()
    assert "Jugar contra el ordenador" in home and "Difícil" in home
    # The game page's script names the computer from the JavaScript catalogue.
    assert "Ordenador (difícil)" in shipped_catalogue("es").values()


def test_the_admin_lists_the_computer_players(admin_client: Client):
    computer.bot_account(strength="easy")
    response = admin_client.get(reverse("admin:games_bot_changelist"))
    assert response.status_code == 200
    assert "Computer (easy)" in response.content.decode()


# --- games against the computer -----------------------------------------------------------


def test_a_game_against_the_computer_starts_at_once_unrated(alice, committing, requests_sent):
    game = bot_game(committing, alice, "hard", seat=1)
    assert (game.player1, game.rated, game.same_device) == (alice, False, False)
    assert game.bots() == {0: "hard"}
    # The player's Start is pressed for them; the computer is asked to press its own.
    assert game.actions.get().action == {"do": "start"}
    assert requests_sent == [
        {
            "game_id": game.pk,
            "version": game.version,
            "since": pytest.approx(game.bot_since.timestamp(), abs=1e-3),
        }
    ]
    committing(computer_play.computer_move, **requests_sent.pop(0))
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    start = game.actions.order_by("seq").last()
    assert (start.seat, start.action, start.request_id) == (0, {"do": "start"}, "computer-1")


def test_the_players_seat_is_drawn_when_not_chosen(alice, committing, requests_sent):
    seats = set()
    for _ in range(16):  # one game at a time: each is resigned before the next
        game = committing(computer_play.computer_game_create, user=alice, strength="easy")
        seats.add(game.seats_of(alice.pk)[0])
        resign = {"do": "resign"}
        services.game_submit_action(game_id=game.pk, user=alice, action=resign, request_id="r")
    assert seats == {0, 1}


def test_nothing_is_asked_while_the_human_decides(alice, committing, requests_sent):
    game = bot_game(committing, alice, "easy", seat=0, deals=seeded_deals(2))
    for _ in range(20):
        run_requests(committing, requests_sent)
        game.refresh_from_db()
        if engine.view(engine.from_json(game.state), 0, 0.0)["to_act"] == 0:
            break
    else:
        raise AssertionError("the human never got a decision")
    assert requests_sent == [] and game.bot_since is None


def test_a_request_run_twice_moves_once(alice, committing, requests_sent):
    game = bot_game(committing, alice, "medium", seat=1)
    request = dict(requests_sent[0])
    first = committing(computer_play.computer_move, **request)
    second = committing(computer_play.computer_move, **request)
    assert first.ok and second is None  # the game moved on: a stale request does nothing
    assert game.actions.filter(user__bot__isnull=False).count() == 1
    # Had it raced the first one to the service, the request id would have answered.
    again = start_as_of(game, game.player0, "computer-1", version=1)
    assert again.ok and again.duplicate


def test_a_stale_request_changes_nothing(alice, committing, requests_sent):
    game = bot_game(committing, alice, "easy", seat=0)
    stale = {**requests_sent[0], "version": requests_sent[0]["version"] - 1}
    assert committing(computer_play.computer_move, **stale) is None
    assert game.actions.count() == 1


def test_the_service_refuses_an_action_decided_on_an_older_version(
    alice, committing, requests_sent
):
    game = bot_game(committing, alice, "easy", seat=0)
    result = start_as_of(game, game.player1, "late", version=0)
    assert (result.ok, result.code) == (False, "stale")
    assert game.actions.count() == 1  # not even logged


def test_a_failing_bot_still_moves_and_is_logged(
    alice, committing, requests_sent, monkeypatch, caplog
):
    game = bot_game(committing, alice, "hard", seat=0, deals=seeded_deals(3), balances=(30, 30))

    def broken(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise RuntimeError("bot bug")

    monkeypatch.setattr(computer_play, "choose", broken)
    computer_decisions = GameAction.objects.filter(
        game=game, user=game.player1, action__do__in=list(engine.DECISIONS)
    )
    with caplog.at_level(logging.ERROR, logger="games.computer.moves"):
        game = play_out(
            committing, requests_sent, game, alice, until=lambda g: computer_decisions.count() >= 4
        )
    assert "the hard computer failed" in caplog.text
    assert not computer_decisions.exclude(error="").exists()


def test_an_illegal_answer_is_refused_then_a_legal_move_follows(
    alice, committing, requests_sent, monkeypatch, caplog
):
    game = bot_game(committing, alice, "easy", seat=0, deals=seeded_deals(5))
    monkeypatch.setattr(computer_play, "choose", lambda *a, **k: {"do": "bid", "amount": 3})
    run_requests(committing, requests_sent)  # the computer's Start needs no bot
    for _ in range(50):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if engine.view(state, 1, timebase.server_now())["to_act"] == 1:
            break
        action = policy(engine.legal_actions(state, 0))
        committing(
            services.game_submit_action, game_id=game.pk, user=alice, action=action, request_id=None
        )
    version = game.version
    with caplog.at_level(logging.ERROR, logger="games.computer.moves"):
        run_requests(committing, requests_sent)
    assert "was refused" in caplog.text
    rows = list(game.actions.filter(user=game.player1, seq__gt=0).order_by("seq"))
    refused = [r for r in rows if r.error]
    assert refused and refused[-1].request_id == f"computer-{version}"
    assert rows[-1].error == "" and rows[-1].request_id == f"computer-{version}-fallback"


def test_the_keeper_asks_again_for_a_silent_computer(alice, committing, requests_sent, settings):
    game = bot_game(committing, alice, "easy", seat=0)
    requests_sent.clear()  # the request got lost
    now = timebase.server_now()
    assert wakeups.computer_nudge_overdue(now=now) == 0  # not late yet
    silent_since = now - settings.COMPUTER_NUDGE_SECONDS - 0.5
    Game.objects.filter(pk=game.pk).update(bot_since=timebase.to_datetime(silent_since))
    assert wakeups.computer_nudge_overdue(now=now) == 1
    assert requests_sent == [{"game_id": game.pk, "version": game.version, "since": now}]
    assert wakeups.computer_nudge_overdue(now=now + 0.5) == 0  # once per interval
    run_requests(committing, requests_sent)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING


def test_the_broadcast_names_the_computer_by_strength(alice, committing, requests_sent):
    game = bot_game(committing, alice, "hard", seat=0)
    game = Game.objects.get(pk=game.pk)
    meta = players_meta(game)
    assert [m["bot"] for m in meta] == [None, "hard"]


# --- pages --------------------------------------------------------------------------------


def test_play_the_computer_page_and_start(alice, bob, client_logged_in, requests_sent):
    # alice's rating is shown beside her name, as in any game; the computer has none.
    rated = services.game_create(player0=alice, player1=bob)
    Game.objects.filter(pk=rated.pk).update(status=Game.Status.FINISHED)
    RatingEntry.objects.create(
        player=alice, game=rated, reason="game", rating_before=1500, rating_after=1520, delta=20
    )
    client = client_logged_in(alice)
    page = client.get(reverse("computer-new"))
    assert page.status_code == 200 and 'value="hard"' in page.content.decode()
    assert f'href="{reverse("how-to-play")}#practice"' in page.content.decode()
    response = client.post(reverse("computer-new"), {"strength": "medium"})
    game = Game.objects.exclude(pk=rated.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert set(game.bots().values()) == {"medium"} and not game.rated
    seat = game.seats_of(alice.pk)[0]
    assert game.players_snapshot[seat]["rating"] == 1520
    shown = client.get(response["Location"]).content.decode()
    assert "Computer (medium)" in shown


def test_one_game_against_the_computer_at_a_time(alice, client_logged_in, requests_sent):
    client = client_logged_in(alice)
    first = client.post(reverse("computer-new"), {"strength": "easy"})
    again = client.post(reverse("computer-new"), {"strength": "hard"})
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert Game.objects.count() == 1
    game = Game.objects.get()
    services.game_submit_action(
        game_id=game.pk, user=alice, action={"do": "resign"}, request_id="r"
    )
    third = client.post(reverse("computer-new"), {"strength": "hard"})
    assert third["Location"] != first["Location"] and Game.objects.count() == 2


def test_a_player_in_a_game_against_a_person_is_sent_to_it(alice, bob, client_logged_in):
    game = services.game_create(player0=alice, player1=bob)
    response = client_logged_in(alice).post(reverse("computer-new"), {"strength": "easy"})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert Game.objects.count() == 1


def test_a_computer_is_always_shown_connected(alice, committing, requests_sent):
    game = bot_game(committing, alice, "easy", seat=0)
    message = state_message(Game.objects.get(pk=game.pk), SEAT_0)
    assert message["game"]["connected"] == [False, True]


@pytest.mark.parametrize("strength", ["", "grandmaster", "HARD"])
def test_play_the_computer_refuses_a_bad_strength(alice, client_logged_in, strength):
    response = client_logged_in(alice).post(reverse("computer-new"), {"strength": strength})
    assert response.status_code == 400
    assert "Choose how strongly the computer plays." in response.content.decode()
    assert not Game.objects.exists()


def test_play_the_computer_needs_an_account(client: Client):
    response = client.post(reverse("computer-new"), {"strength": "easy"})
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not Game.objects.exists()


@pytest.mark.parametrize("page", ["home", "lobby"])
def test_home_and_lobby_offer_the_computer(alice, client_logged_in, page):
    html = client_logged_in(alice).get(reverse(page)).content.decode()
    assert f'action="{reverse("computer-new")}"' in html
    for strength in bots.STRENGTHS:
        assert f'value="{strength}"' in html


def test_the_profile_lists_computer_games_apart(
    alice, bob, committing, requests_sent, client_logged_in
):
    against_bob = services.game_create(player0=alice, player1=bob)
    resign = {"do": "resign"}
    services.game_submit_action(game_id=against_bob.pk, user=bob, action=resign, request_id="r")
    bot = bot_game(committing, alice, "hard", seat=0)
    html = client_logged_in(bob).get(reverse("profile", args=["alice"])).content.decode()
    games, computer_part = html.split("Games against the computer")
    assert f'data-game="{against_bob.pk}"' in games and f'data-game="{bot.pk}"' not in games
    assert f'data-game="{bot.pk}"' in computer_part and "Computer (hard)" in computer_part


# --- replay suggestions --------------------------------------------------------------------


@pytest.fixture
def finished_bot_game(alice, committing, requests_sent) -> Iterator[Game]:
    game = bot_game(committing, alice, "easy", seat=0, deals=seeded_deals(7), balances=(20, 20))
    yield play_out(committing, requests_sent, game, alice)


def decision_steps(game: Game) -> list[tuple[int, Any]]:
    rows = list(game.actions.filter(error="").order_by("seq"))
    return [
        (index, row)
        for index, row in enumerate(rows, start=1)
        if row.seat is not None and row.action["do"] in engine.DECISIONS
    ]


def test_a_suggestion_is_a_legal_move_from_that_players_view(
    finished_bot_game, bob, client_logged_in, monkeypatch
):
    game = finished_bot_game
    client = client_logged_in(bob)  # anyone signed in: the game is over
    index, row = decision_steps(game)[1]
    seen: list[dict[str, Any]] = []
    real = suggestions.choose

    def spy(view: Any, strength: str, **kwargs: Any) -> dict[str, Any]:
        seen.append(view)
        return real(view, strength, **kwargs)

    monkeypatch.setattr(suggestions, "choose", spy)
    url = reverse("game-replay-suggestion", args=[game.pk, index])
    response = client.get(url)
    # 200: the engine accepted the suggestion on that table (an illegal one answers 400).
    assert response.status_code == 200
    body = response.json()
    assert (body["index"], body["seat"], body["played"]) == (index, row.seat, row.action)
    # The bot saw exactly what that seat saw then: the engine's view for that seat.
    (view,) = seen
    state = game_initial_state(game)
    for earlier in list(game.actions.filter(error="").order_by("seq"))[: index - 1]:
        state, _ = replay_change(state, earlier)
    assert view == engine.view(state, row.seat, row.t)
    assert body["suggestion"]["do"] in {a["do"] for a in view["legal"]}
    assert isinstance(body["same"], bool) and body["suggestion_text"]
    # Cached: asked again, the bot is not asked again.
    assert client.get(url).json() == body and len(seen) == 1


def test_suggestions_only_for_a_finished_games_decisions(
    finished_bot_game, alice, bob, client_logged_in
):
    game = finished_bot_game
    client = client_logged_in(alice)
    first_decision = decision_steps(game)[0][0]
    start_step = 1  # the player's Start
    for index in (0, start_step, 10_000):
        response = client.get(reverse("game-replay-suggestion", args=[game.pk, index]))
        assert response.status_code == 400 and response.json()["error"] == "not_a_decision"
    assert first_decision > start_step
    playing = services.game_create(player0=alice, player1=bob)
    response = client.get(reverse("game-replay-suggestion", args=[playing.pk, 1]))
    assert response.status_code == 400 and response.json()["error"] == "not_finished"
    response = client.get(reverse("game-replay-suggestion", args=[10**9, 1]))
    assert response.status_code == 404 and response.json()["error"] == "not_found"


def test_the_replay_shows_the_computers_name(finished_bot_game, client: Client):
    html = client.get(reverse("game-replay", args=[finished_bot_game.pk])).content.decode()
    assert "Computer (easy)" in html and "computer:easy" not in html


def test_bot_since_is_cleared_when_the_game_ends(alice, committing, requests_sent):
    game = bot_game(committing, alice, "easy", seat=0)
    committing(
        services.game_submit_action,
        game_id=game.pk,
        user=alice,
        action={"do": "resign"},
        request_id="r",
    )
    game.refresh_from_db()
    assert not game.is_active and game.bot_since is None
    assert wakeups.computer_nudge_overdue(now=timebase.server_now() + 3600) == 0


def test_the_replay_offers_the_suggestion_at_decisions_only(
    finished_bot_game, alice, client_logged_in, client: Client
):
    game = finished_bot_game
    anonymous = client
    client = client_logged_in(alice)
    index, _row = decision_steps(game)[0]
    url = reverse("game-replay-suggestion", args=[game.pk, index])
    page = client.get(reverse("game-replay", args=[game.pk]), {"step": index})
    html = page.content.decode()
    # One control, which the page's script shows at the steps marked as decisions; its
    # address has 0 where the script puts the step's number.
    template = reverse("game-replay-suggestion", args=[game.pk, 0])
    assert f'data-url="{template}"' in html and "replay_suggest.js" in html
    marked = [n for n, step in enumerate(page.context["replay"].steps) if step["decision"]]
    assert marked == [n for n, _row in decision_steps(game)]
    # Signed out: no control, and the endpoint says why.
    signed_out = anonymous.get(reverse("game-replay", args=[game.pk]), {"step": index})
    assert signed_out.status_code == 200
    assert "data-computer-suggestion" not in signed_out.content.decode()
    response = anonymous.get(url)
    assert response.status_code == 403 and response.json()["error"] == "login_required"


def test_new_suggestions_are_limited_per_player_cached_ones_are_not(
    finished_bot_game, alice, bob, client_logged_in, settings, monkeypatch
):
    settings.COMPUTER_SUGGESTIONS_PER_MINUTE = 2
    # One window for the whole test, whenever it runs.
    monkeypatch.setattr(suggestions, "SUGGESTION_WINDOW_SECONDS", 10**9)
    game = finished_bot_game
    steps = [index for index, _row in decision_steps(game)][:3]
    urls = [reverse("game-replay-suggestion", args=[game.pk, index]) for index in steps]
    client = client_logged_in(alice)
    assert [client.get(url).status_code for url in urls] == [200, 200, 429]
    assert client.get(urls[0]).status_code == 200  # cached: free
    assert client_logged_in(bob).get(urls[2]).status_code == 200  # bob's own budget


def test_a_finished_game_against_the_computer_moves_no_rating(finished_bot_game):
    game = finished_bot_game
    assert game.status == Game.Status.FINISHED and game.winner_seat in (0, 1)
    assert not RatingEntry.objects.exists() and not game_is_ratable(game)
    # Even a game wrongly flagged rated is skipped: the ratings app ignores the computer.
    game.rated = True
    assert not game_is_ratable(game)
    game_finished.send(sender=Game, game=game)
    assert not RatingEntry.objects.exists()


def test_a_suggestion_is_said_as_a_sentence_in_both_languages():
    from django.utils import translation

    from games.computer.suggestions import action_text, suggestion_sentence

    play = {"do": "play", "tile": "6-4", "end": "left"}
    with translation.override("en"):
        assert action_text(play) == "played [6|4] on the left"
        assert suggestion_sentence(play) == "The computer would have played [6|4] on the left."
        assert suggestion_sentence({"do": "bid", "amount": 20}) == "The computer would have bid 20."
    with translation.override("es"):
        assert suggestion_sentence(play) == "El ordenador habría jugado [6|4] a la izquierda."
        assert suggestion_sentence({"do": "draw"}) == "El ordenador habría robado una ficha."
        assert action_text({"do": "accept"}) == "aceptó"


# --- practice games -------------------------------------------------------------------------


def test_a_practice_game_is_asked_for_unrated_and_its_page_loads_the_hints(
    alice, client_logged_in, requests_sent
):
    client = client_logged_in(alice)
    response = client.post(reverse("computer-new"), {"strength": "easy", "practice": "1"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.practice and not game.rated and set(game.bots().values()) == {"easy"}
    html = client.get(response["Location"]).content.decode()
    assert 'id="practice-hint"' in html and ">Practice</strong>" in html
    assert html.count("games/practice.js") == 2  # preloaded and run
    assert "games/practice.css" in html
    # "Play the computer again" at the end keeps it a practice game.
    again = html[html.index('id="computer-again-form"') :]
    assert '<input type="hidden" name="practice" value="1">' in again[: again.index("</form>")]


@pytest.mark.parametrize("practice", ["", "0", "yes"])
def test_a_game_against_the_computer_is_no_practice_unless_asked(
    alice, client_logged_in, requests_sent, practice
):
    client = client_logged_in(alice)
    response = client.post(reverse("computer-new"), {"strength": "easy", "practice": practice})
    assert not Game.objects.get().practice
    html = client.get(response["Location"]).content.decode()
    # Every other game's page pays nothing for the hints (the page weight budget).
    assert "practice" not in html


def test_a_practice_hint_reads_only_the_players_own_view(alice, committing, requests_sent):
    """What the hint words (the view's legal, play_preview and auction) names the player's
    own tiles only: never one of the opponent's hand or of the boneyard."""
    game = bot_game(committing, alice, "easy", seat=0, practice=True, deals=seeded_deals(3))
    decisions: list[str] = []

    def check(game: Game) -> bool:
        view = state_message(game, SEAT_0)["game"]
        if view["to_act"] == 0 and view["phase"] in ("play", "lead", "auction"):
            named = {a["tile"] for a in view["legal"] if "tile" in a}
            named |= {key.split(":")[0] for key in view["play_preview"] or {}}
            assert named <= set(view["hand"]), (named, view["hand"])
            assert not named & hidden_tiles(game.state, 0)
            decisions.append(view["phase"])
        return not game.is_active

    play_out(committing, requests_sent, game, alice, until=check)
    assert game.practice and len(decisions) >= 5, decisions
