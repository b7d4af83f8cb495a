"""bench/moves.py stops at once, saying why, when the server refuses its sockets.

Against a running server (--url) the benchmark once signed its sessions with a random
SECRET_KEY of its own: the server closed every socket with 4401, and the benchmark waited
60 s for a first state five times per socket while the server aborted its games.
"""

from __future__ import annotations

import asyncio
import time

import pytest
import websockets

from bench import moves


async def test_a_refused_socket_stops_the_benchmark_at_once() -> None:
    async def refuse(socket: websockets.ServerConnection) -> None:
        await socket.close(code=4401)  # as games.live.consumer does for an anonymous user

    async with websockets.serve(refuse, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        started = time.monotonic()
        with pytest.raises(RuntimeError, match=r"4401.*SECRET_KEY"):
            await asyncio.wait_for(
                moves.connect(f"ws://127.0.0.1:{port}", 1, "cookie", moves.Stats()), timeout=10
            )
    assert time.monotonic() - started < 5


async def test_a_socket_closed_meanwhile_ends_the_wait_for_it() -> None:
    async def state_then_close(socket: websockets.ServerConnection) -> None:
        await socket.send('{"type": "state", "version": 1}')
        await socket.close(code=1011)

    async with websockets.serve(state_then_close, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        client = moves.Client(await moves.open_socket(f"ws://127.0.0.1:{port}"), moves.Stats())
        with pytest.raises(moves.SocketClosed) as closed:
            await client.has_version(2)
        assert closed.value.code == 1011
        await client.close()


def test_only_spawned_servers_get_a_fresh_secret_key() -> None:
    environ = {"SECRET_KEY": "the server's"}
    moves.spawn_environment(environ, 10)
    assert environ["SECRET_KEY"] == "the server's"
    assert environ["DEBUG"] == "false"
    assert environ["WS_RATE_LIMIT_USER"] == "10"
    fresh: dict[str, str] = {}
    moves.spawn_environment(fresh, 10)
    assert len(fresh["SECRET_KEY"]) > 40


def test_runs_taken_in_turns_count_as_one() -> None:
    def run(latencies: list[float], seconds: float, errors: int) -> dict:
        return {
            "games": 50,
            "seconds": seconds,
            "moves": len(latencies),
            "latencies": latencies,
            "errors": errors,
            "dropped": 0,
            "failed_connects": 0,
            "games_finished": 1,
            "frame_size": 2000,
        }

    both = moves.combined([run([0.01] * 30, 2.0, 1), run([0.03] * 70, 3.0, 0)])
    assert (both["moves"], both["seconds"], both["per_second"]) == (100, 5.0, 20.0)
    assert (both["errors"], both["games_finished"]) == (1, 2)
    assert both["p50"] == pytest.approx(0.03) and both["p99"] == pytest.approx(0.03)
    assert moves.combined([run([0.01] * 60, 1.0, 0), run([0.03] * 40, 1.0, 0)])["p50"] == 0.01


def test_only_round_trips_ending_within_the_measured_window_count() -> None:
    stats = moves.Stats()
    now = time.monotonic()
    stats.done({"counting": now - 1, "deadline": now + 60}, 0.01)
    stats.done({"counting": now - 2, "deadline": now - 1}, 0.5)  # after the window
    stats.done({"counting": now + 1, "deadline": now + 60}, 0.7)  # still warming up
    assert stats.latencies == [0.01]
