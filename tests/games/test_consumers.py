"""The game WebSocket: every message a socket can send or receive (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games import engine
from games.models import Game, GameAction
from games.replay.log import game_events
from realtime import consumer as consumers
from tests.conftest import close_stray_connections
from tests.games.factories import (
    SIXES_DEAL,
    SPINNER_DEAL,
    choose,
    drive,
    hidden_tiles,
    make_game,
    seeded_deals,
)
from tests.games.wsclient import WsClient, scrub_public, session_cookie, tiles_in

pytestmark = pytest.mark.django_db(transaction=True)


def path(game: Game) -> str:
    return f"/ws/games/{game.pk}/"


async def connected(game: Game, user: Any) -> WsClient:
    client = WsClient(path(game), user=user)
    ok, _ = await client.connect()
    assert ok
    message = await client.until(lambda m: m["type"] == "state")
    assert message["version"] == (await database_sync_to_async(_version)(game.pk))
    return client


def _version(game_id: int) -> int:
    return Game.objects.get(pk=game_id).version


def _state(game_id: int) -> dict:
    return Game.objects.get(pk=game_id).state


async def started(alice, bob, **options) -> tuple[Game, WsClient, WsClient]:
    game = await database_sync_to_async(make_game)(alice, bob, **options)
    c0, c1 = await connected(game, alice), await connected(game, bob)
    assert (await c0.act({"do": "start"}))["type"] == "ack"
    reply = await c1.act({"do": "start"})
    assert reply["type"] == "ack"
    await c0.until_version(reply["version"])
    await c1.until_version(reply["version"])
    return game, c0, c1


async def test_connect_sends_the_seat_view(alice, bob, carol):
    game = await database_sync_to_async(make_game)(alice, bob)
    c0 = await connected(game, alice)
    view = c0.game
    assert view["id"] == game.pk and view["seat"] == 0 and view["status"] == "waiting"
    assert [p["username"] for p in view["players"]] == ["alice", "bob"]
    assert [p["rating"] for p in view["players"]] == [1500, 1500]
    assert isinstance(view["deadline"], int) and isinstance(view["server_time"], int)
    assert view["deadline"] > view["server_time"] > 1_600_000_000_000  # epoch milliseconds
    assert {"do": "start"} in view["legal"]
    watcher = await connected(game, carol)
    assert watcher.game["seat"] is None and watcher.game["hand"] is None
    assert watcher.game["legal"] == []
    for client in (c0, watcher):
        await client.close()


async def test_anonymous_is_told_to_sign_in(alice, bob):
    game = await database_sync_to_async(make_game)(alice, bob)
    assert await WsClient(path(game)).close_code() == consumers.CLOSE_UNAUTHENTICATED


async def test_foreign_origin_is_forbidden(alice, bob):
    game = await database_sync_to_async(make_game)(alice, bob)
    client = WsClient(path(game), user=alice, origin=b"http://evil.example")
    assert await client.close_code() == consumers.CLOSE_FORBIDDEN


async def test_unknown_game_is_not_found(alice):
    client = WsClient("/ws/games/987654/", user=alice)
    assert await client.close_code() == consumers.CLOSE_NOT_FOUND


async def test_ping_pong(alice, bob):
    game = await database_sync_to_async(make_game)(alice, bob)
    c0 = await connected(game, alice)
    await c0.send({"type": "ping"})
    pong = await c0.until(lambda m: m["type"] == "pong")
    assert isinstance(pong["server_time"], int)
    await c0.close()


@pytest.mark.parametrize(
    "raw",
    [
        "not json",
        "[1, 2]",
        '"text"',
        "{}",
        '{"type": "fly"}',
        '{"type": "action", "action": {"do": "start"}}',  # no id
        '{"type": "action", "id": {"a": 1}, "action": {"do": "start"}}',
        '{"type": "action", "id": "x", "action": "start"}',
        '{"type": "action", "id": "x", "action": {"do": "teleport"}}',
        '{"type": "action", "id": "x", "action": {"do": "play", "tile": 5}}',  # engine's
        json.dumps({"type": "action", "id": "x", "action": {"do": "start"}, "pad": "x" * 5000}),
        # What could not be stored or sent back: no crash (1011), no endless `unavailable`.
        '{"type": "action", "id": 18446744073709551616, "action": {"do": "start"}}',
        '{"type": "action", "id": 9007199254740993, "action": {"do": "start"}}',
        "[" * 2040 + "]" * 2040,
        '{"type": "action", "id": "x", "action": {"do": "bid", "amount": NaN}}',
        '{"type": "action", "id": "x", "action": {"do": "bid", "amount": -Infinity}}',
        '{"type": "action", "id": "a\\u0000b", "action": {"do": "start"}}',
        '{"type": "action", "id": "x", "action": {"do": "start", "w\\u0000": 1}}',
        '{"type": "action", "id": "x", "action": {"do": "start", "w": "\\u0000"}}',
    ],
)
async def test_bad_requests_leave_the_socket_usable(alice, bob, raw):
    game = await database_sync_to_async(make_game)(alice, bob)
    c0 = await connected(game, alice)
    await c0.send(raw)
    error = await c0.until(lambda m: m["type"] == "error")
    assert error["code"] == "bad_request" and error["message"]
    reply = await c0.act({"do": "start"})  # still works
    assert reply["type"] == "ack"
    await c0.close()


async def test_binary_frames_are_bad_requests(alice, bob):
    game = await database_sync_to_async(make_game)(alice, bob)
    c0 = await connected(game, alice)
    await c0.communicator.send_to(bytes_data=b"\x00\x01")
    assert (await c0.until(lambda m: m["type"] == "error"))["code"] == "bad_request"
    await c0.close()


async def test_rate_limit(alice, bob, settings):
    game = await database_sync_to_async(make_game)(alice, bob)
    c0 = await connected(game, alice)
    limit = settings.WS_RATE_LIMIT_CONNECTION
    for _ in range(limit):
        await c0.send({"type": "ping"})
    await c0.send({"type": "ping"})
    error = await c0.until(lambda m: m["type"] == "error")
    assert error["code"] == "rate_limited"
    assert sum(1 for f in c0.frames if f["type"] == "pong") == limit
    await c0.close()


async def test_a_rate_limited_request_is_named_by_its_id(alice, bob, settings):
    settings.WS_RATE_LIMIT_CONNECTION = 3
    game = await database_sync_to_async(make_game)(alice, bob)
    c0 = await connected(game, alice)
    for _ in range(3):
        await c0.send({"type": "ping"})
    reply = await c0.act({"do": "start"}, request_id="start-1")
    assert (reply["type"], reply["code"], reply["id"]) == ("error", "rate_limited", "start-1")
    assert reply["message"]
    # Not applied: nothing was logged for the refused request.
    logged = await database_sync_to_async(
        lambda: GameAction.objects.filter(game=game, request_id="start-1").exists()
    )()
    assert not logged
    await c0.close()


async def test_the_user_budget_holds_across_sockets(alice, bob, settings):
    settings.WS_RATE_LIMIT_USER = 6
    game = await database_sync_to_async(make_game)(alice, bob)
    tabs = [await connected(game, alice) for _ in range(4)]
    for tab in tabs:
        for _ in range(2):
            await tab.send({"type": "ping"})
    answers = [await tab.until(lambda m: m["type"] in ("pong", "error")) for tab in tabs]
    answers += [await tab.until(lambda m: m["type"] in ("pong", "error")) for tab in tabs]
    codes = [a.get("code") for a in answers if a["type"] == "error"]
    assert codes == ["rate_limited"] * 2  # 8 messages, a budget of 6 for the user
    # Another user in the same game has a budget of their own.
    other = await connected(game, bob)
    assert (await other.act({"do": "start"}))["type"] == "ack"
    for client in (*tabs, other):
        await client.close()


async def test_the_game_budget_counts_players_not_spectators(alice, bob, carol, settings):
    settings.WS_RATE_LIMIT_GAME = 3
    game = await database_sync_to_async(make_game)(alice, bob)
    c0, c1 = await connected(game, alice), await connected(game, bob)
    watcher = await connected(game, carol)
    for _ in range(5):  # a spectator's messages do not spend the game's budget
        await watcher.send({"type": "ping"})
    for _ in range(5):
        await watcher.until(lambda m: m["type"] == "pong")
    assert (await c0.act({"do": "start"}))["type"] == "ack"
    for _ in range(2):
        await c1.send({"type": "ping"})
        await c1.until(lambda m: m["type"] == "pong")
    reply = await c1.act({"do": "start"}, request_id="late")
    assert (reply["code"], reply["id"]) == ("rate_limited", "late")
    for client in (c0, c1, watcher):
        await client.close()


async def test_every_engine_error_code_is_reachable(alice, bob, carol):
    game, c0, c1 = await started(alice, bob, deals=[SPINNER_DEAL, *seeded_deals(1)])
    # Seat 0 led 5-5 by rank (R2.2); seat 1 is to act and holds 5-0.
    cases = [
        (c0, {"do": "draw"}, "not_your_turn"),
        (c1, {"do": "draw"}, "cannot_draw"),  # R5.1: holds a playable tile
        (c1, {"do": "play", "tile": "3-3", "end": "left"}, "illegal_tile"),
        (c1, {"do": "play", "tile": "6-6", "end": "left"}, "illegal_tile"),  # not in hand
        (c1, {"do": "play", "tile": "5-0"}, "end_required"),  # fits both main arms
        (c1, {"do": "bid", "amount": 15}, "wrong_phase"),
        (c0, {"do": "start"}, "wrong_phase"),
        (c1, {"do": "play", "tile": 50}, "bad_request"),
    ]
    for client, action, code in cases:
        reply = await client.act(action)
        assert (reply["type"], reply["code"]) == ("error", code), action
        assert reply["message"]
    watcher = await connected(game, carol)
    reply = await watcher.act({"do": "resign"})
    assert reply["code"] == "forbidden"
    # bad_bid: play on (through the service) until an auction, then bid what is not allowed.
    users = (alice, bob)
    await database_sync_to_async(drive)(game.pk, users, lambda v: v["phase"] == "auction")
    state = engine.from_json(await database_sync_to_async(_state)(game.pk))
    rival = engine.view(state, None, 0)["to_act"]
    client = (c0, c1)[rival]
    reply = await client.act({"do": "bid", "amount": 17})
    assert reply["code"] == "bad_bid"
    assert (await client.act({"do": "resign"}))["type"] == "ack"
    reply = await (c0, c1)[1 - rival].act({"do": "resign"})
    assert reply["code"] == "game_over"
    for c in (c0, c1, watcher):
        await c.close()


async def test_a_game_deleted_under_a_connection_answers_not_found(alice, bob):
    game = await database_sync_to_async(make_game)(alice, bob)
    c0 = await connected(game, alice)
    await database_sync_to_async(lambda: Game.objects.filter(pk=game.pk).delete())()
    reply = await c0.act({"do": "start"})
    assert (reply["type"], reply["code"]) == ("error", "not_found")
    await c0.close()


async def test_duplicate_request_id_over_the_socket(alice, bob):
    game, c0, c1 = await started(alice, bob)
    play = {"do": "play", "tile": "5-0", "end": "right"}
    first = await c1.act(play, request_id="dup")
    assert first["type"] == "ack"
    rows = await database_sync_to_async(lambda: GameAction.objects.count())()
    second = await c1.act(play, request_id="dup")
    assert second == first
    assert await database_sync_to_async(lambda: GameAction.objects.count())() == rows
    assert await database_sync_to_async(_version)(game.pk) == first["version"]
    for c in (c0, c1):
        await c.close()


async def test_two_connections_racing_exactly_one_applies(alice, bob):
    """The same player on two tabs sends two conflicting plays at once."""
    game, c0, c1 = await started(alice, bob)
    tab2 = await connected(game, bob)
    replies = await asyncio.gather(
        c1.act({"do": "play", "tile": "5-0", "end": "left"}),
        tab2.act({"do": "play", "tile": "5-0", "end": "right"}),
    )
    assert sorted(r["type"] for r in replies) == ["ack", "error"]
    assert [r["code"] for r in replies if r["type"] == "error"] == ["not_your_turn"]
    plays = await database_sync_to_async(
        lambda: GameAction.objects.filter(error="", action__do="play").count()
    )()
    assert plays == 1
    for c in (c0, c1, tab2):
        await c.close()


async def test_reconnect_mid_turn_changes_nothing(alice, bob):
    """R7.8: leaving and coming back neither stops nor restarts the clock."""
    game, c0, c1 = await started(alice, bob)
    before = c1.game
    await c1.close()
    await asyncio.sleep(0.3)
    again = await connected(game, bob)
    after = again.game
    assert again.state["version"] == c0.state["version"]
    assert after["clock"] == before["clock"] and after["deadline"] == before["deadline"]
    assert after["to_act"] == 1 and after["hand"] == before["hand"]
    assert after["players"][1]["bank"] == pytest.approx(120.0)  # still within the delay
    assert after["server_time"] > before["server_time"]
    reply = await again.act({"do": "play", "tile": "5-0", "end": "right"})
    assert reply["type"] == "ack"
    for c in (c0, again):
        await c.close()


async def test_presence_is_broadcast(alice, bob, carol):
    game = await database_sync_to_async(make_game)(alice, bob)
    c0 = await connected(game, alice)
    assert c0.game["connected"] == [True, False]
    watcher = await connected(game, carol)
    # A spectator arriving is counted, and told to the players and the spectators alike.
    arrived = await c0.until(lambda m: m["type"] == "presence" and m["watching"] == 1)
    assert arrived == {"type": "presence", "connected": [True, False], "watching": 1}
    await watcher.until(lambda m: m["type"] == "presence" and m["watching"] == 1)
    c1 = await connected(game, bob)
    assert c1.game["connected"] == [True, True]
    message = await c0.until(lambda m: m["type"] == "presence" and m["connected"] == [True, True])
    assert message == {"type": "presence", "connected": [True, True], "watching": 1}
    await watcher.until(lambda m: m["type"] == "presence" and m["connected"] == [True, True])
    # A second spectator's socket counts too; each leaving takes one off.
    second = await connected(game, carol)
    await c1.until(lambda m: m["type"] == "presence" and m["watching"] == 2)
    await second.close()
    await c1.until(lambda m: m["type"] == "presence" and m["watching"] == 1)
    await c1.close()
    await c0.until(lambda m: m["type"] == "presence" and m["connected"] == [True, False])
    await watcher.close()
    left = await c0.until(lambda m: m["type"] == "presence" and m["watching"] == 0)
    assert left["connected"] == [True, False]
    await c0.close()


async def test_tick_settles_a_due_flag_and_resyncs_otherwise(alice, bob, monkeypatch):
    from games.clock import timebase

    clock = {"offset": 0.0}
    real = timebase.server_now
    monkeypatch.setattr(timebase, "server_now", lambda: real() + clock["offset"])
    _game, c0, c1 = await started(alice, bob, banks=(1, 1))
    version = c0.state["version"]
    await c0.send({"type": "tick"})  # nothing due: this client alone gets the state again
    resync = await c0.until(lambda m: m["type"] == "state")
    assert resync["version"] == version
    clock["offset"] = 12.0  # seat 1's 10 s delay and 1 s bank are spent
    await c0.send({"type": "tick"})
    for client in (c0, c1):
        final = await client.until(lambda m: m["type"] == "state" and m["version"] > version)
        assert final["game"]["status"] == "finished" and final["game"]["reason"] == "time"
        assert [e["type"] for e in final["events"]] == ["flag", "game_over"]
    for c in (c0, c1):
        await c.close()


async def _play_to_the_end(game: Game, c0: WsClient, c1: WsClient, watcher: WsClient) -> dict:
    """Both clients play from the `legal` list they receive; returns state JSON per version."""
    states = {c0.state["version"]: await database_sync_to_async(_state)(game.pk)}
    for _ in range(1000):
        if c0.game["status"] not in ("waiting", "playing"):
            break
        for client in (c0, c1):
            action = choose(client.game["legal"])
            if action is not None:
                break
        reply = await client.act(action)
        assert reply["type"] == "ack", (action, reply)
        for other in (c0, c1, watcher):
            await other.until_version(reply["version"])
        states[reply["version"]] = await database_sync_to_async(_state)(game.pk)
    return states


def assert_no_hidden_tile(client: WsClient, seat: int | None, states: dict) -> int:
    """Every state frame this client got names no tile hidden from it at that version."""
    checked = 0
    for frame in client.frames:
        if frame["type"] != "state" or frame["version"] not in states:
            assert not tiles_in(frame) or frame["type"] == "state", frame
            continue
        hidden = hidden_tiles(states[frame["version"]], seat)
        leaked = tiles_in(scrub_public(frame)) & hidden
        assert not leaked, (seat, frame["version"], sorted(leaked))
        checked += 1
    return checked


async def test_a_whole_game_played_by_two_clients(alice, bob, carol):
    """Real plays, draws, dominoes, auctions and Continues until a balance runs out (R1.5)."""
    game = await database_sync_to_async(make_game)(
        alice, bob, deals=seeded_deals(1), balances=(30, 30)
    )
    c0, c1 = await connected(game, alice), await connected(game, bob)
    watcher = await connected(game, carol)
    states = await _play_to_the_end(game, c0, c1, watcher)
    final = c0.game
    assert (final["status"], final["reason"]) == ("finished", "points")
    assert final["players"][1 - final["winner"]]["balance"] == 0
    assert c1.game["winner"] == watcher.game["winner"] == final["winner"]
    kinds = {
        e["type"] for c in (c0,) for f in c.frames if f["type"] == "state" for e in f["events"]
    }
    assert {"deal", "play", "draw", "score", "domino", "round_over", "game_over"} <= kinds
    assert kinds & {"bid", "renounce"}
    assert final["round"] >= 2
    # Nobody ever saw a tile hidden from them, at any version (R2.4).
    assert assert_no_hidden_tile(c0, 0, states) > 20
    assert assert_no_hidden_tile(c1, 1, states) > 20
    assert assert_no_hidden_tile(watcher, None, states) > 20
    for c in (c0, c1, watcher):
        await c.close()


async def test_drawn_tiles_stay_secret(alice, bob, carol):
    """Seat 1 draws all 14 tiles (R5.2): neither seat 0 nor a spectator learns one."""
    game = await database_sync_to_async(make_game)(alice, bob, deals=[SIXES_DEAL])
    c0, c1 = await connected(game, alice), await connected(game, bob)
    watcher = await connected(game, carol)
    states = {0: await database_sync_to_async(_state)(game.pk)}
    for client, action in (
        [(c0, {"do": "start"}), (c1, {"do": "start"})]
        + [(c1, {"do": "draw"})] * 14
        + [(c0, {"do": "play", "tile": "6-5", "end": "right"})]
    ):
        reply = await client.act(action)
        assert reply["type"] == "ack", (action, reply)
        for other in (c0, c1, watcher):
            await other.until_version(reply["version"])
        states[reply["version"]] = await database_sync_to_async(_state)(game.pk)
    assert len(c1.game["hand"]) == 21
    assert c0.game["players"][1]["hand_count"] == 21 and c0.game["boneyard_left"] == 0
    draws = [
        e for f in c0.frames if f["type"] == "state" for e in f["events"] if e["type"] == "draw"
    ]
    assert len(draws) == 14 and all(e["tile"] is None for e in draws)
    own = [e for f in c1.frames if f["type"] == "state" for e in f["events"] if e["type"] == "draw"]
    assert all(e["tile"] for e in own)
    assert assert_no_hidden_tile(c0, 0, states) >= 17
    assert assert_no_hidden_tile(watcher, None, states) >= 17
    assert assert_no_hidden_tile(c1, 1, states) >= 17
    for c in (c0, c1, watcher):
        await c.close()


async def test_same_device_never_shows_the_waiting_hand(alice, carol):
    game = await database_sync_to_async(make_game)(
        alice, alice, same_device=True, deals=[SIXES_DEAL]
    )
    screen = await connected(game, alice)
    watcher = await connected(game, carol)
    assert screen.game["connected"] == [True, True]
    states = {0: await database_sync_to_async(_state)(game.pk)}

    async def act(action: dict) -> None:
        reply = await screen.act(action)
        assert reply["type"] == "ack", (action, reply)
        await screen.until_version(reply["version"])
        await watcher.until_version(reply["version"])
        states[reply["version"]] = await database_sync_to_async(_state)(game.pk)

    await act({"do": "start"})
    await act({"do": "start"})
    view = screen.game
    assert view["awaiting_reveal"] and view["to_act"] == 1 and view["seat"] == 1
    assert view["hand"] is None and view["clock"] is None  # R7.7: stopped until the reveal
    assert sorted(a["do"] for a in view["legal"]) == ["resign", "reveal"]
    assert not tiles_in(scrub_public(screen.state)) - {"6-6"}  # only the lead on the table
    await act({"do": "reveal"})
    assert sorted(screen.game["hand"]) == sorted(SIXES_DEAL["hands"][1])
    await act({"do": "draw"})
    # Seat 1 has revealed: seat 0's hand and the boneyard stay hidden from the shared screen.
    for frame in screen.frames:
        if frame["type"] == "state" and frame["version"] in states:
            showing = frame["game"]["seat"] if frame["game"]["hand"] is not None else None
            hidden = hidden_tiles(states[frame["version"]], showing)
            assert not tiles_in(scrub_public(frame)) & hidden
    assert assert_no_hidden_tile(watcher, None, states) >= 4
    for c in (screen, watcher):
        await c.close()


# ---------------------------------------------------------------- outages
#
# Real outages, not mocks: the database settings point at a place where there is no
# database (connections are opened per call, CONN_MAX_AGE=0), and the channel layer at a
# Redis port where nothing listens.


@contextmanager
def database_down() -> Iterator[None]:
    db = connection.settings_dict
    saved = {key: db.get(key) for key in ("NAME", "HOST", "PORT")}
    if connection.vendor == "sqlite":
        db["NAME"] = "/nonexistent/spectacular/db.sqlite3"
    else:
        db["HOST"], db["PORT"] = "127.0.0.1", "1"
    close_stray_connections()  # connections already open would outlive the outage
    try:
        yield
    finally:
        db.update(saved)
        close_stray_connections()


async def test_a_database_outage_answers_unavailable_and_the_same_id_succeeds_later(alice, bob):
    game = await database_sync_to_async(make_game)(alice, bob)
    c0 = await connected(game, alice)
    with database_down():
        reply = await c0.act({"do": "start"}, request_id="start-1")
        assert (reply["type"], reply["code"], reply["id"]) == ("error", "unavailable", "start-1")
        assert reply["message"]
        await c0.send({"type": "ping"})  # the socket stays open and usable
        await c0.until(lambda m: m["type"] == "pong")
    reply = await c0.act({"do": "start"}, request_id="start-1")
    assert reply["type"] == "ack"
    assert (await c0.act({"do": "start"}, request_id="start-1"))["type"] == "ack"  # once
    count = await database_sync_to_async(
        lambda: GameAction.objects.filter(game=game, request_id="start-1").count()
    )()
    assert count == 1
    await c0.close()


async def test_a_database_outage_while_connecting_closes_with_try_again_later(alice, bob):
    game = await database_sync_to_async(make_game)(alice, bob)
    cookie_ready = WsClient(path(game), user=alice)
    cookie_ready.cookie = await database_sync_to_async(session_cookie)(alice)
    with database_down():
        # The session is read from the database too: the whole handshake needs it.
        code = await cookie_ready.close_code()
    assert code == consumers.CLOSE_TRY_AGAIN_LATER
    c0 = await connected(game, alice)  # back: connecting works again
    await c0.close()


@pytest.mark.parametrize("ws_path", ["game", "/ws/lobby/"])
async def test_a_channel_layer_outage_while_connecting_closes_with_try_again_later(
    alice, bob, settings, ws_path
):
    game = await database_sync_to_async(make_game)(alice, bob)
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }
    client = WsClient(path(game) if ws_path == "game" else ws_path, user=alice)
    assert await client.close_code(timeout=30) == consumers.CLOSE_TRY_AGAIN_LATER


async def test_a_late_spectator_and_a_reload_get_the_game_log_without_hidden_tiles(
    alice, bob, carol
):
    """The log sent on connecting: every event so far, filtered like the live ones."""
    game = await database_sync_to_async(make_game)(alice, bob, deals=[SIXES_DEAL])
    c0, c1 = await connected(game, alice), await connected(game, bob)
    for client, action in [(c0, {"do": "start"}), (c1, {"do": "start"})] + [
        (c1, {"do": "draw"})
    ] * 3:
        reply = await client.act(action)
        assert reply["type"] == "ack", (action, reply)
    watcher = await connected(game, carol)
    first = next(f for f in watcher.frames if f["type"] == "state")
    kinds = [e["type"] for e in first["log"]]
    assert kinds.count("start") == 2 and kinds.count("draw") == 3 and "deal" in kinds
    assert all(e["tile"] is None for e in first["log"] if e["type"] == "draw")
    assert tiles_in([e for e in first["log"] if e["type"] == "deal"]) == set()
    reloaded = await connected(game, bob)  # bob's own draws are his to see
    own = next(f for f in reloaded.frames if f["type"] == "state")["log"]
    assert all(e["tile"] for e in own if e["type"] == "draw")
    opponent = await connected(game, alice)
    theirs = next(f for f in opponent.frames if f["type"] == "state")["log"]
    assert all(e["tile"] is None for e in theirs if e["type"] == "draw")
    hidden = hidden_tiles(await database_sync_to_async(_state)(game.pk), 0)
    assert not tiles_in(theirs) & hidden
    # Only the first state of a connection carries the log.
    reply = await c1.act({"do": "draw"})
    frame = await opponent.until_version(reply["version"])
    assert "log" not in frame
    for c in (c0, c1, watcher, reloaded, opponent):
        await c.close()


async def rematch_request(client: WsClient, answer: Any, request_id: Any = "r1") -> dict:
    await client.send({"type": "rematch", "id": request_id, "answer": answer})
    return await client.until(lambda m: m["type"] in ("ack", "error") and m["id"] == request_id)


async def test_a_rematch_offer_reaches_the_opponent_and_both_learn_the_new_game(alice, bob, carol):
    game = await database_sync_to_async(make_game)(
        alice, bob, deals=seeded_deals(1), balances=(20, 20)
    )
    await database_sync_to_async(drive)(game.pk, (alice, bob), lambda v: v["status"] == "finished")
    c0, c1 = await connected(game, alice), await connected(game, bob)
    watcher = await connected(game, carol)
    assert c1.game["rematch"] == {"offered_by": None, "game": None, "declined_by": None}
    # Untrusted input: the wrong vocabulary, no id, a spectator.
    assert (await rematch_request(c0, "accept"))["code"] == "bad_request"
    await c0.send({"type": "rematch", "answer": "offer"})
    assert (await c0.until(lambda m: m["type"] == "error"))["code"] == "bad_request"
    assert (await rematch_request(watcher, "offer"))["code"] == "forbidden"
    assert (await rematch_request(c0, "offer", "r2"))["type"] == "ack"
    seen = await c1.until(lambda m: m["type"] == "rematch")
    assert seen["offered_by"] == 0 and seen["game"] is None
    reply = await rematch_request(c1, "offer", "r3")
    assert reply["type"] == "ack" and reply["game"]
    for client in (c0, c1):
        told = await client.until(lambda m: m["type"] == "rematch" and m["game"])
        assert told["game"] == reply["game"]
    new = await database_sync_to_async(Game.objects.get)(pk=reply["game"])
    assert (new.player0_id, new.player1_id) == (bob.pk, alice.pk)
    reloaded = await connected(game, alice)
    assert reloaded.game["rematch"]["game"] == new.pk
    for c in (c0, c1, watcher, reloaded):
        await c.close()


async def test_a_declined_rematch_is_told_to_the_one_who_offered(alice, bob):
    game = await database_sync_to_async(make_game)(alice, bob)
    c0, c1 = await connected(game, alice), await connected(game, bob)
    assert (await rematch_request(c0, "offer"))["code"] == "rematch_not_over"
    assert (await c0.act({"do": "start"}))["type"] == "ack"
    await c0.until_version(1)
    assert (await c1.act({"do": "start"}))["type"] == "ack"
    reply = await c1.act({"do": "resign"})
    assert reply["type"] == "ack"
    await c0.until_version(reply["version"])
    assert (await rematch_request(c1, "offer", "r2"))["type"] == "ack"
    await c0.until(lambda m: m["type"] == "rematch" and m["offered_by"] == 1)
    assert (await rematch_request(c0, "decline", "r3"))["type"] == "ack"
    told = await c1.until(lambda m: m["type"] == "rematch" and m["declined_by"] == 0)
    assert told["offered_by"] is None and told["game"] is None
    for c in (c0, c1):
        await c.close()


async def group_members(layer: Any, group: str) -> list[str]:
    """The channels in a group, from the in-memory layer or from Redis (channels_redis)."""
    if hasattr(layer, "groups"):
        return list(layer.groups.get(group, {}))
    connection = layer.connection(layer.consistent_hash(group))
    return [member.decode() for member in await connection.zrange(layer._group_key(group), 0, -1)]


async def test_a_resync_carries_the_events_the_socket_missed_and_no_broadcast_repeats_them(
    alice, bob
):
    """A socket that missed changes (its group lost, or an in-memory layer that a worker's
    change cannot cross) gets their events, filtered for its seat, with the state its tick
    reads, so the page's game log has them; a broadcast of a version it was sent already
    is not sent again (the page would write those events twice)."""
    from channels.layers import get_channel_layer

    from games.live.audiences import SEAT_0
    from games.live.groups import game_group

    game = await database_sync_to_async(make_game)(alice, bob, deals=seeded_deals(3))
    c0 = await connected(game, alice)
    c1 = await connected(game, bob)
    for client in (c0, c1):
        assert (await client.act({"do": "start"}))["type"] == "ack"
    started = await database_sync_to_async(_version)(game.pk)
    for client in (c0, c1):
        await client.until_version(started)
    layer = get_channel_layer()
    group = game_group(game.pk, SEAT_0)
    (channel,) = await group_members(layer, group)  # alice's one socket
    await layer.group_discard(group, channel)  # it hears no more broadcasts
    mover = c0 if choose(c0.state["game"]["legal"]) else c1
    reply = await mover.act(choose(mover.state["game"]["legal"]))
    assert reply["type"] == "ack", reply
    assert c0.state["version"] == started  # nothing reached alice's socket
    await c0.send({"type": "tick"})
    resync = await c0.until(lambda m: m["type"] == "state")
    assert resync["version"] == reply["version"]
    logged = await database_sync_to_async(game_events)(game.pk, after_version=started)
    assert logged and resync["events"] == engine.events_for(logged, 0)
    # The layer brings a state this socket was sent already: it is not sent again.
    await layer.group_add(group, channel)
    await layer.group_send(
        group, {"type": "game.message", "text": '{"type": "state"}', "version": reply["version"]}
    )
    await c0.send({"type": "ping"})
    assert (await c0.recv())["type"] == "pong"
    # A change missed, then one heard: the one heard comes with the missed one's events,
    # read afresh, with no tick (the next move after a worker's that the layer lost).
    heard_from = reply["version"]
    await layer.group_discard(group, channel)
    await c1.until_version(heard_from)
    mover = c0 if choose(c0.state["game"]["legal"]) else c1
    missed = await mover.act(choose(mover.state["game"]["legal"]))
    assert missed["type"] == "ack", missed
    await layer.group_add(group, channel)
    await c1.until_version(missed["version"])
    # Alice acts, if it is her turn, from a second page of hers whose view is fresh.
    fresh = await connected(game, alice)
    mover = c1 if choose(c1.state["game"]["legal"]) else fresh
    heard = await mover.act(choose(mover.state["game"]["legal"]))
    assert heard["type"] == "ack", heard
    state = await c0.until(lambda m: m["type"] == "state" and m["version"] == heard["version"])
    logged = await database_sync_to_async(game_events)(game.pk, after_version=heard_from)
    assert state["events"] == engine.events_for(logged, 0)
    for client in (c0, c1, fresh):
        await client.close()
