"""A decision valued from its player's own view (games.review.evaluate)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from games import engine
from games.bots.knowledge import read, sample
from games.review.evaluate import evaluate, move_of
from games.review.plan import Point, replay, walk
from games.review.selfplay import computer_game
from games.review.table import shipped


@cache
def _game() -> tuple[Any, tuple[Any, ...]]:
    initial, changes = computer_game(11, ("medium", "easy"))
    return initial, tuple(changes)


def _points(kind: str, count: int) -> list[tuple[Any, Point]]:
    """(state, point) at the first `count` decisions of `kind` ("play", "auction", ...) with
    more than one option, with the state the decision was taken in."""
    initial, changes = _game()
    found: list[tuple[Any, Point]] = []
    state = initial
    points = {p.step: p for p in walk(initial, changes, (0, 1))}
    for step, change in enumerate(changes, start=1):
        point = points.get(step)
        if point is not None and len(engine.choices_of(state, point.seat)) > 1:
            phase = point.view["phase"]
            if phase == kind or (kind == "play" and phase == "lead"):
                found.append((state, point))
                if len(found) == count:
                    break
        state = replay(state, change)
    assert len(found) == count
    return found


def test_every_option_is_valued_and_the_best_comes_first() -> None:
    for _state, point in _points("play", 3) + _points("auction", 2):
        ev = evaluate(point.view, point.action, shipped(), samples=12, seed="t")
        chances = [o.chance for o in ev.options]
        assert chances == sorted(chances, reverse=True)
        assert all(0.0 <= c <= 1.0 for c in chances)
        assert ev.loss == pytest.approx(ev.options[0].chance - ev.options[ev.chosen].chance)
        assert ev.loss >= 0
        legal = engine.choices(point.view["legal"])
        for option in ev.options:
            assert option.action in legal
        assert ev.options[ev.chosen].action["do"] == point.action["do"]
        assert ev.kind == ("auction" if point.view["phase"] == "auction" else "tile")


def test_the_same_view_and_seed_give_the_same_values() -> None:
    ((_state, point),) = _points("play", 1)
    a = evaluate(point.view, point.action, shipped(), samples=10, seed="x")
    b = evaluate(point.view, point.action, shipped(), samples=10, seed="x")
    assert a == b


def _swapped(state: Any, seat: int, now: float, rng: random.Random) -> Any:
    """The same table, another deal of what `seat` cannot see, consistent with its view."""
    view = engine.view(state, seat, now)
    know = read(view)
    while True:
        hand, boneyard = sample(know, rng)
        other = 1 - seat
        if sorted(hand) != sorted(t for t in range(28) if state.hands[other] >> t & 1):
            break
    mask = sum(1 << t for t in hand)
    new = state.clone()
    new.hands = (state.hands[0], mask) if other == 1 else (mask, state.hands[1])
    new.boneyard = tuple(state.boneyard[: state.drawn]) + tuple(boneyard)
    return new


def test_other_hidden_tiles_consistent_with_the_view_give_the_same_values() -> None:
    rng = random.Random(4)
    for state, point in _points("play", 2) + _points("auction", 1):
        now = point.view["now"]
        swapped = _swapped(state, point.seat, now, rng)
        assert swapped.hands[1 - point.seat] != state.hands[1 - point.seat]
        seen = engine.view(swapped, point.seat, now)
        assert seen == point.view  # the player could not tell the two apart
        real = evaluate(point.view, point.action, shipped(), samples=16, seed="s")
        other = evaluate(seen, point.action, shipped(), samples=16, seed="s")
        assert real == other
        # Other samples of the same view: the same values within sampling noise.
        noisy = evaluate(seen, point.action, shipped(), samples=16, seed="t")
        by_action = {str(o.action): o.chance for o in noisy.options}
        for option in real.options:
            assert by_action[str(option.action)] == pytest.approx(option.chance, abs=0.15)


def test_a_decision_with_one_option_is_forced_and_not_valued() -> None:
    initial, changes = _game()
    for point in walk(initial, changes, (0, 1)):
        if len(engine.choices(point.view["legal"])) == 1:
            ev = evaluate(point.view, point.action, shipped(), samples=4, seed="f")
            assert ev.forced and ev.loss == 0.0
            return
    raise AssertionError("no forced decision in the game")


def test_an_action_that_is_not_legal_is_refused() -> None:
    ((_state, point),) = _points("play", 1)
    with pytest.raises(ValueError):
        evaluate(point.view, {"do": "bid", "amount": 15}, shipped(), samples=2, seed="r")
    with pytest.raises(ValueError):
        move_of({"do": "play", "tile": "9-9"}, [])
