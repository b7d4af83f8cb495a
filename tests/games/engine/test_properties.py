"""Property tests over thousands of random games driven by legal_actions.

Each hypothesis example seeds a random.Random that deals the rounds, picks the seat and the
action among engine.legal_actions, and moves the clock on by 0-12 s per request (now and
then much more, so banks run down and flags fall).  Invariants checked along the way:
300 points in play and no negative balance, the 28 tiles accounted for, every listed
legal action accepted, illegal requests refused with a known code and no change, no view
or filtered event showing a hidden tile, the spectator seeing no hand, exact replay, and a
lossless JSON round trip.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from tests.games.engine.conftest import ALL_TILES, norm

ALL = set(ALL_TILES)
ROUND_PHASES = ("auction", "lead", "play")
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

BALANCES = [(150, 150), (150, 150), (60, 240), (240, 60), (20, 280), (100, 200)]
BANKS = [(120.0, 120.0), (120.0, 120.0), (40.0, 40.0), (15.0, 90.0)]


def dump(state: Any) -> bytes:
    """The state's JSON form as one canonical text, to compare states by (orjson: the
    properties dump each state several times a step, and json.dumps would dominate)."""
    return orjson.dumps(engine.to_json(state), option=orjson.OPT_SORT_KEYS)


def board_tiles(board: dict[str, Any] | None) -> list[str]:
    if not board:
        return []
    tiles = [board["lead"]["tile"]] if board.get("lead") else []
    for arm in ("left", "right", "up", "down"):
        tiles += [p["tile"] for p in board.get(arm) or []]
    return [norm(t) for t in tiles]


# A tile written as a whole JSON string; two such strings never overlap (a quote that ends
# one is followed by a comma, a colon, a bracket or a brace, never a digit).
QUOTED_TILE = re.compile(r'"(\d)-(\d)"')


def leaks(text: str, hidden: set[str]) -> list[str]:
    """Hidden tiles written as whole JSON strings ('"6-4"' or '"4-6"') in `text`."""
    written = {norm(f"{a}-{b}") for a, b in QUOTED_TILE.findall(text)}
    return sorted(written & hidden)


@dataclass
class Game:
    """One random game: the engine state plus everything needed to replay it."""

    rng: random.Random
    params: dict[str, Any]
    state: Any = None
    now: float = 0.0
    inputs: list[tuple[str, int | None, Any, float]] = field(default_factory=list)
    all_events: list[dict[str, Any]] = field(default_factory=list)
    _public: tuple[Any, float, dict[str, Any]] | None = field(default=None, repr=False)

    @classmethod
    def create(cls, seed: int) -> Game:
        rng = random.Random(seed)
        params = {
            "balances": rng.choice(BALANCES),
            "banks": rng.choice(BANKS),
            "same_device": rng.random() < 0.15,
            "deal_seed": rng.getrandbits(32),
        }
        g = cls(rng=rng, params=params)
        g.state = new_from(params)
        return g

    def public_view(self) -> dict[str, Any]:
        """The spectator's view now, made once per state and instant: the checks read it
        several times a step, and a view changes nothing (R7.8, checked on its own)."""
        cached = self._public
        if cached is None or cached[0] is not self.state or cached[1] != self.now:
            cached = self._public = (self.state, self.now, engine.view(self.state, None, self.now))
        return cached[2]

    @property
    def over(self) -> bool:
        return self.public_view()["status"] in ("finished", "aborted")

    def tick(self) -> list[dict[str, Any]]:
        r = self.rng.random()
        dt = self.rng.uniform(12, 70) if r < 0.01 else self.rng.uniform(0, 12)
        self.now = round(self.now + dt, 3)
        self.state, ev = engine.advance(self.state, self.now)
        if ev:
            self.inputs.append(("advance", None, None, self.now))
        self.all_events += ev
        return ev

    def options(self) -> list[tuple[int, dict[str, Any]]]:
        return [(s, a) for s in (0, 1) for a in engine.legal_actions(self.state, s)]

    def choose(self) -> tuple[int, dict[str, Any]] | None:
        opts = self.options()
        keep = [o for o in opts if o[1]["do"] != "resign"]
        if keep and self.rng.random() > 0.002:
            return self.rng.choice(keep)
        return self.rng.choice(opts) if opts else None

    def apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        self.state, ev = engine.apply(self.state, seat, action, self.now)
        self.inputs.append(("apply", seat, action, self.now))
        self.all_events += ev
        return ev


def new_from(params: dict[str, Any]) -> Any:
    return engine.new_game(
        deals=None,
        balances=params["balances"],
        banks=params["banks"],
        same_device=params["same_device"],
        created_at=0.0,
        rng=random.Random(params["deal_seed"]),
    )


def play(seed: int, max_requests: int = 1500) -> Iterator[tuple[Game, str, list[dict[str, Any]]]]:
    """Play one random game; yields (game, 'advance'|'apply', events) after every change."""
    g = Game.create(seed)
    for _ in range(max_requests):
        ev = g.tick()
        yield g, "advance", ev
        if g.over:
            return
        pick = g.choose()
        if pick is None:
            continue
        seat, action = pick
        try:
            ev = g.apply(seat, action)
        except engine.RuleError as err:
            raise AssertionError(f"legal action refused: {seat} {action} {err.code}") from err
        yield g, "apply", ev
        if g.over:
            return
    raise AssertionError(f"game {seed} did not end within {max_requests} requests")


def play_to_end(seed: int) -> Game:
    *_, (game, _kind, _ev) = play(seed)
    return game


def game_seeds(seed: int, count: int) -> Iterator[int]:
    """`count` games' seeds, the same for the same `seed`."""
    rng = random.Random(seed)
    for _ in range(count):
        yield rng.getrandbits(64)


