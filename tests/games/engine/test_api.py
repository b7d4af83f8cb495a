"""API-level tests of games.engine (docs/engine-api.md): secrecy, filtering, JSON, clocks,
same-device reveal, P1/P2/P3, request validation (that the engine never needs Django is
checked in a fresh interpreter: tests/system/test_pure_imports.py)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from games import engine
from games.engine import RuleError

# Copies of the spec's scenarios: a clone tests itself with nothing beside it.
SCENARIOS = Path(__file__).resolve().parent / "scenarios"
TILE = re.compile(r"\b[0-6]-[0-6]\b")


def load(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / name).read_text(encoding="utf-8"))


def game_from(data: dict[str, Any], **overrides: Any) -> engine.State:
    kwargs: dict[str, Any] = {
        "deals": data["rounds"],
        "balances": data.get("balances", (150, 150)),
        "banks": data.get("banks", (120, 120)),
        "same_device": data.get("same_device", False),
        "created_at": 0.0,
    }
    kwargs.update(overrides)
    return engine.new_game(**kwargs)


def replay(
    data: dict[str, Any], upto: int | None = None, state: engine.State | None = None
) -> tuple[engine.State, list[tuple[engine.State, list[dict[str, Any]]]]]:
    """Apply a scenario's steps through the public API; refused steps are skipped."""
    st = state if state is not None else game_from(data)
    history = []
    for step in data["steps"][:upto]:
        st, timed = engine.advance(st, step["t"])
        if step["do"] != "tick":
            action = {k: v for k, v in step.items() if k not in ("t", "player")}
            try:
                st, events = engine.apply(st, step["player"], action, step["t"])
            except RuleError:
                events = []
            timed = timed + events
        history.append((st, timed))
    return st, history


def started(name: str = "01-rank-lead-and-spinner-count.json", **overrides: Any) -> engine.State:
    st = game_from(load(name), **overrides)
    st, _ = engine.apply(st, 0, {"do": "start"}, 0.0)
    st, _ = engine.apply(st, 1, {"do": "start"}, 1.0)
    return st


def hidden_tiles(st: engine.State, seat: int | None) -> set[str]:
    """Tiles `seat` must not see: the other hand(s) and what is left in the boneyard."""
    d = engine.to_json(st)
    hidden = set(d["boneyard"][d["drawn"] :])
    for s in (0, 1):
        if s != seat:
            hidden |= set(d["hands"][s])
    return hidden


def tiles_in(obj: Any) -> set[str]:
    found = set(TILE.findall(json.dumps(obj)))
    return {f"{max(a, b)}-{min(a, b)}" for a, _, b in found}


# --------------------------------------------------------------------------- purity


def test_apply_never_mutates_its_input_legal_or_not() -> None:
    st = started()
    before = engine.to_json(st)
    engine.apply(st, 1, {"do": "play", "tile": "0-5", "end": "right"}, 3.0)
    assert engine.to_json(st) == before
    with pytest.raises(RuleError):
        engine.apply(st, 0, {"do": "play", "tile": "0-4", "end": "right"}, 3.0)
    with pytest.raises(RuleError):
        engine.apply(st, 1, {"do": "draw"}, 500.0)  # the flag falls first, then game_over
    assert engine.to_json(st) == before


def test_rule_error_carries_code_and_sentence() -> None:
    st = started()
    with pytest.raises(RuleError) as info:
        engine.apply(st, 0, {"do": "draw"}, 2.0)
    assert info.value.code == "not_your_turn"
    assert info.value.code in engine.ERROR_CODES
    assert info.value.message.endswith(".")


# --------------------------------------------------------------------------- secrecy


def test_R2_4_seat_view_shows_own_hand_and_no_hidden_tile() -> None:
    st = started()
    st, _ = engine.apply(st, 1, {"do": "play", "tile": "0-5", "end": "right"}, 3.0)
    for seat in (0, 1):
        v = engine.view(st, seat, 4.0)
        assert v["seat"] == seat
        assert set(v["hand"]) == set(engine.to_json(st)["hands"][seat])
        assert not tiles_in(v) & hidden_tiles(st, seat)
    assert engine.view(st, 0, 4.0)["hand"] == ["1-0", "2-1", "3-2", "4-0", "6-0", "6-4"]


