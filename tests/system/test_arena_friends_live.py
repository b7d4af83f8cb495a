"""Two friends alone in an arena, under real processes (a Daphne and a Celery worker with
beat; PostgreSQL and Redis in CI): one presses Start and resigns at once, game after game,
for the other's points. None of those games counts, in the arena or in the ratings; the
one real game between them (three decisions each at least) still scores."""

from __future__ import annotations

import json
import random
import threading
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from games import engine
from games.models import Game
from games.selectors import decisions_by_seat
from ratings.models import RatingEntry
from tests.live import live_platform, wait_for, wait_until
from tests.system.test_arena_live import next_game, session_cookie
from tests.tournaments.test_services import recounted
from tournaments.models import Arena, ArenaGame, ArenaPlayer
from tournaments.services import arena_join

REAL_DECISIONS = 3  # ARENA_MIN_DECISIONS' default: what the real game reaches


class Plan:
    """What each game is: "quick" (a Start and a resignation at once) or the one "real"
    game, decided by whichever friend sees the game first, once real games are wanted."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.modes: dict[int, str] = {}
        self.want_real = threading.Event()
        self.decisions: dict[tuple[int, int], int] = {}  # (game, user) -> decisions acked

    def mode(self, game_id: int) -> str:
        with self.lock:
            if game_id not in self.modes:
                real_taken = "real" in self.modes.values()
                wanted = self.want_real.is_set() and not real_taken
                self.modes[game_id] = "real" if wanted else "quick"
            return self.modes[game_id]

    def decided(self, game_id: int, user_id: int) -> None:
        with self.lock:
            self.decisions[game_id, user_id] = self.decisions.get((game_id, user_id), 0) + 1

    def both_decided(self, game_id: int, each: int) -> bool:
        with self.lock:
            made = [n for (game, _user), n in self.decisions.items() if game == game_id]
            return len(made) == 2 and min(made) >= each


def play(url: str, headers: dict[str, str], game_id: int, me: int, booster: bool, plan: Plan):
    rng = random.Random(game_id * 2 + booster)
    mode = plan.mode(game_id)
    sent: dict[str, str] = {}
    with connect(f"{url}/ws/games/{game_id}/", additional_headers=headers, open_timeout=10) as ws:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            frame = json.loads(ws.recv(timeout=30))
            if frame["type"] == "ack" and sent.get(frame["id"]) in engine.DECISIONS:
                plan.decided(game_id, me)
            if frame["type"] != "state":
                continue
            view = frame["game"]
            if view["status"] not in ("waiting", "playing"):
                return
            choices = engine.choices(view["legal"] or [])
            resign = (
                booster
                and "resign" not in sent.values()
                and (
                    (mode == "quick" and view["status"] == "playing")
                    or (mode == "real" and plan.both_decided(game_id, REAL_DECISIONS))
                )
            )
            if resign:
                action = {"do": "resign"}
            elif choices and (mode == "real" or choices[0]["do"] == "start"):
                action = rng.choice(choices)
            else:
                continue
            request_id = f"{game_id}-{me}-{len(sent)}"
            sent[request_id] = action["do"]
            ws.send(json.dumps({"type": "action", "id": request_id, "action": action}))
        raise AssertionError(f"game {game_id} did not end")


def friend(
    origin: str,
    url: str,
    cookie: str,
    me: int,
    booster: bool,
    plan: Plan,
    stop: threading.Event,
    played: list[int],
) -> None:
    headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}", "Origin": origin}
    while not stop.is_set():
        try:
            with connect(f"{url}/ws/lobby/", additional_headers=headers, open_timeout=10) as ws:
                while not stop.is_set():
                    try:
                        frame = json.loads(ws.recv(timeout=0.5))
                    except TimeoutError:
                        continue
                    game_id = next_game(frame)
                    if game_id is not None and game_id not in played:
                        played.append(game_id)
                        play(url, headers, game_id, me, booster, plan)
        except (ConnectionClosed, OSError):
            time.sleep(0.5)


@pytest.mark.live
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_friend_resigning_at_once_gives_nothing_and_a_real_game_still_scores(user_factory):
    winner, booster = user_factory("winner"), user_factory("booster")
    # Paired every wave, as two friends alone in an arena were before any limit on meeting
    # again: the run limit has tests of its own (tests/tournaments).
    env = {"ARENA_LAST_PAIRING_SECONDS": "15", "ARENA_SAME_OPPONENT_MAX_RUN": "1000"}
    plan = Plan()
    stop = threading.Event()
    with live_platform(web=1, worker=True, beat=True, env=env) as platform:
        arena = Arena.objects.create(
            name="Friends", starts_at=timezone.now() + timedelta(seconds=3), minutes=1, rated=True
        )
        for user in (winner, booster):
            arena_join(user=user, arena_id=arena.pk)
        threads = [
            threading.Thread(
                target=friend,
                args=(
                    platform.url(),
                    platform.ws_url(),
                    session_cookie(user),
                    user.pk,
                    user == booster,
                    plan,
                    stop,
                    [],
                ),
                daemon=True,
            )
            for user in (winner, booster)
        ]
        for thread in threads:
            thread.start()
        try:
            ended = ArenaGame.objects.filter(arena=arena, ended_at__isnull=False)
            assert wait_for(lambda: ended.count() >= 4, 35), platform.logs()[-6000:]
            plan.want_real.set()
            finished = Arena.objects.filter(pk=arena.pk, status=Arena.Status.FINISHED)
            assert wait_for(finished.exists, 120), platform.logs()[-6000:]
            wait_until(
                lambda: (
                    not Game.objects.filter(
                        arena_game__arena=arena, status__in=Game.ACTIVE_STATUSES
                    ).exists()
                    and not ArenaGame.objects.filter(arena=arena, ended_at__isnull=True).exists()
                ),
                timeout=150,
                message="games still running long after the end",
            )
        finally:
            stop.set()
            for thread in threads:
                thread.join(10)
            logs = platform.logs()

    assert "Unrecoverable error" not in logs, logs[-6000:]
    games = list(ArenaGame.objects.filter(arena=arena).select_related("game"))
    real = [g for g in games if min(decisions_by_seat(g.game_id)) >= REAL_DECISIONS]
    quick = [g for g in games if g not in real]
    assert len(real) == 1, [decisions_by_seat(g.game_id) for g in games]
    assert len(quick) >= 4
    assert all(g.outcome0 == g.outcome1 == ArenaGame.Outcome.SHORT for g in quick)
    [counted] = real
    assert counted.game.winner_seat == counted.game.seats_of(winner.pk)[0]
    stored = {e.user_id: e for e in ArenaPlayer.objects.filter(arena=arena)}
    assert (stored[winner.pk].score, stored[winner.pk].wins) == (2, 1)
    assert stored[winner.pk].short == len(quick)
    assert (stored[booster.pk].score, stored[booster.pk].losses) == (0, 1)
    assert recounted(arena) == {user_id: entry.score for user_id, entry in stored.items()}
    # Rated arena: only the real game moved the ratings.
    rated = set(
        RatingEntry.objects.filter(game__arena_game__arena=arena).values_list("game_id", flat=True)
    )
    assert rated == {counted.game_id}