# --- invariants ------------------------------------------------------------------------


def check_points_and_tiles(g: Game) -> None:
    vs = g.public_view()
    balances = [p["balance"] for p in vs["players"]]
    assert sum(balances) == 300, balances
    assert min(balances) >= 0, balances
    assert all(p["bank"] >= 0 for p in vs["players"])
    assert vs["hand"] is None
    if vs["status"] != "playing" or not vs["round"]:
        return
    h0 = engine.view(g.state, 0, g.now)["hand"]
    h1 = engine.view(g.state, 1, g.now)["hand"]
    board = board_tiles(vs["board"])
    tiles = [norm(t) for t in h0 + h1] + board
    assert len(tiles) == len(set(tiles)), tiles
    assert set(tiles) <= ALL
    assert len(tiles) + vs["boneyard_left"] == 28, (len(h0), len(h1), board, vs["boneyard_left"])
    for p, hand in zip(vs["players"], (h0, h1), strict=True):
        assert p["hand_count"] == len(hand)


def balances_of(g: Game) -> list[int]:
    return [p["balance"] for p in g.public_view()["players"]]


def check_events_move_points(before: list[int], ev: list[dict[str, Any]], after: list[int]) -> None:
    """Every point that moved is explained by a score, block or accept event (R1.2-R1.4)."""
    bal = list(before)
    for e in ev:
        if e["type"] == "score":
            scorer, payer = e["player"], 1 - e["player"]
            assert e["count"] > 0 and e["count"] % 5 == 0, e  # R4.5
            assert e["points"] == min(e["count"], bal[payer]), (e, bal)  # R1.4
        elif e["type"] == "block":
            totals = e["totals"]
            if e["player"] is None:
                assert totals[0] == totals[1] and e["points"] == 0, e
                continue
            scorer, payer = e["player"], 1 - e["player"]
            assert totals[scorer] < totals[payer], e
            rounded = (totals[payer] + 2) // 5 * 5  # nearest multiple of 5 (R5.6)
            assert e["points"] == min(rounded, bal[payer]), (e, bal)
        elif e["type"] == "accept":
            payer = e["payer"]
            scorer = 1 - payer
            assert 0 <= e["amount"] <= bal[payer], (e, bal)  # R6.6
        else:
            continue
        points = e["points"] if "points" in e else e["amount"]
        bal[payer] -= points
        bal[scorer] += points
    assert bal == after, (before, after, ev)
    if 0 in after:  # R1.5
        assert any(e["type"] == "game_over" for e in ev), ev