def test_R2_4_spectator_view_has_no_hand_and_no_hidden_tile() -> None:
    st = started()
    v = engine.view(st, None, 2.0)
    assert v["hand"] is None and v["seat"] is None and v["legal"] == []
    assert not tiles_in(v) & hidden_tiles(st, None)


def test_R2_4_drawn_tile_is_secret_except_to_drawer() -> None:
    data = load("03-draw-until-playable.json")
    st, history = replay(data, upto=4)  # seat 1 has drawn 5-0
    _, events = history[-1]
    draw = next(e for e in events if e["type"] == "draw")
    assert draw["tile"] == "5-0"
    assert engine.events_for(events, 1)[0]["tile"] == "5-0"
    assert engine.events_for(events, 0)[0]["tile"] is None
    assert engine.events_for(events, None)[0]["tile"] is None
    assert "5-0" not in tiles_in(engine.view(st, 0, 5.0))
    assert "5-0" in engine.view(st, 1, 5.0)["hand"]
    assert draw["tile"] == "5-0", "events_for must not edit the events it was given"


def test_must_play_is_shown_only_to_the_drawer() -> None:
    data = load("03-draw-until-playable.json")
    st, _ = replay(data, upto=6)  # seat 1 drew 6-5, which fits
    assert engine.view(st, 1, 12.0)["must_play"] == "6-5"
    assert engine.view(st, 0, 12.0)["must_play"] is None
    # R5.2: only the drawn tile, once per end it fits (the 6-6 spinner is alone on the table).
    assert engine.legal_actions(st, 1)[:-1] == [
        {"do": "play", "tile": "6-5", "end": "left"},
        {"do": "play", "tile": "6-5", "end": "right"},
    ]
    with pytest.raises(RuleError) as info:
        engine.apply(st, 1, {"do": "play", "tile": "3-4", "end": "right"}, 13.0)
    assert info.value.code == "illegal_tile"


def test_deal_event_shows_only_the_viewers_hand() -> None:
    st = game_from(load("01-rank-lead-and-spinner-count.json"))
    st, _ = engine.apply(st, 0, {"do": "start"}, 0.0)
    _, events = engine.apply(st, 1, {"do": "start"}, 1.0)
    deal = next(e for e in events if e["type"] == "deal")
    assert len(deal["boneyard"]) == 14
    for seat in (0, 1):
        mine = next(e for e in engine.events_for(events, seat) if e["type"] == "deal")
        assert mine["hands"][seat] == deal["hands"][seat]
        assert mine["hands"][1 - seat] is None
        assert mine["boneyard"] is None and mine["boneyard_left"] == 14
        assert mine["hand_counts"] == [7, 7]
    public = next(e for e in engine.events_for(events, None) if e["type"] == "deal")
    assert public["hands"] == [None, None] and public["boneyard"] is None


def test_last_round_shows_both_hands_after_the_close() -> None:
    st, _ = replay(load("05-domino-auction-jockey-discount.json"), upto=14)
    assert st.phase == "round_over"
    v = engine.view(st, 1, 63.0)
    summary = v["last_round"]
    assert summary["reason"] == "domino" and summary["round"] == 1
    assert summary["hands"][0] == []
    assert summary["hands"][1] == ["1-0", "2-2", "3-3", "4-4", "5-3", "6-1"] or summary["hands"][1]
    assert summary["totals"][1] == sum(
        int(a) + int(b) for a, b in (t.split("-") for t in summary["hands"][1])
    )
    assert {"payer": 0, "payee": 1, "points": 10, "why": "score"} in summary["payments"]
    assert v["continue_at"] == pytest.approx(92.7)
    v["last_round"]["hands"][1].clear()  # a view is the caller's to edit
    assert engine.view(st, 1, 63.0)["last_round"]["hands"][1]


