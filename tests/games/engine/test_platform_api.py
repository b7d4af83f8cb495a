"""What the platform asks of the engine besides the rules (issue 10): `void` (R7.10), the
same-device seat and view (R7.7), the action vocabulary, and the rule numbers in every view."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games import engine
from games.engine import RuleError
from games.engine.scenario import ScenarioError, run_scenario
from tests.games.engine.conftest import DEAL_R2, domino_round, run, scenario, step
from tests.games.engine.test_api import hidden_tiles, load, started, tiles_in

VIEW_AUDIENCES: tuple[int | None, ...] = (0, 1, None)


def _roundtrip(st: engine.State) -> engine.State:
    d = engine.to_json(st)
    back = engine.from_json(json.loads(json.dumps(d)))
    assert engine.to_json(back) == d
    return back


# --------------------------------------------------------------------------- void (R7.10)


def test_void_while_waiting_cancels_with_one_event() -> None:
    st = engine.new_game(created_at=0.0)
    st, _ = engine.apply(st, 0, {"do": "start"}, 5.0)
    voided, events = engine.void(st, 7.0)
    assert events == [{"type": "void", "t": 7.0, "reason": "service_fault"}]
    assert voided.status == "cancelled" and voided.phase == "finished"
    assert voided.winner is None and voided.reason == "service_fault"
    assert engine.deadline(voided) is None
    assert engine.legal_actions(voided, 0) == engine.legal_actions(voided, 1) == []
    assert st.status == "waiting"  # the given state is never changed
    # The P1 abort that was due later no longer happens.
    same, later = engine.advance(voided, 500.0)
    assert same is voided and later == []


def test_void_mid_round_views_show_it_and_keep_every_secret() -> None:
    st = started()
    st, _ = engine.apply(st, 1, {"do": "play", "tile": "0-5", "end": "right"}, 3.0)
    voided, events = engine.void(st, 4.0, reason="admin")
    assert events == [{"type": "void", "t": 4.0, "reason": "admin"}]
    for seat in VIEW_AUDIENCES:
        v = engine.view(voided, seat, 9.0)
        assert v["status"] == "cancelled" and v["phase"] == "finished"
        assert v["reason"] == "admin" and v["winner"] is None
        assert v["to_act"] is None and v["legal"] == [] and v["play_preview"] == {}
        assert v["clock"] is None and v["deadline"] is None
        assert v["continue_at"] is None and v["start_deadline"] is None
        assert v["last_round"] is None  # the round did not finish: no hands are shown
        assert not tiles_in(v) & hidden_tiles(st, seat), seat
        assert engine.events_for(events, seat) == events
    assert engine.view(voided, 0, 9.0)["hand"] == engine.view(st, 0, 9.0)["hand"]
    # A resignation at the same moment closes the round and shows both hands: a void does not.
    resigned, _ = engine.apply(st, 1, {"do": "resign"}, 4.0)
    assert tiles_in(engine.view(resigned, 0, 9.0)) & hidden_tiles(st, 0)


def test_void_keeps_the_previous_rounds_summary_only() -> None:
    d, lines = domino_round(winner=0)
    out_state = engine.new_game(deals=[d, DEAL_R2], created_at=0.0)
    for line in lines:
        s = step(line)
        action = {k: v for k, v in s.items() if k not in ("t", "player")}
        out_state, _ = engine.apply(out_state, s["player"], action, s["t"])
    st, _ = engine.apply(out_state, 0, {"do": "continue"}, 20.0)
    st, _ = engine.apply(st, 1, {"do": "continue"}, 21.0)
    assert st.round == 2 and st.phase == "auction"
    voided, _ = engine.void(st, 22.0)
    for seat in VIEW_AUDIENCES:
        v = engine.view(voided, seat, 22.0)
        assert v["last_round"]["round"] == 1 and v["auction"] is None
        # Round 1's summary names round 1's tiles; round 2's hidden ones are named nowhere.
        public = {k: x for k, x in v.items() if k != "last_round"}
        assert not tiles_in(public) & hidden_tiles(st, seat)


def test_void_ignores_a_flag_that_fell_during_the_fault() -> None:
    st = started()  # seat 1's clock runs from 1.0: the flag falls at 131.0
    voided, events = engine.void(st, 200.0)
    assert voided.status == "cancelled" and [e["type"] for e in events] == ["void"]
    assert voided.banks == st.banks == (120.0, 120.0)
    assert engine.view(voided, 1, 300.0)["players"][1]["bank"] == 120.0


@pytest.mark.parametrize("how", ["abort", "void"])
def test_void_of_a_game_without_a_result_is_game_over(how: str) -> None:
    if how == "abort":
        over, _ = engine.advance(engine.new_game(created_at=0.0), 61.0)
    else:
        over, _ = engine.void(started(), 2.0)
    before = engine.to_json(over)
    with pytest.raises(RuleError) as info:
        engine.void(over, 3.0)
    assert info.value.code == "game_over"
    assert engine.to_json(over) == before


def test_void_of_a_finished_game_clears_the_result_and_reveals_nothing_new() -> None:
    # R7.10: a fault window that ends after the game did voids its result too.
    over, _ = engine.apply(started(), 0, {"do": "resign"}, 2.0)
    assert over.status == "finished" and over.winner == 1
    voided, events = engine.void(over, 3.0, reason="admin")
    assert events == [{"type": "void", "t": 3.0, "reason": "admin"}]
    assert voided.status == "cancelled" and voided.winner is None and voided.reason == "admin"
    assert engine.deadline(voided) is None
    assert engine.legal_actions(voided, 0) == engine.legal_actions(voided, 1) == []
    for seat in VIEW_AUDIENCES:
        before, after = engine.view(over, seat, 3.0), engine.view(voided, seat, 3.0)
        assert after["hand"] == before["hand"] and after["last_round"] == before["last_round"]
        assert after["status"] == "cancelled" and after["winner"] is None
    assert engine.to_json(_roundtrip(voided)) == engine.to_json(voided)
    with pytest.raises(RuleError) as info:
        engine.void(voided, 4.0)
    assert info.value.code == "game_over"


def test_after_a_void_every_request_is_game_over() -> None:
    voided, _ = engine.void(started(), 2.0)
    for seat in (0, 1):
        for action in ({"do": "resign"}, {"do": "play", "tile": "0-5", "end": "right"}):
            with pytest.raises(RuleError) as info:
                engine.apply(voided, seat, action, 3.0)
            assert info.value.code == "game_over"


@pytest.mark.parametrize("reason", ["", None, 3])
def test_void_needs_a_reason(reason: Any) -> None:
    with pytest.raises(ValueError):
        engine.void(started(), 2.0, reason=reason)


def test_void_round_trips_through_json() -> None:
    for st in (engine.new_game(created_at=0.0), started(), started(same_device=True)):
        voided, _ = engine.void(st, 5.0)
        back = _roundtrip(voided)
        assert engine.view(back, 0, 6.0) == engine.view(voided, 0, 6.0)
        assert engine.device_view(back, 6.0) == engine.device_view(voided, 6.0)


def test_scenario_void_step() -> None:
    rounds = [load("01-rank-lead-and-spinner-count.json")["rounds"][0]]
    out = run(rounds, ["0 0 start", "1 1 start", "500 - void", "501 1 resign", "502 - void"])
    voided = out["steps"][2]
    assert voided["ok"] is True and voided["status"] == "cancelled"
    # No clock look before a void: seat 1's flag (due at 131) never falls.
    assert [e["type"] for e in voided["events"]] == ["void"]
    assert voided["events"][0] == {"type": "void", "t": 500.0, "reason": "service_fault"}
    assert voided["banks"] == [120.0, 120.0]
    assert out["steps"][3]["error"] == "game_over" and out["steps"][4]["error"] == "game_over"
    assert out["status"] == "cancelled" and out["winner"] is None
    assert out["reason"] == "service_fault" and out["to_act"] is None


def test_scenario_void_step_reason_and_malformed_reason() -> None:
    rounds = [load("01-rank-lead-and-spinner-count.json")["rounds"][0]]
    data = scenario(rounds, ["0 0 start"])
    data["steps"].append({"t": 2, "do": "void", "reason": "admin"})
    assert run_scenario(data)["reason"] == "admin"
    data["steps"][-1]["reason"] = ""
    with pytest.raises(ScenarioError):
        run_scenario(data)


# --------------------------------------------------------------------------- same device


def _device_game() -> engine.State:
    """A same-device game with round 1 ending in a domino by seat 0 and round 2 auctioned."""
    d, _ = domino_round(winner=0)
    return engine.new_game(deals=[d, DEAL_R2], same_device=True, created_at=0.0)


def _play_revealing(st: engine.State, lines: list[str]) -> engine.State:
    """Plays the lines of a two-device round on one device: reveal whenever it is due."""
    for line in lines:
        s = step(line)
        if engine.view(st, s["player"], s["t"])["awaiting_reveal"]:
            st, _ = engine.apply(st, st.to_act, {"do": "reveal"}, s["t"])
        action = {k: v for k, v in s.items() if k not in ("t", "player")}
        st, _ = engine.apply(st, s["player"], action, s["t"])
    return st


def _check_device_view(st: engine.State, now: float, seat: int, *, hand: bool) -> dict[str, Any]:
    v = engine.device_view(st, now)
    assert engine.device_seat(st) == seat and v["seat"] == seat
    assert v["legal"] == engine.legal_actions(st, seat)
    if hand:
        assert v["hand"] == engine.view(st, seat, now)["hand"]
    else:
        assert v["hand"] is None and v["must_play"] is None
    # A closed round's summary shows that round's hands, which may name this round's tiles.
    public = {k: x for k, x in v.items() if k != "last_round"}
    assert not tiles_in(public) & hidden_tiles(st, seat if hand else None)
    return v


def test_device_seat_and_view_in_every_phase() -> None:
    st = _device_game()
    # Start (P1): nobody has pressed, then seat 0 has: the screen is the one yet to press.
    v = _check_device_view(st, 0.0, 0, hand=False)
    assert v["legal"] == [{"do": "start"}, {"do": "resign"}]
    st, _ = engine.apply(st, 0, {"do": "start"}, 0.0)
    _check_device_view(st, 0.5, 1, hand=False)
    _, lines = domino_round(winner=0)
    st = _play_revealing(st, lines[1:2])  # seat 1 presses Start: lead by rank, seat 1 to act
    assert st.to_act == 1
    # Awaiting the reveal: the seat to act, its hand not yet on screen.
    v = _check_device_view(st, 0.5, 1, hand=False)
    assert v["awaiting_reveal"] is True and v["legal"] == [{"do": "reveal"}, {"do": "resign"}]
    st, _ = engine.apply(st, 1, {"do": "reveal"}, 0.7)
    _check_device_view(st, 0.8, 1, hand=True)
    # Round over (P2): nobody to act; the screen is the first seat yet to press Continue.
    st = _play_revealing(st, lines[2:])
    assert st.phase == "round_over"
    v = _check_device_view(st, 13.0, 0, hand=False)
    assert v["last_round"]["hands"][0] == []
    st, _ = engine.apply(st, 0, {"do": "continue"}, 14.0)
    _check_device_view(st, 14.0, 1, hand=False)
    st, _ = engine.apply(st, 1, {"do": "continue"}, 15.0)
    # Auction: the rival decides first, after its reveal.
    assert st.phase == "auction" and st.to_act == 1
    v = _check_device_view(st, 15.0, 1, hand=False)
    assert v["auction"]["bid"] is None
    st, _ = engine.apply(st, 1, {"do": "reveal"}, 16.0)
    _check_device_view(st, 16.0, 1, hand=True)
    st, _ = engine.apply(st, 1, {"do": "bid", "amount": 20}, 17.0)
    _check_device_view(st, 17.0, 0, hand=False)  # the hand-over to the jockey
    # Game over: nobody to act, no choice left: seat 0, no hand.
    over, _ = engine.apply(st, 0, {"do": "resign"}, 18.0)
    v = _check_device_view(over, 19.0, 0, hand=False)
    assert v["legal"] == [] and v["status"] == "finished"
    voided, _ = engine.void(st, 18.0)
    v = _check_device_view(voided, 19.0, 0, hand=False)
    assert v["status"] == "cancelled" and v["legal"] == [] and v["last_round"]["round"] == 1


def test_device_resign_when_nobody_is_to_act_is_the_screens_seat() -> None:
    st = _device_game()
    st, _ = engine.apply(st, 0, {"do": "start"}, 0.0)
    seat = engine.device_seat(st)
    assert seat == 1  # the screen shows seat 1's Start button
    over, _ = engine.apply(st, seat, {"do": "resign"}, 1.0)
    assert over.winner == 0


def test_device_must_play_shows_only_after_the_reveal() -> None:
    st = _device_game()
    st, _ = engine.apply(st, 0, {"do": "start"}, 0.0)
    st, _ = engine.apply(st, 1, {"do": "start"}, 0.0)
    st, _ = engine.apply(st, 1, {"do": "reveal"}, 0.5)
    v = engine.device_view(st, 0.6)
    assert v["hand"] is not None and v["must_play"] is None


def test_device_view_in_random_same_device_games() -> None:
    """The screen's seat always has every choice there is; no hidden tile is ever on it."""
    for seed in range(3):
        rng = random.Random(300 + seed)
        st = engine.new_game(rng=random.Random(seed), same_device=True, created_at=0.0)
        now = 0.0
        while st.status in ("waiting", "playing") and now < 600:
            now += 0.4
            seat = engine.device_seat(st)
            choices = [a for a in engine.legal_actions(st, seat) if a["do"] != "resign"]
            for other in (0, 1):
                if other != seat:
                    others = engine.legal_actions(st, other)
                    assert all(a in choices for a in others if a["do"] != "resign")
            v = engine.device_view(st, now)
            revealed = st.to_act == seat and not v["awaiting_reveal"]
            assert (v["hand"] is not None) == revealed
            public = {k: x for k, x in v.items() if k != "last_round"}
            assert not tiles_in(public) & hidden_tiles(st, seat if revealed else None)
            assert choices, engine.to_json(st)
            st, _ = engine.apply(st, seat, rng.choice(choices), now)


