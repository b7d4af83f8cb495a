"""The computer players (games/bots): legal, blind to what their seat cannot see, repeatable."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import engine
from games.bots import STRENGTHS, choose, search
from games.bots.knowledge import read, sample
from games.engine.tiles import BIT, VALUE_MASK, tiles_of
from tests.games.bots.positions import positions


def test_the_three_strengths() -> None:
    assert STRENGTHS == ("easy", "medium", "hard")


def _count_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hard searches one sample of play-outs, and its ample budget never ends it first: so
    its answers, like easy's and medium's, depend on the view and the seed alone."""
    monkeypatch.setattr(search, "PLAYOUTS_PER_SECOND", 0.05)


BUDGETS = {"easy": 0.0, "medium": 0.0, "hard": 20.0}


@pytest.mark.parametrize(("strength", "count"), [("easy", 3000), ("medium", 3000), ("hard", 600)])
def test_every_strength_returns_a_legal_action(
    strength: str, count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over thousands of random positions the action is one the view lists and apply takes."""
    _count_bound(monkeypatch)
    seen: set[str] = set()
    for i, (state, seat, now) in enumerate(positions(seed=1, count=count)):
        view = engine.view(state, seat, now)
        action = choose(view, strength, budget=BUDGETS[strength], seed=i)
        assert action in view["legal"] and action["do"] != "resign", (view, action)
        engine.apply(state, seat, action, now)
        seen.add(action["do"])
    assert {"play", "draw", "lead", "accept", "renounce", "bid"} <= seen


# Each kind of decision a seat meets, named by the action that only it offers: a placement
# with a tile that fits, one without (draw), the lead, the auction's opening (bid or
# renounce) and the answer to a bid (raise or accept).
DECISIONS = {
    "play": {"play"},
    "draw": {"draw"},
    "lead": {"lead"},
    "bid": {"bid", "renounce"},
    "raise": {"raise", "accept"},
}
# What each strength is known to choose at the first 30 positions offering each decision in
# the games of seed 5: every strength bids (medium least) and only hard ever raises.
CHOSEN = {
    ("easy", "bid"): {"bid", "renounce"},
    ("medium", "bid"): {"bid", "renounce"},
    ("hard", "bid"): {"bid", "renounce"},
    ("easy", "raise"): {"accept"},
    ("medium", "raise"): {"accept"},
    ("hard", "raise"): {"raise", "accept"},
}


def _offering(kind: str, count: int = 30) -> list[dict[str, Any]]:
    """The views of the first `count` positions of seed 5's games that offer `kind`."""
    views = []
    for state, seat, now in positions(seed=5, count=5000):
        view = engine.view(state, seat, now)
        if any(action["do"] == kind for action in view["legal"]):
            views.append(view)
            if len(views) == count:
                return views
    raise AssertionError(f"seed 5's games offer {kind!r} fewer than {count} times")


@pytest.mark.parametrize("kind", list(DECISIONS))
@pytest.mark.parametrize("strength", STRENGTHS)
def test_every_strength_takes_each_kind_of_decision(
    strength: str, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _count_bound(monkeypatch)
    chosen = set()
    for i, view in enumerate(_offering(kind)):
        action = choose(view, strength, budget=BUDGETS[strength], seed=i)
        assert action in view["legal"], (view, action)
        chosen.add(action["do"])
    assert chosen == CHOSEN.get((strength, kind), DECISIONS[kind])


def test_a_bot_asked_without_a_decision_says_so() -> None:
    state, seat, now = next(positions(seed=1, count=1))
    for strength in STRENGTHS:
        with pytest.raises(ValueError):
            choose(engine.view(state, 1 - seat, now), strength, budget=0.01, seed=0)
    with pytest.raises(ValueError):
        choose(engine.view(state, seat, now), "expert", budget=0.01, seed=0)


def _hidden_swapped(state: engine.State, seat: int, rng: random.Random) -> engine.State | None:
    """The same game with other hidden tiles: one tile the opponent was dealt and never
    showed swapped for one in the undrawn boneyard that its draws and passes allow, and
    the undrawn boneyard reshuffled. None when no such swap exists."""
    other = 1 - seat
    lacked = 0
    for player, kind, _tile, values in state.trail:
        if player == other and kind in (3, 4):  # draws and passes (state.TRAIL_DRAW/PASS)
            lacked |= sum(VALUE_MASK[v] for v in range(7) if values >> v & 1)
    rest = list(state.boneyard[state.drawn :])
    drawn = set(state.boneyard[: state.drawn])
    held = [t for t in tiles_of(state.hands[other]) if t not in drawn]
    fresh = [t for t in rest if not BIT[t] & lacked]
    if not held or not fresh:
        return None
    out_tile, in_tile = rng.choice(held), rng.choice(fresh)
    rest[rest.index(in_tile)] = out_tile
    rng.shuffle(rest)
    twin = state.clone()
    hands = list(state.hands)
    hands[other] = hands[other] & ~BIT[out_tile] | BIT[in_tile]
    twin.hands = (hands[0], hands[1])
    twin.boneyard = (*state.boneyard[: state.drawn], *rest)
    return twin


def test_no_bot_can_tell_two_deals_apart_that_look_the_same_from_its_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Hard searches a count of play-outs that its generous budget buys, and the clock never
    # ends it first: so it gives one answer per (view, seed), and one for both deals.
    monkeypatch.setattr(search, "PLAYOUTS_PER_SECOND", 0.2)
    rng = random.Random(4)
    compared = 0
    for i, (state, seat, now) in enumerate(positions(seed=8, count=400, every=2)):
        twin = _hidden_swapped(state, seat, rng)
        if twin is None:
            continue
        view = engine.view(state, seat, now)
        twin_view = engine.view(twin, seat, now)
        assert twin.hands != state.hands and twin_view == view
        for strength in STRENGTHS:
            budget = 30.0 if strength == "hard" else 0.0
            action = choose(view, strength, budget=budget, seed=i)
            assert choose(twin_view, strength, budget=budget, seed=i) == action
            engine.apply(twin, seat, action, now)
        compared += 1
    assert compared > 100


def test_hard_is_deterministic_when_its_count_ends_the_search() -> None:
    for i, (state, seat, now) in enumerate(positions(seed=31, count=40, every=11)):
        view = engine.view(state, seat, now)
        first = search.hard(view, random.Random(i), budget=60.0, playouts=60)
        assert search.hard(view, random.Random(i), budget=60.0, playouts=60) == first
    for strength in ("easy", "medium"):
        assert choose(view, strength, budget=0.0, seed=3) == choose(
            view, strength, budget=0.0, seed=3
        )


def test_what_a_seat_knows_holds_for_the_true_deal_and_for_its_samples() -> None:
    """Every bound read from the trail is met by the opponent's real hand; samples deal
    exactly the unseen tiles, in the numbers the view shows."""
    rng = random.Random(6)
    bounded = 0
    for state, seat, now in positions(seed=12, count=1500, every=2):
        know = read(engine.view(state, seat, now))
        truth = state.hands[1 - seat]
        for lacked, room in know.limits:
            assert (truth & lacked).bit_count() <= room
            bounded += 1
        hand, boneyard = sample(know, rng)
        assert len(hand) == know.opponent_count and len(boneyard) == know.boneyard_count
        assert sum(BIT[t] for t in hand + boneyard) == know.unseen
    assert bounded > 200