def test_view_schema_keys() -> None:
    st = started()
    v = engine.view(st, 1, 2.0)
    keys = {
        *("status", "phase", "round", "seat", "same_device", "players", "to_act"),
        *("awaiting_reveal", "clock", "deadline", "now", "board", "hand", "must_play", "legal"),
        *("boneyard_left", "auction", "jockey", "winner", "reason", "last_round"),
        *("continue_at", "start_deadline"),
    }
    assert keys <= set(v)
    assert set(v["players"][0]) >= {"balance", "bank", "hand_count", "started", "continued"}
    assert v["board"]["lead"] == {"tile": "5-5", "inner": 5, "outer": 5, "double": True}
    assert v["board"]["spinner"] == {"tile": "5-5", "arm": "lead", "index": 0}
    assert sum(e["counts"] for e in v["board"]["ends"]) == v["board"]["count"] == 10
    assert v["clock"] == {"running": 1, "decision_start": 1.0, "delay_end": 11.0, "flag_at": 131.0}
    json.dumps(v)


# --------------------------------------------------------------------------- JSON


def _roundtrip_ok(st: engine.State) -> engine.State:
    d = engine.to_json(st)
    text = json.dumps(d)
    back = engine.from_json(json.loads(text))
    assert engine.to_json(back) == d
    assert json.dumps(engine.to_json(back)) == text
    return back


@pytest.mark.parametrize("name", sorted(p.name for p in SCENARIOS.glob("*.json")))
def test_json_round_trip_at_every_step_of_every_scenario(name: str) -> None:
    data = load(name)
    st = _roundtrip_ok(game_from(data))
    for step in data["steps"]:
        twin = _roundtrip_ok(st)
        action = {k: v for k, v in step.items() if k not in ("t", "player")}
        outcomes = []
        for s in (st, twin):
            try:
                if step["do"] == "tick":
                    outcomes.append(engine.advance(s, step["t"]))
                else:
                    outcomes.append(engine.apply(s, step["player"], action, step["t"]))
            except RuleError as err:
                outcomes.append(err.code)
        if isinstance(outcomes[0], str):
            assert outcomes[1] == outcomes[0]
            st, _ = engine.advance(st, step["t"])
        else:
            assert not isinstance(outcomes[1], str)
            assert engine.to_json(outcomes[0][0]) == engine.to_json(outcomes[1][0])
            assert outcomes[0][1] == outcomes[1][1]
            st = outcomes[0][0]


def test_json_round_trip_and_identical_behaviour_in_random_games() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        st = engine.new_game(rng=random.Random(seed), created_at=0.0)
        now = 0.0
        for _ in range(400):
            if st.status != "playing" and st.status != "waiting":
                break
            now += 0.5
            seats = [s for s in (0, 1) if len(engine.legal_actions(st, s)) > 1]
            seat = rng.choice(seats)
            action = rng.choice(engine.legal_actions(st, seat)[:-1])
            twin = _roundtrip_ok(st)
            st, events = engine.apply(st, seat, action, now)
            twin, twin_events = engine.apply(twin, seat, action, now)
            assert events == twin_events
            assert engine.to_json(twin) == engine.to_json(st)
        assert st.round >= 1


def test_random_deals_are_recorded_and_replayable() -> None:
    st = engine.new_game(rng=random.Random(7), created_at=0.0)
    st, _ = engine.apply(st, 0, {"do": "start"}, 0.0)
    st, events = engine.apply(st, 1, {"do": "start"}, 0.0)
    # The deal event records the whole deal; the state keeps no deal once dealt.
    assert engine.to_json(st)["deals"] == []
    deal = next(e for e in events if e["type"] == "deal")
    recorded = [{"hands": deal["hands"], "boneyard": deal["boneyard"]}]
    again = engine.new_game(deals=recorded, created_at=0.0)
    again, _ = engine.apply(again, 0, {"do": "start"}, 0.0)
    again, events2 = engine.apply(again, 1, {"do": "start"}, 0.0)
    assert events2 == events
    # The same state dealt twice (two branches) deals the same tiles: no shared generator.
    base = engine.new_game(rng=random.Random(8), created_at=0.0)
    base, _ = engine.apply(base, 0, {"do": "start"}, 0.0)
    a, _ = engine.apply(base, 1, {"do": "start"}, 0.0)
    b, _ = engine.apply(base, 1, {"do": "start"}, 0.0)
    assert engine.to_json(a) == engine.to_json(b)