# --------------------------------------------------------------------------- vocabulary


def test_actions_are_the_keys_of_action_keys_and_immutable() -> None:
    assert tuple(engine.ACTION_KEYS) == engine.ACTIONS
    assert set(engine.ACTIONS) == {
        *("start", "continue", "reveal", "play", "draw", "lead"),
        *("bid", "raise", "accept", "renounce", "resign"),
    }
    assert set(engine.DECISIONS) <= set(engine.ACTIONS)
    assert engine.MAX_ACTION_KEYS == 3
    with pytest.raises(TypeError):
        engine.ACTION_KEYS["fly"] = ()  # type: ignore[index]


@pytest.mark.parametrize("do", sorted(engine.ACTION_KEYS))
def test_every_action_is_known_to_apply_and_no_other_key(do: str) -> None:
    values = {"tile": "6-6", "end": "left", "amount": 15}
    action = {"do": do, **{k: values[k] for k in engine.ACTION_KEYS[do]}}
    assert len(action) <= engine.MAX_ACTION_KEYS
    st = started()
    try:
        engine.apply(st, 0, action, 2.0)
    except RuleError as err:
        assert err.code != "bad_request", err
    with pytest.raises(RuleError) as info:
        engine.apply(st, 0, {**action, "extra": 1}, 2.0)
    assert info.value.code == "bad_request"


