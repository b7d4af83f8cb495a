"""A game's review from its log: the decisions valued, the parts, the summary."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from games import engine
from games.bots.knowledge import read, sample
from games.review.grades import Thresholds
from games.review.plan import (
    Luck,
    decision_steps,
    draws_on,
    evaluate_steps,
    open_view,
    parts,
    replay,
    summarize,
    walk,
    weigh,
)
from games.review.selfplay import computer_game
from games.review.table import shipped


@cache
def _game() -> tuple[Any, tuple[Any, ...]]:
    initial, changes = computer_game(12, ("easy", "medium"))
    return initial, tuple(changes)


def test_only_the_reviewed_seats_decisions_are_valued() -> None:
    initial, changes = _game()
    both = decision_steps(initial, changes, (0, 1))
    one = decision_steps(initial, changes, (1,))
    assert set(one) < set(both)
    for step in both:
        change = changes[step - 1]
        assert change.action["do"] in engine.DECISIONS
    assert all(changes[s - 1].seat == 1 for s in one)
    # Start and Continue presses are no decisions.
    assert len(both) < len(changes)


def test_parts_cover_every_step_once() -> None:
    steps = list(range(1, 24))
    cut = parts(steps, 5)
    assert [len(p) for p in cut] == [5, 5, 5, 5, 3]
    assert [s for part in cut for s in part] == steps


def test_parts_valued_apart_equal_the_whole() -> None:
    initial, changes = _game()
    steps = decision_steps(initial, changes, (0,))[:12]
    whole = list(
        evaluate_steps(initial, changes, steps, shipped(), Thresholds(), samples=6, seed="p")
    )
    pieces = [
        d
        for part in parts(steps, 5)
        for d in evaluate_steps(
            initial, changes, part, shipped(), Thresholds(), samples=6, seed="p"
        )
    ]
    assert whole == pieces
    assert [d["step"] for d in whole] == steps


def test_the_summary_gives_each_player_figures_and_a_curve() -> None:
    initial, changes = _game()
    steps = decision_steps(initial, changes, (0, 1))[:60]
    decisions = list(
        evaluate_steps(initial, changes, steps, shipped(), Thresholds(), samples=6, seed="q")
    )
    summary = summarize(decisions, (0, 1))
    assert [p["seat"] for p in summary["players"]] == [0, 1]
    graded = [d for d in decisions if not d["forced"]]
    assert len(summary["curve"]) == len(graded)
    for (step, chance), d in zip(summary["curve"], graded, strict=True):
        assert step == d["step"]
        assert chance == (d["chance"] if d["seat"] == 0 else round(1 - d["chance"], 4))
    for p in summary["players"]:
        assert p["graded"] == sum(1 for d in graded if d["seat"] == p["seat"])
        own = [d for d in decisions if d["seat"] == p["seat"]]
        assert p["luck_deals"] == pytest.approx(sum(d["luck_deal"] or 0 for d in own), abs=1e-3)
        assert p["luck_draws"] == pytest.approx(sum(d["luck_draws"] or 0 for d in own), abs=1e-3)
        assert p["luck"] == pytest.approx(p["luck_deals"] + p["luck_draws"], abs=1e-3)


def test_each_deal_is_weighed_on_its_seats_first_decision_of_the_round() -> None:
    initial, changes = _game()
    points = list(walk(initial, changes, (0, 1)))
    seen: set[tuple[int, int]] = set()
    dealt = 0
    for point in points:
        deals = [luck for luck in point.luck if luck.kind == "deal"]
        first = (point.seat, point.round) not in seen
        seen.add((point.seat, point.round))
        assert len(deals) == (1 if first else 0)
        for luck in deals:
            dealt += 1
            assert luck.before is None and luck.dealt is not None
            assert luck.after is not None and luck.after["seat"] == point.seat
            assert luck.after["round"] == point.round
            # The view as dealt: no tile on the table but an automatic first lead's.
            board = luck.after["board"]
            assert not any(board[arm] for arm in ("left", "right", "up", "down"))
    assert dealt == len(seen) > 2


def test_each_run_of_draws_is_weighed_from_its_first_draw_to_what_it_left() -> None:
    initial, changes = _game()
    runs = 0
    for point in walk(initial, changes, (0, 1)):
        draws = [luck for luck in point.luck if luck.kind == "draws"]
        if not draws:
            continue
        assert point.action["do"] == "draw"
        ((luck,),) = (draws,)
        runs += 1
        before = luck.before
        assert before is not None and before["seat"] == point.seat
        assert before["boneyard_left"] >= point.view["boneyard_left"]
        if luck.after is not None:
            # The run ends with a drawn tile to play, or with the turn passed.
            drawn = before["boneyard_left"] - luck.after["boneyard_left"]
            assert drawn == before["boneyard_left"] - point.view["boneyard_left"] + 1
            assert len(luck.after["hand"]) == len(before["hand"]) + drawn
            assert luck.after["must_play"] or luck.after["to_act"] != point.seat
        else:
            assert luck.settled.phase in ("round_over", "finished")
    assert runs > 2


def test_draws_and_deals_are_weighed_from_the_seats_views_alone() -> None:
    initial, changes = _game()
    weighed = 0
    for point in walk(initial, changes, (0, 1)):
        for luck in point.luck:
            value = weigh(luck, point.seat, shipped(), samples=6, seed="w")
            again = weigh(luck, point.seat, shipped(), samples=6, seed="w")
            assert value is not None and value == again
            assert -1.0 <= value <= 1.0
            weighed += 1
        if weighed >= 12:
            return
    raise AssertionError("fewer than 12 deals and runs of draws in the game")


def test_each_view_is_the_deciders_own() -> None:
    initial, changes = _game()
    for point in walk(initial, changes, (0,)):
        assert point.view["seat"] == 0
        assert point.view["to_act"] == 0
        assert point.view["hand"] is not None


def test_draws_give_nothing_on_average_over_what_the_boneyard_could_have_held() -> None:
    """Luck's definition: over the tiles the seat could have drawn, the draws' luck averages
    zero (within sampling noise), whatever the real draw gave."""
    initial, changes = _game()
    state = initial
    points = {p.step: p for p in walk(initial, changes, (0, 1))}
    for step, change in enumerate(changes, start=1):
        point = points.get(step)
        if point is not None and point.action["do"] == "draw":
            break
        state = replay(state, change)
    else:
        raise AssertionError("no draw in the game")
    seat, view = point.seat, point.view
    know = read(view)
    rng = random.Random(8)
    values = []
    for _ in range(40):
        hand, boneyard = sample(know, rng)
        other = state.clone()
        mask = sum(1 << t for t in hand)
        other.hands = (state.hands[0], mask) if seat == 0 else (mask, state.hands[1])
        other.boneyard = tuple(state.boneyard[: state.drawn]) + tuple(boneyard)
        while True:
            other = engine.apply(other, seat, {"do": "draw"}, change.t)[0]
            if not draws_on(other, seat):
                break
        luck = Luck("draws", view, None, open_view(other, seat, change.t), other)
        value = weigh(luck, seat, shipped(), samples=24, seed="avg")
        assert value is not None
        values.append(value)
    assert len(set(values)) > 5  # the draws differed
    assert sum(values) / len(values) == pytest.approx(0.0, abs=0.025)
    assert max(values) - min(values) > 0.05