def test_default_rng_deals_differ_between_games() -> None:
    firsts = set()
    for _ in range(5):
        st = engine.new_game(created_at=0.0)
        st, _ = engine.apply(st, 0, {"do": "start"}, 0.0)
        st, events = engine.apply(st, 1, {"do": "start"}, 0.0)
        deal = next(e for e in events if e["type"] == "deal")
        firsts.add(json.dumps([deal["hands"], deal["boneyard"]]))
    assert len(firsts) > 1


# --------------------------------------------------------------------------- clock


def test_R7_6_deadline_values_through_a_game() -> None:
    st = game_from(load("03-draw-until-playable.json"))
    assert engine.deadline(st) == 60.0  # P1
    st, _ = engine.apply(st, 0, {"do": "start"}, 0.0)
    assert engine.deadline(st) == 60.0
    st, _ = engine.apply(st, 1, {"do": "start"}, 0.5)
    assert engine.deadline(st) == pytest.approx(0.5 + 10 + 120)
    st, _ = engine.apply(st, 1, {"do": "draw"}, 5.0)
    assert engine.deadline(st) == pytest.approx(130.5)  # R7.3: a draw does not renew the delay
    st, _ = engine.apply(st, 1, {"do": "draw"}, 9.0)
    st, _ = engine.apply(st, 1, {"do": "draw"}, 12.0)
    assert engine.view(st, 0, 14.0)["players"][1]["bank"] == pytest.approx(116.5)
    st, _ = engine.apply(st, 1, {"do": "play", "tile": "5-6", "end": "right"}, 14.0)
    assert engine.deadline(st) == pytest.approx(14.0 + 10 + 120)  # seat 0 fresh delay
    assert st.banks[1] == pytest.approx(116.5)  # R7.4: 13.5 s cost 3.5 s
    nothing, events = engine.advance(st, 143.99)
    assert nothing is st and events == []
    flagged, events = engine.advance(st, 144.0)
    assert [e["type"] for e in events] == ["flag", "game_over"]
    assert flagged.winner == 1 and flagged.reason == "time" and flagged.banks[0] == 0.0
    assert engine.deadline(flagged) is None


def test_R7_6_a_move_at_the_flag_instant_loses() -> None:
    st = started(banks=(5, 120))
    st, _ = engine.apply(st, 1, {"do": "play", "tile": "0-5", "end": "right"}, 3.0)
    assert engine.deadline(st) == 18.0
    with pytest.raises(RuleError) as info:
        engine.apply(st, 0, {"do": "play", "tile": "0-4", "end": "right"}, 18.0)
    assert info.value.code == "game_over"
    ok, _ = engine.apply(st, 0, {"do": "play", "tile": "0-4", "end": "right"}, 17.999)
    assert ok.banks[0] == pytest.approx(5 - 4.999)


def test_R7_9_automatic_lead_takes_no_time_and_clock_starts_at_start() -> None:
    st = started()
    assert st.clock_start == 1.0 and st.to_act == 1 and st.banks == (120.0, 120.0)


# --------------------------------------------------------------------------- same device


def test_R7_7_same_device_reveal() -> None:
    data = load("07-same-device-handover.json")
    st = game_from(data)
    st, _ = engine.apply(st, 0, {"do": "start"}, 0.0)
    st, _ = engine.apply(st, 1, {"do": "start"}, 2.9)
    v = engine.view(st, 0, 30.0)
    assert v["awaiting_reveal"] is True and v["to_act"] == 0 and v["clock"] is None
    assert engine.deadline(st) is None
    assert engine.legal_actions(st, 0) == [{"do": "reveal"}, {"do": "resign"}]
    assert engine.legal_actions(st, 1) == [{"do": "resign"}]
    for seat, action, code in (
        (0, {"do": "play", "tile": "6-1", "end": "right"}, "wrong_phase"),
        (1, {"do": "reveal"}, "not_your_turn"),
        (1, {"do": "play", "tile": "6-0", "end": "left"}, "not_your_turn"),
    ):
        with pytest.raises(RuleError) as info:
            engine.apply(st, seat, action, 30.0)
        assert info.value.code == code
    # The clock does not run before the reveal, however long it takes.
    st, events = engine.apply(st, 0, {"do": "reveal"}, 500.0)
    assert events == [{"type": "reveal", "t": 500.0, "player": 0}]
    assert engine.deadline(st) == pytest.approx(500.0 + 10 + 120)
    with pytest.raises(RuleError) as info:
        engine.apply(st, 0, {"do": "reveal"}, 501.0)
    assert info.value.code == "wrong_phase"
    st, _ = engine.apply(st, 0, {"do": "play", "tile": "6-1", "end": "right"}, 515.0)
    assert st.banks[0] == pytest.approx(115.0)
    assert engine.view(st, 1, 600.0)["awaiting_reveal"] is True
    resigned, _ = engine.apply(st, 1, {"do": "resign"}, 600.0)
    assert resigned.winner == 0 and resigned.reason == "resign"


