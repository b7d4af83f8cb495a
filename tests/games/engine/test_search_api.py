"""The engine's parts for search (issue 13): the public trail, compact moves, and states
built from a seat's view plus a completion of its hidden tiles. Each must agree with the
public API (`legal_actions`, `apply`, `view`) over many random positions."""

from __future__ import annotations

import random

import pytest

from games import engine
from games.engine.determinize import Position, state_from_view
from games.engine.game import action_of, decision_moves, play_move
from games.engine.tiles import tiles_of
from tests.games.bots.positions import positions
from tests.games.engine.conftest import deal


def _dump(state: engine.State) -> dict:
    return engine.to_json(state)


def test_moves_agree_with_legal_actions_and_play_move_with_apply() -> None:
    checked = 0
    for state, seat, _now in positions(seed=11, count=3000):
        moves = decision_moves(state, seat)
        assert [action_of(m) for m in moves] == engine.legal_actions(state, seat)[:-1]
        assert decision_moves(state, 1 - seat) == []
        for move in moves[:6]:
            # Requests at the decision's own instant: no timed transition is due.
            expected, _ = engine.apply(state, seat, action_of(move), state.clock_start)
            assert _dump(play_move(state, seat, move, state.clock_start)) == _dump(expected)
            checked += 1
    assert checked > 5000


def test_play_move_refuses_what_apply_refuses() -> None:
    state, seat, _now = next(positions(seed=5, count=1))
    with pytest.raises(engine.RuleError):
        play_move(state, 1 - seat, decision_moves(state, seat)[0], 0.0)


def test_the_trail_shows_each_seat_the_round_as_it_saw_it() -> None:
    # Seat 1 has nothing on 6 after the 6-6 lead: it draws 0-0, 1-0, then 6-1 and plays it.
    d = deal("6-6 6-5 6-4 5-5 5-4 4-4 3-3", "2-2 2-1 2-0 3-2 3-1 3-0 4-3", "0-0 1-0 6-1")
    st = engine.new_game(deals=[d], created_at=0.0)
    for s in (0, 1):
        st, _ = engine.apply(st, s, {"do": "start"}, 1.0)
    for _ in range(3):
        st, _ = engine.apply(st, 1, {"do": "draw"}, 2.0)
    st, _ = engine.apply(st, 1, {"do": "play", "tile": "6-1", "end": "left"}, 3.0)
    ends = [6]
    lead = {"player": 0, "do": "lead", "tile": "6-6", "auto": True}
    play = {"player": 1, "do": "play", "tile": "6-1", "end": "left"}
    assert engine.view(st, 1, 3.0)["trail"] == [
        lead,
        {"player": 1, "do": "draw", "tile": "0-0", "ends": ends},
        {"player": 1, "do": "draw", "tile": "1-0", "ends": ends},
        {"player": 1, "do": "draw", "tile": "6-1", "ends": ends},
        play,
    ]
    hidden = {"player": 1, "do": "draw", "tile": None, "ends": ends}
    assert engine.view(st, 0, 3.0)["trail"] == [lead, hidden, hidden, hidden, play]
    assert engine.view(st, None, 3.0)["trail"] == [lead, hidden, hidden, hidden, play]
    back = engine.from_json(engine.to_json(st))
    assert engine.view(back, 0, 3.0)["trail"] == engine.view(st, 0, 3.0)["trail"]


def test_a_state_stored_before_the_trail_loads_with_an_empty_one() -> None:
    state, seat, now = next(positions(seed=3, count=1, every=9))
    data = engine.to_json(state)
    del data["trail"]
    assert engine.view(engine.from_json(data), seat, now)["trail"] == []


def test_the_true_hidden_tiles_rebuild_the_true_position() -> None:
    rng = random.Random(2)
    for state, seat, now in positions(seed=17, count=600, every=3):
        view = engine.view(state, seat, now)
        other = tiles_of(state.hands[1 - seat])
        boneyard = state.boneyard[state.drawn :]
        twin = state_from_view(view, other, boneyard)
        assert engine.legal_actions(twin, seat) == view["legal"]
        assert engine.view(twin, seat, now)["board"] == view["board"]
        # Played on with the same moves, both reach the same end of the round.
        real, copy = state, twin
        while real.status == "playing" and real.phase in ("auction", "lead", "play"):
            mover = real.to_act
            move = rng.choice(decision_moves(real, mover))
            real = play_move(real, mover, move, real.clock_start)
            copy = play_move(copy, mover, move, 0.0)
            assert copy.board.ends == real.board.ends and copy.hands == real.hands
        assert (copy.balances, copy.status, copy.phase) == (real.balances, real.status, real.phase)


def test_a_completion_that_does_not_fit_the_view_is_refused() -> None:
    state, seat, now = next(positions(seed=23, count=1, every=5))
    position = Position(engine.view(state, seat, now))
    other = list(tiles_of(state.hands[1 - seat]))
    boneyard = list(state.boneyard[state.drawn :])
    with pytest.raises(ValueError):
        position.deal(other[1:], boneyard)
    with pytest.raises(ValueError):
        position.deal(other, [*boneyard[1:], other[0]])
    with pytest.raises(ValueError):
        Position(engine.view(state, None, now))