def check_secrecy(g: Game, ev: list[dict[str, Any]]) -> None:
    vs = g.public_view()
    if vs["status"] != "playing" or vs["phase"] not in ROUND_PHASES:
        return
    board = set(board_tiles(vs["board"]))
    hands = [{norm(t) for t in engine.view(g.state, s, g.now)["hand"]} for s in (0, 1)]
    for seat in (0, 1, None):
        visible = board | (hands[seat] if seat is not None else set())
        hidden = ALL - visible
        view = engine.view(g.state, seat, g.now)
        view.pop("last_round", None)  # the previous round's summary is public
        found = leaks(orjson.dumps(view).decode(), hidden)
        assert not found, (seat, "view", found)
        found = leaks(orjson.dumps(engine.events_for(ev, seat)).decode(), hidden)
        assert not found, (seat, "events", found, engine.events_for(ev, seat))


def check_deadline_and_views(g: Game) -> None:
    """deadline() is the next instant at which advance() changes something (R7.6, P1, P2);
    a view at any time changes nothing (R7.8)."""
    before = dump(g.state)
    later = g.now + g.rng.uniform(0, 200)
    engine.view(g.state, g.rng.choice((0, 1, None)), later)
    assert dump(g.state) == before
    d = engine.deadline(g.state)
    if d is None:
        assert dump(engine.advance(g.state, g.now + 1000.0)[0]) == before
        return
    assert d >= g.now
    if d - 0.001 > g.now:
        assert dump(engine.advance(g.state, d - 0.001)[0]) == before
    assert dump(engine.advance(g.state, d)[0]) != before
    assert dump(g.state) == before


def check_json_round_trip(g: Game) -> None:
    data = engine.to_json(g.state)
    text = json.dumps(data, sort_keys=True)
    again = engine.from_json(json.loads(text))
    assert json.dumps(engine.to_json(again), sort_keys=True) == text
    g.state = again  # carry on with the round-tripped state: it must behave the same


def legal_matches(action: Any, legal: list[dict[str, Any]]) -> bool:
    if not isinstance(action, dict):
        return False
    want = dict(action)
    if "tile" in want and isinstance(want["tile"], str):
        want["tile"] = norm(want["tile"])
    for a in legal:
        have = dict(a)
        if "tile" in have:
            have["tile"] = norm(have["tile"])
        if "end" not in want:
            have.pop("end", None)
        if have == want:
            return True
    return False


ENDS = ["left", "right", "up", "down", None, "middle", 3]
AMOUNTS = [0, 5, 10, 13, 15, 17, 20, 25, 30, 35, 45, 60, 150, 155, 300, 305, -5, "20", 20.5, None]
MALFORMED = [
    {},
    {"do": "fly"},
    {"do": "pass"},
    "play",
    None,
    42,
    ["draw"],
    {"do": "play", "tile": 64},
    {"do": "play", "tile": "9-9", "end": "left"},
    {"do": "play", "tile": "6-4", "end": 7},
    {"do": "bid"},
    {"do": "lead"},
    {"do": 7},
]


PHASE_DOS = {
    "play": ["play", "play", "play", "draw"],
    "lead": ["lead", "lead", "play"],
    "auction": ["bid", "raise", "raise", "accept", "renounce"],
    "round_over": ["continue", "play"],
    "start": ["start", "draw"],
}


def random_request(g: Game) -> tuple[int, Any]:
    """A request that is usually aimed at the current situation, often illegal."""
    rng = g.rng
    view = g.public_view()
    seat = view["to_act"]
    if seat is None or rng.random() < 0.3:
        seat = rng.randint(0, 1)
    if rng.random() < 0.12:
        return seat, rng.choice(MALFORMED)
    dos = PHASE_DOS.get(view["phase"], [])
    do = rng.choice(dos) if dos and rng.random() < 0.8 else rng.choice(ALL_DOS)
    req: dict[str, Any] = {"do": do}
    if do in ("play", "lead"):
        hand = engine.view(g.state, seat, g.now)["hand"] or []
        t = rng.choice(hand) if hand and rng.random() < 0.6 else rng.choice(ALL_TILES)
        req["tile"] = t if rng.random() < 0.5 else "-".join(reversed(t.split("-")))
        end = rng.choice(ENDS)
        if do == "play" and end is not None:
            req["end"] = end
    elif do in ("bid", "raise"):
        req["amount"] = rng.choice(AMOUNTS)
    return seat, req


ALL_DOS = ["play", "lead", "draw", "bid", "raise", "accept", "renounce", "start", "continue"]
ALL_DOS += ["reveal"]