def test_reveal_is_refused_in_a_two_device_game() -> None:
    st = started()
    with pytest.raises(RuleError) as info:
        engine.apply(st, 1, {"do": "reveal"}, 2.0)
    assert info.value.code == "wrong_phase"


# --------------------------------------------------------------------------- P1, P2, P3


def test_P1_abort_when_both_have_not_pressed_start() -> None:
    st = engine.new_game(created_at=100.0)
    st, _ = engine.apply(st, 0, {"do": "start"}, 110.0)
    assert engine.view(st, 0, 110.0)["start_deadline"] == 160.0
    same, events = engine.advance(st, 159.9)
    assert same is st and events == []
    aborted, events = engine.advance(st, 165.0)
    assert aborted.status == "aborted" and aborted.winner is None and aborted.reason == "abort"
    assert [e["type"] for e in events] == ["abort", "game_over"]
    assert events[0]["t"] == 160.0
    with pytest.raises(RuleError) as info:
        engine.apply(st, 1, {"do": "start"}, 160.0)
    assert info.value.code == "game_over"
    with pytest.raises(RuleError) as info:
        engine.apply(st, 0, {"do": "start"}, 120.0)
    assert info.value.code == "wrong_phase"  # a second start


def _after_domino() -> tuple[engine.State, dict[str, Any]]:
    data = load("05-domino-auction-jockey-discount.json")
    st, _ = replay(data, upto=14)
    assert st.phase == "round_over" and st.jockey == 0 and st.closed_at == 62.7
    return st, data


def test_P2_auto_continue_at_close_plus_30() -> None:
    st, _ = _after_domino()
    assert engine.deadline(st) == pytest.approx(92.7)
    same, events = engine.advance(st, 92.6)
    assert same is st and not events
    st2, events = engine.advance(st, 100.8)
    assert st2.round == 2 and st2.phase == "auction" and st2.to_act == 1
    deal = next(e for e in events if e["type"] == "deal")
    assert deal["t"] == pytest.approx(92.7)
    assert st2.clock_start == pytest.approx(92.7)  # not at the later step's time
    assert engine.view(st2, 1, 103.0)["players"][1]["bank"] == pytest.approx(119.7)


def test_P2_continue_when_both_press() -> None:
    st, _ = _after_domino()
    st, events = engine.apply(st, 1, {"do": "continue"}, 70.0)
    assert st.phase == "round_over" and [e["type"] for e in events] == ["continue"]
    assert engine.legal_actions(st, 1) == [{"do": "resign"}]
    with pytest.raises(RuleError) as info:
        engine.apply(st, 1, {"do": "continue"}, 71.0)
    assert info.value.code == "wrong_phase"
    st, events = engine.apply(st, 0, {"do": "continue"}, 72.0)
    assert st.round == 2 and st.phase == "auction" and st.clock_start == 72.0
    a = engine.view(st, 1, 72.0)["auction"]
    assert a["jockey"] == 0 and a["rival"] == 1 and a["bid"] is None
    assert a["min_bid"] == 15 and a["max_bid"] == 165 and a["net_cost"]["165"] == 165
    assert a["loses_if_accepted"] == [165]  # R6.6: the whole balance
    assert engine.view(st, 0, 72.0)["auction"]["net_cost"] is None
    assert engine.view(st, 0, 72.0)["auction"]["loses_if_accepted"] is None