def test_every_legal_action_uses_the_vocabulary() -> None:
    rng = random.Random(5)
    st = engine.new_game(rng=random.Random(5), created_at=0.0)
    now = 0.0
    while st.status in ("waiting", "playing") and now < 300:
        now += 0.5
        for seat in (0, 1):
            for action in engine.legal_actions(st, seat):
                assert set(action) - {"do"} <= set(engine.ACTION_KEYS[action["do"]])
        movers = [s for s in (0, 1) if len(engine.legal_actions(st, s)) > 1]
        seat = rng.choice(movers)
        st, _ = engine.apply(st, seat, rng.choice(engine.legal_actions(st, seat)[:-1]), now)


# --------------------------------------------------------------------------- rule numbers


def test_every_view_carries_the_rule_numbers() -> None:
    want = {
        "delay": 10.0,
        "bank": 120.0,
        "balance": 150,
        "min_bid": 15,
        "bid_step": 5,
        "jockey_discount": 15,
        "start_timeout": 60.0,
        "continue_timeout": 30.0,
    }
    assert dict(engine.RULES) == want
    st = started()
    views = [engine.view(st, s, 2.0) for s in VIEW_AUDIENCES]
    views.append(engine.device_view(started(same_device=True), 2.0))
    views.append(engine.view(engine.void(st, 3.0)[0], 0, 3.0))
    for v in views:
        assert v["rules"] == want
    views[0]["rules"]["delay"] = 0.0  # a view is the caller's to edit
    assert engine.view(st, 0, 2.0)["rules"]["delay"] == 10.0
    fresh = engine.new_game(created_at=0.0)
    assert fresh.balances == (want["balance"],) * 2 and fresh.banks == (want["bank"],) * 2