def check_random_requests(g: Game, count: int) -> None:
    for _ in range(count):
        seat, req = random_request(g)
        before = dump(g.state)
        try:
            after, _ = engine.apply(g.state, seat, req, g.now)
        except engine.RuleError as err:
            assert err.code in engine.ERROR_CODES, err.code
            assert dump(g.state) == before, req
        else:
            assert dump(g.state) == before, "apply mutated the state it was given"
            assert legal_matches(req, engine.legal_actions(g.state, seat)), (seat, req)
            assert after is not g.state


def check_every_legal_action_accepted(g: Game) -> None:
    before = dump(g.state)
    for seat, action in g.options():
        engine.apply(g.state, seat, action, g.now)  # raises if a listed action is refused
    assert dump(g.state) == before


# --- the properties --------------------------------------------------------------------


@settings(max_examples=50, **SETTINGS)
@given(seed=SEEDS)
def test_points_tiles_and_legal_actions_over_many_games(seed):
    """Per example 25 full games: 300 points, no negative balance, 28 tiles, legal accepted."""
    for game_seed in game_seeds(seed, 25):
        before = None
        for g, _kind, ev in play(game_seed):
            before = before or list(g.params["balances"])
            check_points_and_tiles(g)
            after = balances_of(g)
            check_events_move_points(before, ev, after)
            before = after


@settings(max_examples=40, **SETTINGS)
@given(seed=SEEDS)
def test_secrecy_illegal_requests_and_json_round_trip(seed):
    """Per example 3 games with every check at every step."""
    for game_seed in game_seeds(seed, 3):
        for g, kind, ev in play(game_seed):
            check_secrecy(g, ev)
            check_deadline_and_views(g)
            if kind == "apply" or g.rng.random() < 0.3:
                check_random_requests(g, 3)
            if g.rng.random() < 0.3:
                check_every_legal_action_accepted(g)
            check_json_round_trip(g)


def replay(params: dict[str, Any], inputs: list[tuple[str, int | None, Any, float]]) -> tuple:
    state = new_from(params)
    events = []
    for kind, seat, action, now in inputs:
        if kind == "advance":
            state, ev = engine.advance(state, now)
        else:
            state, ev = engine.apply(state, seat, action, now)
        events += ev
    return dump(state), events


@settings(max_examples=40, **SETTINGS)
@given(seed=SEEDS)
def test_same_inputs_give_same_outputs(seed):
    for game_seed in game_seeds(seed, 5):
        g = play_to_end(game_seed)
        first = (dump(g.state), g.all_events)
        assert replay(g.params, g.inputs) == first
        assert replay(g.params, g.inputs) == first


def to_scenario(g: Game) -> dict[str, Any] | None:
    rounds = [
        {"hands": e["hands"], "boneyard": e["boneyard"]}
        for e in g.all_events
        if e["type"] == "deal"
    ]
    if not rounds:
        return None
    steps = []
    for kind, seat, action, now in g.inputs:
        if kind == "advance":
            steps.append({"t": now, "do": "tick"})
        else:
            steps.append({"t": now, "player": seat, **action})
    return {
        "name": "random",
        "balances": list(g.params["balances"]),
        "banks": list(g.params["banks"]),
        "same_device": g.params["same_device"],
        "rounds": rounds,
        "steps": steps,
    }


@settings(max_examples=30, **SETTINGS)
@given(seed=SEEDS)
def test_scenario_replay_of_a_random_game_gives_the_same_result(seed):
    """The deals recorded in the deal events, replayed as a scenario, end the same way."""
    from games.engine.scenario import run_scenario

    for game_seed in game_seeds(seed, 4):
        g = play_to_end(game_seed)
        data = to_scenario(g)
        if data is None:
            continue
        out = run_scenario(data)
        assert all(s["ok"] for s in out["steps"]), [s for s in out["steps"] if not s["ok"]][:1]
        vs = engine.view(g.state, None, g.now)
        assert out["status"] == vs["status"]
        assert out["phase"] == vs["phase"]
        assert (out["winner"], out["reason"]) == (vs["winner"], vs["reason"])
        assert out["balances"] == [p["balance"] for p in vs["players"]]
        assert out["banks"] == pytest.approx([p["bank"] for p in vs["players"]])
        assert out["round"] == vs["round"]