def _phase_states() -> dict[str, tuple[engine.State, float]]:
    data = load("05-domino-auction-jockey-discount.json")
    states: dict[str, tuple[engine.State, float]] = {}
    st = game_from(data)
    states["start"] = (st, 0.0)
    st, history = replay(data)
    by_phase = {"play": 2, "round_over": 13, "auction": 15, "lead": 17}
    for phase, index in by_phase.items():
        states[phase] = (history[index][0], data["steps"][index]["t"])
        assert states[phase][0].phase == phase
    return states


@pytest.mark.parametrize("phase", ["start", "play", "round_over", "auction", "lead"])
@pytest.mark.parametrize("seat", [0, 1])
def test_P3_resign_in_every_phase(phase: str, seat: int) -> None:
    st, t = _phase_states()[phase]
    assert {"do": "resign"} in engine.legal_actions(st, seat)
    over, events = engine.apply(st, seat, {"do": "resign"}, t + 1)
    assert over.status == "finished" and over.phase == "finished"
    assert over.winner == 1 - seat and over.reason == "resign"
    assert [e["type"] for e in events][-2:] == ["resign", "game_over"]
    assert engine.legal_actions(over, seat) == []
    with pytest.raises(RuleError) as info:
        engine.apply(over, 1 - seat, {"do": "resign"}, t + 2)
    assert info.value.code == "game_over"
    if phase in ("play", "auction", "lead"):
        assert over.last_round is not None and over.last_round["reason"] == "resign"


# --------------------------------------------------------------------------- auction


def test_R6_5_jockey_discount_and_R6_4_leader_leads_any_tile() -> None:
    data = load("05-domino-auction-jockey-discount.json")
    st, history = replay(data, upto=18)
    accept = next(e for e in history[-1][1] if e["type"] == "accept")
    assert accept == {
        "type": "accept",
        "t": 118.4,
        "player": 1,
        "payer": 0,
        "amount": 35,
        "bid": 50,
    }
    assert st.balances == (100, 200) and st.phase == "lead" and st.to_act == 0
    leads = engine.legal_actions(st, 0)[:-1]
    assert [a["tile"] for a in leads] == engine.view(st, 0, 119.0)["hand"]


def test_R6_3_every_legal_amount_is_listed_and_accepted() -> None:
    st, _ = _after_domino()
    st, _ = engine.advance(st, 93.0)
    legal = engine.legal_actions(st, 1)
    bids = [a["amount"] for a in legal if a["do"] == "bid"]
    assert legal[0] == {"do": "renounce"} and legal[-1] == {"do": "resign"}
    assert bids == list(range(15, 166, 5))
    for action in legal:
        engine.apply(st, 1, action, 95.0)
    for amount, code in ((10, "bad_bid"), (17, "bad_bid"), (170, "bad_bid")):
        with pytest.raises(RuleError) as info:
            engine.apply(st, 1, {"do": "bid", "amount": amount}, 95.0)
        assert info.value.code == code
    with pytest.raises(RuleError) as info:
        engine.apply(st, 1, {"do": "raise", "amount": 20}, 95.0)
    assert info.value.code == "wrong_phase"
    st, _ = engine.apply(st, 1, {"do": "bid", "amount": 100}, 95.0)
    raises = [a["amount"] for a in engine.legal_actions(st, 0) if a["do"] == "raise"]
    assert raises == list(range(105, 135 + 15 + 1, 5))  # R6.6: jockey's net cost <= 135
    assert engine.view(st, 0, 96.0)["auction"]["net_cost"]["150"] == 135
    # R6.6 with the jockey's discount: raising to 150 costs all of the jockey's 135.
    assert engine.view(st, 0, 96.0)["auction"]["loses_if_accepted"] == [150]
    for action, code in (
        ({"do": "renounce"}, "wrong_phase"),
        ({"do": "bid", "amount": 160}, "wrong_phase"),
        ({"do": "raise", "amount": 100}, "bad_bid"),
        ({"do": "raise", "amount": 155}, "bad_bid"),
    ):
        with pytest.raises(RuleError) as info:
            engine.apply(st, 0, action, 96.0)
        assert info.value.code == code


def _with_balances(st: engine.State, balances: list[int]) -> engine.State:
    d = engine.to_json(st)
    d["balances"] = balances
    return engine.from_json(d)


def test_R6_7_rival_without_funds_renounces_automatically() -> None:
    st, _ = _after_domino()
    st = _with_balances(st, [290, 10])
    st, events = engine.advance(st, 100.0)
    renounce = next(e for e in events if e["type"] == "renounce")
    assert renounce == {"type": "renounce", "t": pytest.approx(92.7), "player": 1, "auto": True}
    assert st.phase == "lead" and st.to_act == 0 and st.clock_start == pytest.approx(92.7)


def test_R6_7_jockey_unable_to_raise_accepts_automatically() -> None:
    st, _ = _after_domino()
    st = _with_balances(st, [20, 280])
    st, _ = engine.advance(st, 93.0)
    st, events = engine.apply(st, 1, {"do": "bid", "amount": 35}, 95.0)
    accept = events[-1]
    assert accept["type"] == "accept" and accept["auto"] is True and accept["payer"] == 1
    assert st.balances == (55, 245) and st.phase == "lead" and st.to_act == 1


def test_R6_6_paying_the_whole_balance_loses_before_leading() -> None:
    st, _ = _after_domino()
    st = _with_balances(st, [130, 170])
    st, _ = engine.advance(st, 93.0)
    st, _ = engine.apply(st, 1, {"do": "bid", "amount": 15}, 95.0)
    top = engine.legal_actions(st, 0)[-2]
    assert top == {"do": "raise", "amount": 145}  # net cost 130 = the whole balance
    st, _ = engine.apply(st, 0, top, 96.0)
    st, events = engine.apply(st, 1, {"do": "accept"}, 97.0)
    assert st.balances == (0, 300) and st.winner == 1 and st.reason == "points"
    assert [e["type"] for e in events] == ["accept", "game_over"]


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "action",
    [
        {"do": "dance"},
        {},
        {"do": "play", "tile": "7-7"},
        {"do": "play", "tile": "0-5", "end": "north"},
        {"do": "play", "tile": 5},
        {"do": "play"},
        {"do": "bid", "amount": "20"},
        {"do": "bid", "amount": True},
        {"do": "draw", "please": True},
        ["play"],
    ],
)
def test_malformed_requests_are_bad_requests(action: Any) -> None:
    st = started()
    with pytest.raises(RuleError) as info:
        engine.apply(st, 1, action, 2.0)
    assert info.value.code == "bad_request"


def test_bad_seat_is_a_bad_request() -> None:
    with pytest.raises(RuleError) as info:
        engine.apply(started(), 2, {"do": "draw"}, 2.0)
    assert info.value.code == "bad_request"


def test_end_required_when_a_tile_fits_two_ends() -> None:
    st = started()  # 5-5 spinner alone: 5-0 fits left and right
    with pytest.raises(RuleError) as info:
        engine.apply(st, 1, {"do": "play", "tile": "0-5"}, 2.0)
    assert info.value.code == "end_required"
    plays = [a for a in engine.legal_actions(st, 1) if a.get("tile") == "5-0"]
    assert plays == [
        {"do": "play", "tile": "5-0", "end": "left"},
        {"do": "play", "tile": "5-0", "end": "right"},
    ]


def test_error_messages_never_name_a_hidden_tile() -> None:
    st = started()
    hidden = hidden_tiles(st, 1)
    attempts = [{"do": "play", "tile": t} for t in hidden] + [
        {"do": "draw"},
        {"do": "lead", "tile": "6-6"},
    ]
    for action in attempts:
        with pytest.raises(RuleError) as info:
            engine.apply(st, 1, action, 2.0)
        named = tiles_in(info.value.message) - {action.get("tile", "").replace("x", "")}
        requested = {action["tile"]} if "tile" in action else set()
        canonical = {f"{max(t.split('-'))}-{min(t.split('-'))}" for t in requested}
        assert not (tiles_in(info.value.message) - canonical) & hidden, named


def test_every_legal_action_is_accepted_in_random_games() -> None:
    for seed in range(4):
        rng = random.Random(100 + seed)
        st = engine.new_game(rng=random.Random(seed), created_at=0.0, same_device=seed % 2 == 1)
        now = 0.0
        while st.status in ("waiting", "playing") and now < 2000:
            now += 0.3
            for seat in (0, 1):
                for action in engine.legal_actions(st, seat):
                    engine.apply(st, seat, action, now)  # raises if the list lied
            movers = [s for s in (0, 1) if len(engine.legal_actions(st, s)) > 1]
            seat = rng.choice(movers)
            st, _ = engine.apply(st, seat, rng.choice(engine.legal_actions(st, seat)[:-1]), now)
            assert sum(st.balances) == 300


def _scenario_01_after_lead() -> tuple[Any, float]:
    data = json.loads((SCENARIOS / "01-rank-lead-and-spinner-count.json").read_text())
    st = engine.new_game(deals=data["rounds"], created_at=0.0)
    st, _ = engine.apply(st, 0, {"do": "start"}, 0.0)
    st, _ = engine.apply(st, 1, {"do": "start"}, 1.0)
    return st, 1.0


def test_view_previews_the_count_and_score_of_every_legal_placement():
    st, now = _scenario_01_after_lead()  # [5|5] led by rank: spinner alone counts 10
    seat_view = engine.view(st, 1, now)
    assert seat_view["board"]["count"] == 10
    assert seat_view["board"]["scores"] == 10
    plays = [a for a in seat_view["legal"] if a["do"] == "play"]
    preview = seat_view["play_preview"]
    assert set(preview) == {f"{a['tile']}:{a['end']}" for a in plays}
    # [5|0] on either main arm: the spinner still counts 2 x 5, the new end counts 0 (R4.2).
    assert preview["5-0:right"] == {"count": 10, "points": 10}
    assert preview["5-0:left"] == {"count": 10, "points": 10}
    # Every preview matches what applying that play really does.
    for action in plays:
        after, events = engine.apply(st, 1, action, now + 1)
        expected = preview[f"{action['tile']}:{action['end']}"]
        assert after.board.count == expected["count"]
        scored = [e["count"] for e in events if e["type"] == "score"]
        assert scored == ([expected["points"]] if expected["points"] else [])


def test_view_previews_nothing_for_a_seat_that_is_not_to_act():
    st, now = _scenario_01_after_lead()
    assert engine.view(st, 0, now)["play_preview"] == {}
    assert engine.view(st, None, now)["play_preview"] == {}


def test_view_shows_both_seats_what_accepting_the_standing_bid_costs() -> None:
    data = load("05-domino-auction-jockey-discount.json")
    st, _ = replay(data, upto=17)  # the jockey (seat 0) has raised the rival's 35 to 50
    for seat in (0, 1, None):
        auction = engine.view(st, seat, 113.0)["auction"]
        assert auction["bid"] == 50 and auction["bidder"] == 0
        assert auction["accept_cost"] == 35  # R6.5: the jockey's own bid costs bid - 15


def test_given_deals_leave_the_state_as_they_are_dealt() -> None:
    deals = load("01-rank-lead-and-spinner-count.json")["rounds"][:1] * 2
    st = engine.new_game(deals=deals, created_at=0.0)
    assert len(engine.to_json(st)["deals"]) == 2
    st, _ = engine.apply(st, 0, {"do": "start"}, 0.0)
    st, _ = engine.apply(st, 1, {"do": "start"}, 0.0)
    assert engine.to_json(st)["deals"] == engine.to_json(engine.new_game(deals=deals[1:]))["deals"]


def test_a_format_1_state_is_read_with_only_its_deals_to_come() -> None:
    deals = load("01-rank-lead-and-spinner-count.json")["rounds"][:1] * 2
    st = engine.new_game(deals=deals, created_at=0.0)
    st, _ = engine.apply(st, 0, {"do": "start"}, 0.0)
    st, _ = engine.apply(st, 1, {"do": "start"}, 0.0)
    old = engine.to_json(st)
    # Format 1 kept the deals dealt too: here round 1's, before the one to come.
    old = {**old, "format": 1, "deals": [deals[0], *old["deals"]]}
    assert engine.to_json(engine.from_json(old)) == engine.to_json(st)
