"""One test (at least) per rule id of docs/rules/rules.en.md, plus every error code.

Most tests replay a hand-crafted deal through the scenario runner (docs/engine-api.md); the
comments give the counts worked out by hand from the rule book.  Steps are written in the
compact form of ``conftest.step``: ``"<t> <player> <do> [tile|amount] [end]"``.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from games import engine
from tests.games.engine.conftest import (
    ALL_TILES,
    DEAL_55,
    DEAL_R2,
    assert_refused,
    block_round,
    deal,
    domino_round,
    events,
    has_event,
    includes_in_order,
    norm,
    ok_steps,
    run,
    step,
)

START = ["0 0 start", "0 1 start"]

# p0 leads [6|6]; p1 6-4 right (16), p0 [4|4] right (8 + 12 = 20), p1 6-1 left (1 + 8 = 9),
# then p0's 4-2 fits only the right end.
DEAL_66_44 = deal("6-6 4-4 4-2 1-0 2-0 2-1 3-0", "6-4 6-1 3-1 3-2 0-0 1-1 2-2")
# p0 leads [5|5]; p1 5-0 right, p0 5-3 left, p1 5-2 up, p0 5-4 down.
DEAL_53 = deal("5-5 5-3 5-4 1-0 2-1 3-2 4-0", "5-0 5-2 1-1 4-2 4-3 3-1 6-2")
# p0 leads [6|6]; p1 holds no six, draws [3|1] then [6|2] (fits both main ends).
DEAL_DRAW = deal("6-6 6-5 6-4 6-3 6-1 6-0 5-0", "1-0 2-0 3-0 2-1 4-1 3-2 4-2", "3-1 6-2")
# p0 holds every six: p1 draws all 14 tiles, none fits, and passes.
DEAL_SIXES = deal("6-6 6-5 6-4 6-3 6-2 6-1 6-0", "0-0 1-1 2-2 3-3 4-4 5-5 5-4")
# No double in either hand; [6|5] is the highest tile: p0 leads it.  p1 has no 5 and no 6
# and draws [5|5], the first double, which becomes the spinner on the right arm.
DEAL_LATE_SPINNER = deal("6-5 5-4 5-3 6-0 6-1 4-0 3-1", "4-1 1-0 2-0 3-0 2-1 3-2 4-3", "5-5")
# No double in either hand, [6|4] is the highest tile (6-5 is in the boneyard).
DEAL_64 = deal("6-4 1-0 2-0 2-1 3-0 3-1 3-2", "5-4 6-3 5-2 6-1 4-1 4-0 4-2")

# Auction helpers: round 1 is domino_round (no score, closes at t = 12), both press
# Continue at 13 and 14, round 2 (DEAL_R2) starts with the auction at t = 14.
A = 16  # index of the first auction step
AUCTION_START = ["13 0 continue", "14 1 continue"]


def auction(lines: list[str], winner: int = 0, **extra: Any) -> dict[str, Any]:
    d1, l1 = domino_round(winner)
    return run([d1, DEAL_R2], l1 + AUCTION_START + lines, **extra)


# --- API helpers -----------------------------------------------------------------------


def new(rounds: list[dict[str, Any]], **kw: Any) -> Any:
    kw.setdefault("created_at", 0.0)
    return engine.new_game(deals=rounds, **kw)


def drive(state: Any, lines: list[str]) -> tuple[Any, list[dict[str, Any]]]:
    """Apply compact steps through the API (refusals raise); returns state and all events."""
    evs: list[dict[str, Any]] = []
    for line in lines:
        s = step(line)
        if s["do"] == "tick":
            state, ev = engine.advance(state, s["t"])
        else:
            action = {k: v for k, v in s.items() if k not in ("t", "player")}
            state, ev = engine.apply(state, s["player"], action, s["t"])
        evs += ev
    return state, evs


def started(rounds: list[dict[str, Any]], **kw: Any) -> Any:
    return drive(new(rounds, **kw), START)[0]


def dump(state: Any) -> str:
    return json.dumps(engine.to_json(state), sort_keys=True)


def board_tiles(board: dict[str, Any]) -> list[str]:
    tiles = [board["lead"]["tile"]] if board.get("lead") else []
    for arm in ("left", "right", "up", "down"):
        tiles += [p["tile"] for p in board.get(arm) or []]
    return tiles


# =======================================================================================
# 1. Points and counters
# =======================================================================================


def test_R1_1_each_player_starts_with_150_points():
    out = run([DEAL_55], ["0 0 start"])
    assert out["balances"] == [150, 150]
    assert out["status"] == "waiting" and out["phase"] == "start"
    v = engine.view(new([DEAL_55]), 0, 0.0)
    assert [p["balance"] for p in v["players"]] == [150, 150]


def test_R1_2_every_score_is_a_transfer_and_balances_sum_to_300():
    out = run([DEAL_55], [*START, "3 1 play 0-5 right"])
    # [5|5] lead counts 10 for p0, then 5-0 right: 0 + 10 (spinner, left arm empty) for p1.
    assert [s["balances"] for s in out["steps"]] == [[150, 150], [160, 140], [150, 150]]
    assert has_event(out["steps"][1], "score", player=0, count=10, points=10)
    assert has_event(out["steps"][2], "score", player=1, count=10, points=10)
    assert all(sum(s["balances"]) == 300 for s in out["steps"])


def test_R1_3_an_end_sum_of_15_transfers_15_points():
    # p1 leads [6|6] by rank; p0 plays 6-3 right: 3 + 12 (spinner, one main arm empty) = 15.
    d = deal("6-3 3-0 3-1 3-2 4-3 5-3 5-0", "6-6 1-0 2-0 2-1 4-0 4-1 4-2")
    out = run([d], [*START, "3 0 play 6-3 right"])
    assert out["steps"][1]["to_act"] == 0
    assert out["steps"][2]["balances"] == [165, 135]
    assert has_event(out["steps"][2], "score", player=0, count=15, points=15)


def test_R1_4_transfer_is_capped_at_the_payers_balance():
    # Count 20 ([4|4] at the right end 8 + spinner 12) while p1 has only 5.
    out = run([DEAL_66_44], [*START, "1 1 play 6-4 right", "2 0 play 4-4 right"], balances=[295, 5])
    s = out["steps"][3]
    assert has_event(s, "score", player=0, count=20, points=5)
    assert s["balances"] == [300, 0]


def test_R1_5_balance_reaching_zero_on_the_lead_ends_the_game():
    out = run([DEAL_55], [*START, "2 1 play 0-5 right"], balances=[290, 10])
    s = out["steps"][1]
    assert s["balances"] == [300, 0]
    assert s["phase"] == "finished" and s["to_act"] is None
    assert includes_in_order(
        s, [{"type": "score", "player": 0, "points": 10}, {"type": "game_over", "winner": 0}]
    )
    assert (out["status"], out["winner"], out["reason"]) == ("finished", 0, "points")
    assert_refused(out, 2, "game_over")


def test_R1_5_balance_reaching_zero_mid_round_ends_the_game_at_once():
    lines = [*START, "1 1 play 6-4 right", "2 0 play 4-4 right", "3 1 play 6-1 left"]
    out = run([DEAL_66_44], lines, balances=[295, 5])
    assert out["steps"][3]["phase"] == "finished"
    assert has_event(out["steps"][3], "game_over", winner=0, reason="points")
    assert (out["status"], out["winner"], out["reason"]) == ("finished", 0, "points")
    assert out["balances"] == [300, 0] and min(out["balances"]) >= 0
    assert_refused(out, 4, "game_over")


# =======================================================================================
# 2. Tiles, deal and lead by rank
# =======================================================================================


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_R2_1_every_round_deals_all_28_tiles_7_7_14(seed):
    g = drive(new(None, rng=random.Random(seed)), START)[0]
    v0, v1, vs = engine.view(g, 0, 0.0), engine.view(g, 1, 0.0), engine.view(g, None, 0.0)
    on_board = board_tiles(vs["board"])
    assert len(on_board) == 1  # the lead by rank
    assert sorted([len(v0["hand"]), len(v1["hand"])]) == [6, 7]
    assert vs["boneyard_left"] == 14
    seen = [norm(x) for x in v0["hand"] + v1["hand"] + on_board]
    assert len(set(seen)) == 14 and set(seen) <= set(ALL_TILES)


def test_R2_1_all_14_boneyard_tiles_can_be_drawn():
    lines = [*START] + [f"{0.5 * i} 1 draw" for i in range(1, 15)]
    out = run([DEAL_SIXES], lines)
    assert all(ok_steps(out))
    drawn = [e["tile"] for s in out["steps"][2:] for e in events(s, "draw", player=1)]
    assert drawn == DEAL_SIXES["boneyard"]
    assert out["boneyard_left"] == 0
    assert len(out["hands"][1]) == 21


def test_R2_2_highest_double_leads_automatically_whoever_holds_it():
    d = deal("2-2 1-1 6-5 6-4 6-3 5-4 1-0", "4-4 3-3 2-0 3-0 2-1 3-1 3-2")
    out = run([d], START)
    s = out["steps"][1]
    assert has_event(s, "lead", player=1, tile="4-4", auto=True)
    assert s["to_act"] == 0 and out["count"] == 8


def test_R2_2_any_double_beats_a_higher_non_double():
    d = deal("0-0 1-0 2-0 3-0 2-1 3-1 4-0", "6-5 6-4 6-3 5-4 5-3 4-3 6-2")
    out = run([d], START)
    assert has_event(out["steps"][1], "lead", player=0, tile="0-0", auto=True)
    assert out["to_act"] == 1


def test_R2_2_without_doubles_the_highest_pip_sum_leads():
    d = deal("5-4 1-0 2-0 3-0 2-1 3-1 4-0", "6-2 6-1 6-0 5-3 5-2 5-1 4-3")
    out = run([d], START)
    assert has_event(out["steps"][1], "lead", player=0, tile="5-4", auto=True)
    assert out["to_act"] == 1 and out["count"] == 9


def test_R2_2_equal_pip_sum_is_broken_by_the_higher_half():
    # [6|3] (p1) beats [5|4] (p0); every double is in the boneyard.
    d = deal("5-4 6-2 6-1 6-0 5-3 5-2 5-1", "6-3 4-3 4-2 4-1 4-0 3-2 3-1")
    out = run([d], START)
    assert has_event(out["steps"][1], "lead", player=1, tile="6-3", auto=True)
    assert out["to_act"] == 0 and out["count"] == 9


def test_R2_2_round_after_a_block_leads_by_rank_again():
    d1, lines = block_round(["3-2"])
    out = run([d1, DEAL_R2], [*lines, "40 0 continue", "41 1 continue"])
    s = out["steps"][-1]
    assert has_event(s, "lead", player=0, tile="6-6", auto=True)
    assert not has_event(s, "renounce") and s["phase"] == "play"
    assert out["jockey"] is None and out["round"] == 2


def test_R2_3_after_a_domino_the_auction_winner_leads_any_tile():
    # The jockey (p0) holds [6|6] and [5|5] but may lead [2|1]: count 3, no score.
    out = auction(["15 1 renounce", "16 0 lead 1-2"])
    assert out["steps"][A]["phase"] == "lead" and out["steps"][A]["to_act"] == 0
    s = out["steps"][A + 1]
    assert s["ok"] and has_event(s, "lead", player=0, tile="2-1")
    assert not events(s, "lead", auto=True)
    assert s["to_act"] == 1 and out["count"] == 3 and out["balances"] == [150, 150]


def test_R2_4_hands_and_boneyard_are_secret():
    g = started([DEAL_DRAW])
    g, ev = engine.apply(g, 1, {"do": "draw"}, 1.0)  # p1 draws [3|1]
    hand1 = set(engine.view(g, 1, 1.0)["hand"])
    assert "3-1" in hand1
    hidden_from_0 = hand1 | set(DEAL_DRAW["boneyard"][1:])
    for seat, hidden in ((0, hidden_from_0), (None, hidden_from_0 | set(DEAL_DRAW["hands"][0]))):
        text = json.dumps(engine.view(g, seat, 1.0)) + json.dumps(engine.events_for(ev, seat))
        leaked = [x for x in hidden if f'"{norm(x)}"' in text and x != "6-6"]
        assert leaked == [], (seat, leaked)
    assert engine.view(g, None, 1.0)["hand"] is None
    assert any(e.get("tile") == "3-1" for e in engine.events_for(ev, 1) if e["type"] == "draw")


# =======================================================================================
# 3. The board
# =======================================================================================


def test_R3_1_a_tile_goes_on_a_matching_end_with_the_matching_half_inward():
    lines = [*START, "1 1 play 1-1", "2 1 play 2-4 right", "3 1 play 0-5 right"]
    out = run([DEAL_55], lines)
    assert_refused(out, 2, "illegal_tile")  # fits no end
    assert_refused(out, 3, "illegal_tile")  # does not fit that end
    assert has_event(out["steps"][4], "play", player=1, tile="5-0", end="right")
    g = drive(new([DEAL_55]), lines[:2] + lines[4:])[0]
    board = engine.view(g, None, 3.0)["board"]
    assert board["right"][0]["tile"] == "5-0"
    assert (board["right"][0]["inner"], board["right"][0]["outer"]) == (5, 0)


def test_R3_2_spinner_lead_lateral_arms_open_only_after_both_main_arms():
    lines = [*START, "1 1 play 5-0 right", "2 0 play 5-3 up", "3 0 play 5-3 left"]
    lines += ["4 1 play 5-2 up"]
    out = run([DEAL_53], lines)
    assert_refused(out, 3, "illegal_tile")
    assert out["steps"][4]["ok"] and out["steps"][5]["ok"]
    assert has_event(out["steps"][5], "play", player=1, tile="5-2", end="up")


def test_R3_2_spinner_is_the_first_double_even_when_it_is_a_later_tile():
    lines = [
        *START,  # p0 leads [6|5] (left 6, right 5): 11
        "1 1 draw",  # [5|5], playable: must be played
        "2 1 play 5-5 right",  # 6 + 10 (spinner at the end) = 16
        "3 0 play 5-3 up",  # refused: the spinner's outer main arm is still empty
        "3.5 0 play 5-3 down",  # refused as well
        "4 0 play 5-4 right",  # both main arms occupied: spinner counts 0: 6 + 4 = 10
        "5 1 play 4-1 right",  # 6 + 1 = 7
        "6 0 play 5-3 up",  # 6 + 1 + 3 = 10
    ]
    out = run([DEAL_LATE_SPINNER], lines)
    assert has_event(out["steps"][1], "lead", player=0, tile="6-5", auto=True)
    assert out["steps"][1]["balances"] == [150, 150]
    assert has_event(out["steps"][2], "draw", player=1, tile="5-5")
    assert out["steps"][3]["ok"] and out["steps"][3]["balances"] == [150, 150]
    assert_refused(out, 4, "illegal_tile")
    assert_refused(out, 5, "illegal_tile")
    assert has_event(out["steps"][6], "score", player=0, count=10, points=10)
    assert not has_event(out["steps"][7], "score", player=1)
    assert has_event(out["steps"][8], "score", player=0, count=10, points=10)
    assert out["balances"] == [170, 130] and out["count"] == 10
    g = drive(new([DEAL_LATE_SPINNER]), [x for i, x in enumerate(lines) if i not in (4, 5)])[0]
    spinner = engine.view(g, None, 6.0)["board"]["spinner"]
    assert spinner["tile"] == "5-5" and spinner["arm"] == "right"


def test_R3_3_later_doubles_are_inline_and_never_branch():
    lines = [*START, "1 1 play 6-4 right", "2 0 play 4-4 right", "3 1 play 6-1 left"]
    lines += ["4 0 play 4-2 up", "5 0 play 4-2"]
    out = run([DEAL_66_44], lines)
    assert_refused(out, 5, "illegal_tile")  # 'up' is the spinner's lateral (6), not the [4|4]
    s = out["steps"][6]  # end left out: only the right end (the inline [4|4]) fits
    assert s["ok"] and has_event(s, "play", player=0, tile="4-2", end="right")
    assert out["count"] == 3  # left 1 + right 2; spinner and empty laterals count nothing


def test_R3_4_a_tile_fitting_several_ends_goes_where_the_player_chooses():
    out = run([DEAL_55], [*START, "1 1 play 0-5", "2 1 play 0-5 left"])
    assert_refused(out, 2, "end_required")
    assert has_event(out["steps"][3], "play", player=1, tile="5-0", end="left")
    lines = [*START, "1 1 play 6-4 right", "2 0 play 4-4 right", "3 1 play 6-1 left"]
    g = drive(new([DEAL_66_44]), lines)[0]
    ends = engine.view(g, 0, 3.0)["board"]["ends"]
    assert {e["end"] for e in ends} == {"left", "right", "up", "down"}


# =======================================================================================
# 4. Counting
# =======================================================================================


def test_R4_1_a_double_at_an_end_counts_both_halves():
    out = run([DEAL_66_44], [*START, "1 1 play 6-4 right", "2 0 play 4-4 right"])
    assert not has_event(out["steps"][2], "score")  # 4 + 12 = 16
    assert has_event(out["steps"][3], "score", player=0, count=20, points=20)
    assert out["balances"] == [170, 130] and out["count"] == 20


def test_R4_2_spinner_counts_both_halves_while_arm_open():
    out = run([DEAL_55], [*START, "3 1 play 0-5 right"])
    assert has_event(out["steps"][1], "score", player=0, count=10, points=10)
    assert has_event(out["steps"][2], "score", player=1, count=10, points=10)
    assert out["count"] == 10


def test_R4_3_spinner_counts_nothing_once_both_main_arms_occupied():
    lines = [*START, "1 1 play 5-0 right", "2 0 play 5-3 left", "3 1 play 5-2 up"]
    lines += ["4 0 play 5-4 down"]
    out = run([DEAL_53], lines)
    bal = [s["balances"] for s in out["steps"]]
    assert bal == [[150, 150], [160, 140], [150, 150], [150, 150], [145, 155], [145, 155]]
    assert not has_event(out["steps"][3], "score", player=0)  # 3 + 0, not 13, not 13 + laterals
    assert has_event(out["steps"][4], "score", player=1, count=5, points=5)  # 3 + 0 + 2
    assert out["count"] == 9  # 3 + 0 + 2 + 4


def test_R4_4_a_non_double_lead_counts_both_halves():
    out = run([DEAL_64], START)
    s = out["steps"][1]
    assert has_event(s, "lead", player=0, tile="6-4", auto=True)
    assert has_event(s, "score", player=0, count=10, points=10)
    assert s["balances"] == [160, 140]
    lead = engine.view(started([DEAL_64]), None, 0.0)["board"]["lead"]
    assert (lead["inner"], lead["outer"]) == (6, 4)  # higher half toward left


def test_R4_5_only_a_positive_multiple_of_5_scores():
    # [0|0] lead counts 0; p1 (no zero) draws [6|0] and plays it: 6 + 0.  Nothing scores.
    d = deal("0-0 1-0 2-0 3-0 2-1 3-1 4-0", "6-5 6-4 6-3 5-4 5-3 4-3 6-2", "6-0")
    out = run([d], [*START, "1 1 draw", "2 1 play 6-0 left"])
    assert all(ok_steps(out)) and out["count"] == 6
    assert all(s["balances"] == [150, 150] for s in out["steps"])
    assert not [e for s in out["steps"] for e in events(s, "score") if e.get("points")]
    out = run([DEAL_66_44], START)  # count 12: nothing
    assert out["balances"] == [150, 150] and out["count"] == 12


def test_R4_5_a_lead_chosen_after_the_auction_scores_normally():
    out = auction(["15 1 renounce", "16 0 lead 5-5"])
    s = out["steps"][A + 1]
    assert has_event(s, "score", player=0, count=10, points=10)
    assert out["balances"] == [160, 140] and out["to_act"] == 1


def test_R4_6_turn_passes_after_every_placement_even_a_double_or_a_score():
    out = run([DEAL_66_44], [*START, "1 1 play 6-4 right", "2 0 play 4-4 right"])
    assert [s["to_act"] for s in out["steps"]] == [None, 1, 0, 1]
    out = run([DEAL_55], START)  # a scoring double lead
    assert out["to_act"] == 1


# =======================================================================================
# 5. Turns: play, draw, pass; end of round
# =======================================================================================


def test_R5_1_holding_a_playable_tile_you_may_not_draw():
    out = run([DEAL_55], [*START, "2 1 draw"])
    assert_refused(out, 2, "cannot_draw")
    assert out["boneyard_left"] == 14


def test_R5_2_a_drawn_playable_tile_must_be_played_at_once_on_an_end_of_choice():
    lines = [
        *START,
        "1 1 draw",  # [3|1]: not playable
        "2 1 play 3-1 right",  # refused
        "3 1 draw",  # [6|2]: playable on left and right
        "4 1 play 4-2 right",  # refused: not the drawn tile
        "5 1 draw",  # refused: must play the drawn tile
        "6 1 play 6-2",  # refused: fits two ends
        "7 1 play 6-2 left",  # 2 + 12 = 14
    ]
    out = run([DEAL_DRAW], lines)
    assert has_event(out["steps"][2], "draw", player=1, tile="3-1")
    assert_refused(out, 3, "illegal_tile")
    assert has_event(out["steps"][4], "draw", player=1, tile="6-2")
    assert_refused(out, 5, "illegal_tile")
    assert_refused(out, 6, "cannot_draw")
    assert_refused(out, 7, "end_required")
    assert has_event(out["steps"][8], "play", player=1, tile="6-2", end="left")
    assert out["to_act"] == 0 and out["boneyard_left"] == 12 and out["count"] == 14


def test_R5_3_cannot_play_and_empty_boneyard_passes_automatically():
    lines = [*START] + [f"{0.5 * i} 1 draw" for i in range(1, 15)] + ["8 0 play 6-5 right"]
    out = run([DEAL_SIXES], lines)
    last_draw = out["steps"][15]
    assert includes_in_order(
        last_draw, [{"type": "draw", "player": 1}, {"type": "pass", "player": 1, "auto": True}]
    )
    assert last_draw["to_act"] == 0 and last_draw["phase"] == "play"
    assert all(s["to_act"] == 1 for s in out["steps"][1:15])
    assert out["steps"][16]["ok"] and out["to_act"] == 1 and out["count"] == 17


def test_R5_4_draws_and_the_play_are_one_turn():
    lines = [*START, "1 1 draw", "3 1 draw", "7 1 play 6-2 right"]
    out = run([DEAL_DRAW], lines)
    assert [s["to_act"] for s in out["steps"]] == [None, 1, 1, 1, 0]
    assert [s["ok"] for s in out["steps"]] == [True] * 5


def test_R5_5_domino_ends_the_round_after_the_tile_is_counted_no_bonus():
    d, lines = domino_round(0, last="3-4")
    out = run([d], lines)
    s = out["steps"][-1]
    # The last tile 3-4 on the left: 4 + 6 = 10.  p1 still holds [3|0]: no bonus.
    assert includes_in_order(
        s,
        [
            {"type": "play", "player": 0, "tile": "4-3", "end": "left"},
            {"type": "score", "player": 0, "count": 10, "points": 10},
            {"type": "domino", "player": 0},
            {"type": "round_over", "reason": "domino"},
        ],
    )
    assert all(x["balances"] == [150, 150] for x in out["steps"][:-1])
    assert out["balances"] == [160, 140]
    assert (out["status"], out["phase"], out["to_act"], out["jockey"]) == (
        "playing",
        "round_over",
        None,
        0,
    )


BLOCK_CASES = [
    # p0_extra, totals, receiver, points, final balances (round: 150-150 -> 135-165)
    (["3-2"], [45, 45], None, 0, [135, 165]),  # equal totals: nothing
    (["1-1"], [42, 48], 0, 50, [185, 115]),  # 48 rounds up to 50 (like 18 -> 20)
    (["1-1", "4-1"], [47, 43], 1, 45, [90, 210]),  # 47 rounds down to 45 (like 17 -> 15)
]


@pytest.mark.parametrize(("extra", "totals", "receiver", "points", "final"), BLOCK_CASES)
def test_R5_6_block_pays_the_lower_hand_the_other_total_rounded_to_5(
    extra, totals, receiver, points, final
):
    d, lines = block_round(extra)
    out = run([d], lines)
    assert all(ok_steps(out)), [s for s in out["steps"] if not s["ok"]]
    assert out["steps"][-2]["balances"] == [135, 165]
    s = out["steps"][-1]
    assert includes_in_order(
        s,
        [
            {"type": "play", "player": 1, "tile": "6-5", "end": "up"},
            {"type": "pass", "player": 0, "auto": True},
            {"type": "pass", "player": 1, "auto": True},
            {"type": "block", "player": receiver, "points": points, "totals": totals},
            {"type": "round_over", "reason": "block"},
        ],
    )
    assert out["balances"] == final
    assert (out["phase"], out["jockey"], out["boneyard_left"], out["count"]) == (
        "round_over",
        None,
        0,
        18,
    )


def test_R5_6_block_payment_is_capped_and_can_end_the_game():
    d, lines = block_round(["1-1"])  # p0 would receive 50; p1 has 35 left
    out = run([d], lines, balances=[280, 20])
    assert out["steps"][-2]["balances"] == [265, 35]
    assert has_event(out["steps"][-1], "block", player=0, points=35, totals=[42, 48])
    assert out["balances"] == [300, 0]
    assert (out["status"], out["winner"], out["reason"]) == ("finished", 0, "points")


# =======================================================================================
# 6. The auction for the lead
# =======================================================================================


@pytest.mark.parametrize("winner", [0, 1])
def test_R6_1_the_player_who_went_out_is_the_jockey_and_the_rival_decides_first(winner):
    out = auction([], winner=winner)
    assert out["steps"][A - 3]["jockey"] == winner
    assert out["steps"][A - 2]["phase"] == "round_over"
    s = out["steps"][A - 1]
    assert s["phase"] == "auction" and s["to_act"] == 1 - winner
    assert has_event(s, "deal")
    assert out["jockey"] == winner and out["round"] == 2


def test_R6_2_rival_renounces_or_bids_at_least_15():
    out = auction(["15 0 bid 15", "15 1 bid 10", "16 1 renounce"])
    assert_refused(out, A, "not_your_turn")
    assert_refused(out, A + 1, "bad_bid")
    s = out["steps"][A + 2]
    assert has_event(s, "renounce", player=1)
    assert (s["phase"], s["to_act"], s["balances"]) == ("lead", 0, [150, 150])
    out = auction(["15 1 bid 15"])
    assert has_event(out["steps"][A], "bid", player=1, amount=15)
    assert (out["phase"], out["to_act"]) == ("auction", 0)


def test_R6_3_bids_are_multiples_of_5_and_raises_at_least_5():
    lines = [
        "15 1 bid 17",  # not a multiple of 5
        "15.5 1 bid 15",
        "16 0 raise 17",  # not a multiple of 5
        "16.2 0 raise 15",  # not a raise
        "16.4 0 bid 20",  # a bid stands: use raise
        "16.6 0 renounce",  # facing a bid: accept or raise
        "17 0 raise 20",
        "18 1 raise 30",
        "19 0 accept",  # the rival's own bid: no discount, p1 pays 30
        "20 1 lead 1-0",
    ]
    out = auction(lines)
    assert_refused(out, A, "bad_bid")
    assert_refused(out, A + 2, "bad_bid")
    assert_refused(out, A + 3, "bad_bid")
    assert_refused(out, A + 4, "wrong_phase")
    assert_refused(out, A + 5, "wrong_phase")
    assert has_event(out["steps"][A + 6], "raise", player=0, amount=20)
    assert out["steps"][A + 6]["to_act"] == 1
    assert has_event(out["steps"][A + 7], "raise", player=1, amount=30)
    s = out["steps"][A + 8]
    assert has_event(s, "accept", player=0, payer=1, amount=30)
    assert (s["phase"], s["to_act"], s["balances"]) == ("lead", 1, [180, 120])
    assert out["steps"][A + 9]["ok"] and out["count"] == 1


def test_R6_4_the_accepted_bidder_pays_the_bid_and_leads_any_tile():
    out = auction(["15 1 bid 20", "16 0 accept", "17 1 lead 3-5"])
    s = out["steps"][A + 1]
    assert has_event(s, "accept", player=0, payer=1, amount=20)
    assert (s["phase"], s["to_act"], s["balances"]) == ("lead", 1, [170, 130])
    assert has_event(out["steps"][A + 2], "lead", player=1, tile="5-3")
    assert out["to_act"] == 0 and out["count"] == 8 and out["balances"] == [170, 130]


def test_R6_5_jockey_discount_applies_only_to_own_accepted_bid():
    # The jockey's own accepted 20 costs 5: the rival receives 5, not 20.
    out = auction(["15 1 bid 15", "16 0 raise 20", "17 1 accept", "18 0 lead 1-2"])
    s = out["steps"][A + 2]
    assert has_event(s, "accept", player=1, payer=0, amount=5)
    assert (s["phase"], s["to_act"], s["balances"]) == ("lead", 0, [145, 155])
    assert out["balances"] == [145, 155] and out["count"] == 3
    # The rival's accepted bid gets no discount, not even when the jockey raised before.
    out = auction(["15 1 bid 15", "16 0 accept"])
    assert has_event(out["steps"][A + 1], "accept", payer=1, amount=15)
    assert out["balances"] == [165, 135]
    out = auction(["15 1 bid 15", "16 0 raise 25", "17 1 raise 30", "18 0 accept"])
    assert has_event(out["steps"][A + 3], "accept", payer=1, amount=30)
    assert out["balances"] == [180, 120]


def test_R6_5_jockey_discount_follows_the_jockey_seat():
    # p1 went out: p0 is the rival.  p1's own accepted 25 costs 10.
    out = auction(["15 0 bid 15", "16 1 raise 25", "17 0 accept"], winner=1)
    assert has_event(out["steps"][A + 2], "accept", payer=1, amount=10)
    assert out["balances"] == [160, 140] and out["to_act"] == 1 and out["phase"] == "lead"


def test_R6_5_renounce_pays_out_no_discount():
    out = auction(["15 1 renounce", "16 0 lead 1-2"])
    assert out["balances"] == [150, 150]


def test_R6_6_all_in_bid_by_the_rival_is_legal_and_loses_when_accepted():
    out = auction(
        ["15 1 bid 25", "15.5 1 bid 20", "16 0 accept", "17 1 lead 1-0"], balances=[280, 20]
    )
    assert_refused(out, A, "bad_bid")  # 25 > 20
    assert out["steps"][A + 1]["ok"]
    s = out["steps"][A + 2]
    assert includes_in_order(
        s,
        [
            {"type": "accept", "payer": 1, "amount": 20},
            {"type": "game_over", "winner": 0, "reason": "points"},
        ],
    )
    assert s["balances"] == [300, 0] and s["phase"] == "finished" and s["to_act"] is None
    assert not has_event(s, "lead")
    assert_refused(out, A + 3, "game_over")
    assert (out["winner"], out["reason"]) == (0, "points")


def test_R6_6_jockey_net_cost_after_discount_bounds_the_bid():
    # The jockey has 10: a raise to 25 costs 10 (legal, all in), to 30 costs 15 (refused).
    lines = ["15 1 bid 15", "16 0 raise 30", "16.5 0 raise 25", "17 1 accept"]
    out = auction(lines, balances=[10, 290])
    assert_refused(out, A + 1, "bad_bid")
    assert out["steps"][A + 2]["ok"]
    s = out["steps"][A + 3]
    assert has_event(s, "accept", payer=0, amount=10)
    assert has_event(s, "game_over", winner=1, reason="points")
    assert out["balances"] == [0, 300] and out["status"] == "finished"


def test_R6_7_a_rival_who_cannot_bid_15_renounces_automatically():
    out = auction(["23 0 lead 1-2"], balances=[290, 10])
    s = out["steps"][A - 1]
    assert includes_in_order(s, [{"type": "deal"}, {"type": "renounce", "player": 1, "auto": True}])
    assert (s["phase"], s["to_act"], s["balances"]) == ("lead", 0, [290, 10])
    assert out["steps"][A]["ok"]


def test_R6_7_a_player_who_cannot_raise_accepts_automatically():
    # The jockey has 4: the smallest raise (20) would cost 5.
    out = auction(["15 1 bid 15"], balances=[4, 296])
    s = out["steps"][A]
    assert includes_in_order(
        s,
        [
            {"type": "bid", "player": 1, "amount": 15},
            {"type": "accept", "player": 0, "payer": 1, "amount": 15, "auto": True},
        ],
    )
    assert (s["phase"], s["to_act"], s["balances"]) == ("lead", 1, [19, 281])
    # The rival has 20: facing the jockey's 20 it cannot raise to 25: it accepts.
    out = auction(["15 1 bid 15", "16 0 raise 20"], balances=[280, 20])
    s = out["steps"][A + 1]
    assert has_event(s, "accept", player=1, payer=0, amount=5, auto=True)
    assert (s["phase"], s["to_act"], s["balances"]) == ("lead", 0, [275, 25])


def test_R6_8_winning_the_lead_creates_no_points():
    out = auction(["15 1 bid 20", "16 0 accept", "17 1 lead 1-0"])
    assert [s["balances"] for s in out["steps"][A:]] == [[150, 150], [170, 130], [170, 130]]
    assert all(sum(s["balances"]) == 300 for s in out["steps"])


# =======================================================================================
# 7. The clock
# =======================================================================================


def test_R7_1_bank_is_120_s_for_the_whole_game_never_refilled():
    d, lines = domino_round(0, times=[14.0 + i for i in range(12)])  # p1's first play: 14 s
    out = run([d, DEAL_R2], [*lines, "26 0 continue", "27 1 continue", "28 1 renounce"])
    assert out["steps"][1]["banks"] == [120, 120]
    assert out["steps"][2]["banks"] == pytest.approx([120, 116])
    assert out["steps"][-2]["phase"] == "auction"
    assert out["banks"] == pytest.approx([120, 116])


def test_R7_2_each_decision_gets_a_fresh_10_s_delay():
    d, lines = domino_round(0, times=[9.5 * i for i in range(1, 13)])  # closes at 114
    more = ["115 0 continue", "116 1 continue", "125.9 1 bid 15", "135.8 0 raise 20"]
    more += ["145.7 1 accept", "155.6 0 lead 1-2"]
    out = run([d, DEAL_R2], lines + more)
    assert all(ok_steps(out))
    assert out["balances"] == [145, 155]
    assert out["banks"] == pytest.approx([120, 120])


def test_R7_3_drawing_does_not_restart_the_delay():
    out = run([DEAL_DRAW], [*START, "5 1 draw", "9 1 draw", "14 1 play 6-2 right"])
    assert all(ok_steps(out))
    assert out["banks"] == pytest.approx([120, 116])  # 14 s for the whole turn


def test_R7_4_time_charged_is_elapsed_minus_10_s():
    out = run([DEAL_55], [*START, "8 1 play 0-5 right", "21 0 play 0-4 right"])
    assert out["steps"][2]["banks"] == pytest.approx([120, 120])  # 8 s costs nothing
    assert out["banks"] == pytest.approx([117, 120])  # 13 s costs 3


def test_R7_5_a_raise_switches_the_clock_and_accept_starts_the_leaders():
    lines = ["16 1 bid 15", "29 0 raise 20", "43 1 accept", "55 0 lead 1-2"]
    out = auction(lines)
    assert all(ok_steps(out))
    # p1: 2 s, then 14 s (4); p0: 13 s (3), then its lead 12 s (2).
    assert out["banks"] == pytest.approx([115, 116])
    out = auction(["16 1 renounce", "29 0 lead 1-2"])
    assert out["banks"] == pytest.approx([117, 120])


def test_R7_6_a_request_reaching_the_server_at_the_flag_instant_is_too_late():
    lines = [*START[:1], "1 1 start", "3 1 play 0-5 right"]
    # p0's decision starts at 3 with a bank of 5: the flag falls at 3 + 10 + 5 = 18.
    out = run([DEAL_55], [*lines, "17.9 0 play 0-4 right"], banks=[5, 120])
    assert out["steps"][-1]["ok"] and out["status"] == "playing"
    assert out["banks"] == pytest.approx([0.1, 120])
    out = run([DEAL_55], [*lines, "18 0 play 0-4 right"], banks=[5, 120])
    assert out["steps"][-1]["error"] == "game_over"
    assert (out["status"], out["winner"], out["reason"]) == ("finished", 1, "time")
    assert out["banks"] == pytest.approx([0, 120])
    out = run([DEAL_55], [*lines, "17.99 - tick", "18 - tick"], banks=[5, 120])
    assert out["steps"][-2]["phase"] == "play"
    assert includes_in_order(
        out["steps"][-1],
        [{"type": "flag", "player": 0}, {"type": "game_over", "winner": 1, "reason": "time"}],
    )


def test_R7_7_clocks_are_stopped_until_start_and_until_continue():
    out = run([DEAL_55], ["0 0 start", "50 1 start", "59 1 play 0-5 right"])
    assert out["banks"] == pytest.approx([120, 120])
    d, lines = domino_round(0)  # closes at 12
    out = run([d, DEAL_R2], [*lines, "20 0 continue", "35 1 continue", "44 1 bid 15"])
    assert out["banks"] == pytest.approx([120, 120])


def test_R7_7_same_device_clock_waits_for_the_reveal():
    lines = [
        "0 0 start",
        "1 1 start",  # p0 leads [5|5]; p1 to act, no hand showing
        "30 1 play 0-5 right",  # refused: not revealed
        "31 0 play 0-4 right",  # refused: not p0's turn
        "40 1 reveal",
        "49 1 play 0-5 right",  # 9 s after the reveal: free
        "50 0 play 0-4 right",  # refused: p0 has not revealed
        "80 0 reveal",
        "93 0 play 0-4 right",  # 13 s after the reveal: 3 s
    ]
    out = run([DEAL_55], lines, same_device=True)
    assert out["steps"][1]["to_act"] == 1
    assert_refused(out, 2, "wrong_phase")
    assert_refused(out, 3, "not_your_turn")
    assert out["steps"][4]["ok"] and out["steps"][5]["ok"]
    assert out["steps"][5]["banks"] == pytest.approx([120, 120])
    assert_refused(out, 6, "wrong_phase")
    assert out["steps"][8]["ok"]
    assert out["banks"] == pytest.approx([117, 120])


def test_R7_7_same_device_resign_is_always_accepted():
    out = run([DEAL_55], ["0 0 start", "1 1 start", "5 1 resign"], same_device=True)
    assert (out["status"], out["winner"], out["reason"]) == ("finished", 0, "resign")


def test_R7_8_views_neither_stop_nor_restart_a_clock():
    g = started([DEAL_55])  # p1's decision started at 0
    before = dump(g)
    assert engine.deadline(g) == pytest.approx(130.0)
    for now in (0.0, 5.0, 9.99, 15.0, 60.0, 200.0):
        for seat in (0, 1, None):
            engine.view(g, seat, now)
        assert dump(g) == before
    assert engine.view(g, 0, 15.0)["players"][1]["bank"] == pytest.approx(115.0)
    assert engine.view(g, 1, 5.0)["players"][1]["bank"] == pytest.approx(120.0)
    reloaded = engine.from_json(json.loads(before))  # a reload rebuilds the same state
    for state in (g, reloaded):
        after, _ = engine.apply(state, 1, {"do": "play", "tile": "0-5", "end": "right"}, 15.0)
        assert engine.view(after, None, 15.0)["players"][1]["bank"] == pytest.approx(115.0)


def test_R7_9_automatic_actions_take_no_time():
    # The lead by rank at Start: p1's clock starts at once.
    out = run([DEAL_55], [*START, "9.5 1 play 0-5 right"])
    assert out["banks"] == pytest.approx([120, 120])
    # A forced pass: p0's decision starts at the last draw.
    lines = [*START] + [f"{0.5 * i} 1 draw" for i in range(1, 15)] + ["16.5 0 play 6-5 right"]
    out = run([DEAL_SIXES], lines)
    assert out["banks"] == pytest.approx([120, 120])
    # A forced renounce: the jockey's lead decision starts with the deal (t = 14).
    out = auction(["23.5 0 lead 1-2"], balances=[290, 10])
    assert out["banks"] == pytest.approx([120, 120])
    out = auction(["27 0 lead 1-2"], balances=[290, 10])
    assert out["banks"] == pytest.approx([117, 120])


def test_R7_10_engine_measures_time_only_through_the_callers_now(monkeypatch):
    # A service fault is judged by the platform; the engine must take its time only from
    # `now`, so that a replay gives the same result whatever the wall clock says.
    d, lines = domino_round(0, times=[3.0 * i for i in range(1, 13)])
    data = [*lines, "40 0 continue", "41 1 continue", "55 1 bid 15", "70 0 raise 20"]
    first = run([d, DEAL_R2], data)
    for name in ("time", "monotonic", "perf_counter"):
        real = getattr(time, name)
        monkeypatch.setattr(time, name, lambda real=real: real() + 987654.0)
    assert run([d, DEAL_R2], data) == first


# =======================================================================================
# 8. Automatic digital play
# =======================================================================================


def test_R8_1_points_are_scored_automatically_and_a_play_ends_the_turn():
    out = run([DEAL_55], [*START, "3 1 play 0-5 right", "4 0 claim", "4 0 pass"])
    s = out["steps"][2]
    assert has_event(s, "score", player=1, points=10) and s["to_act"] == 0
    assert_refused(out, 3, "bad_request")  # no muggins claims
    assert_refused(out, 4, "bad_request")  # no clock button / manual pass


def play_state():
    return started([DEAL_55])  # p1 to act; ends: left 5 (spinner), right 5


def auction_state():
    d, lines = domino_round(0)
    return drive(new([d, DEAL_R2]), lines + AUCTION_START)[0]


def bid_state():
    return drive(auction_state(), ["15 1 bid 15"])[0]


def over_state():
    return drive(play_state(), ["1 1 resign"])[0]


ERROR_CASES = [
    (play_state, 0, {"do": "play", "tile": "0-4", "end": "right"}, "not_your_turn"),
    (play_state, 0, {"do": "draw"}, "not_your_turn"),
    (play_state, 1, {"do": "play", "tile": "1-1"}, "illegal_tile"),
    (play_state, 1, {"do": "play", "tile": "6-6", "end": "left"}, "illegal_tile"),
    (play_state, 1, {"do": "play", "tile": "0-5", "end": "up"}, "illegal_tile"),
    (play_state, 1, {"do": "play", "tile": "2-4", "end": "right"}, "illegal_tile"),
    (play_state, 1, {"do": "play", "tile": "0-5"}, "end_required"),
    (play_state, 1, {"do": "draw"}, "cannot_draw"),
    (play_state, 1, {"do": "accept"}, "wrong_phase"),
    (play_state, 1, {"do": "continue"}, "wrong_phase"),
    (play_state, 1, {"do": "start"}, "wrong_phase"),
    (play_state, 1, {"do": "fly"}, "bad_request"),
    (play_state, 1, {}, "bad_request"),
    (play_state, 1, {"do": "play"}, "bad_request"),
    (play_state, 1, {"do": "play", "tile": 56, "end": "right"}, "bad_request"),
    (play_state, 1, "play", "bad_request"),
    (auction_state, 1, {"do": "bid", "amount": 17}, "bad_bid"),
    (auction_state, 1, {"do": "bid", "amount": 10}, "bad_bid"),
    (auction_state, 1, {"do": "bid", "amount": 155}, "bad_bid"),
    (auction_state, 1, {"do": "bid", "amount": "20"}, "bad_request"),
    (auction_state, 1, {"do": "accept"}, "wrong_phase"),
    (auction_state, 0, {"do": "bid", "amount": 15}, "not_your_turn"),
    (bid_state, 0, {"do": "bid", "amount": 20}, "wrong_phase"),
    (bid_state, 0, {"do": "renounce"}, "wrong_phase"),
    (bid_state, 0, {"do": "raise", "amount": 18}, "bad_bid"),
    (bid_state, 0, {"do": "raise", "amount": 15}, "bad_bid"),
    (over_state, 0, {"do": "play", "tile": "0-4", "end": "right"}, "game_over"),
    (over_state, 1, {"do": "resign"}, "game_over"),
]


@pytest.mark.parametrize(
    ("make", "seat", "action", "code"),
    ERROR_CASES,
    ids=[f"{c[3]}-{i}" for i, c in enumerate(ERROR_CASES)],
)
def test_R8_2_an_illegal_request_changes_nothing_and_gets_a_clear_error(make, seat, action, code):
    state = make()
    before = dump(state)
    with pytest.raises(engine.RuleError) as info:
        engine.apply(state, seat, action, 16.0)
    assert info.value.code == code
    assert code in engine.ERROR_CODES
    assert str(info.value).strip() or getattr(info.value, "message", "")
    assert dump(state) == before


def test_R8_2_every_error_code_is_covered():
    assert {c[3] for c in ERROR_CASES} == set(engine.ERROR_CODES)


def test_R8_3_reading_the_rules_does_not_pause_the_clock():
    g = play_state()
    engine.view(g, 1, 5.0)  # the player opens the rules page...
    engine.view(g, 1, 12.0)
    g, _ = engine.apply(g, 1, {"do": "play", "tile": "0-5", "end": "right"}, 13.0)
    assert engine.view(g, None, 13.0)["players"][1]["bank"] == pytest.approx(117.0)
    with pytest.raises(engine.RuleError) as info:
        engine.apply(g, 0, {"do": "pause"}, 14.0)
    assert info.value.code == "bad_request"


# =======================================================================================
# 9. Decisions of this platform
# =======================================================================================


def test_P1_game_waits_for_both_starts():
    out = run([DEAL_55], ["0 0 start", "5 0 start", "30 1 play 0-5 right", "40 1 start"])
    assert out["steps"][0]["status"] == "waiting" and out["steps"][0]["to_act"] is None
    assert_refused(out, 1, "wrong_phase")  # a second Start
    assert_refused(out, 2, "wrong_phase")  # nothing is dealt yet
    assert out["status"] == "playing" and out["to_act"] == 1


def test_P1_game_aborts_60_s_after_creation_without_both_starts():
    out = run([DEAL_55], ["0 0 start", "59.9 - tick", "60 - tick", "61 1 start"])
    assert out["steps"][1]["status"] == "waiting"
    assert out["steps"][2]["status"] == "aborted"
    assert has_event(out["steps"][2], "abort")
    assert_refused(out, 3, "game_over")
    assert (out["status"], out["winner"]) == ("aborted", None)
    out = run([DEAL_55], ["10 0 start", "60 1 start"])
    assert out["steps"][1]["error"] == "game_over" and out["status"] == "aborted"


def test_P2_round_continues_by_itself_after_30_s():
    d, lines = domino_round(0)  # closes at 12
    out = run([d, DEAL_R2], [*lines, "41.9 - tick", "42 - tick", "55 1 bid 15"])
    assert out["steps"][-3]["phase"] == "round_over"
    s = out["steps"][-2]
    assert s["phase"] == "auction" and s["to_act"] == 1 and has_event(s, "deal")
    assert out["banks"] == pytest.approx([120, 117])  # p1's clock started at 42
    # Without the tick the round still started at 42, not at the later step's time.
    out = run([d, DEAL_R2], [*lines, "55 1 bid 15"])
    assert out["steps"][-1]["ok"] and out["round"] == 2
    assert out["banks"] == pytest.approx([120, 117])


def test_P2_round_continues_when_both_press_continue():
    d, lines = domino_round(0)
    more = ["20 0 continue", "21 0 continue", "25 1 continue", "38 1 bid 15"]
    out = run([d, DEAL_R2], lines + more)
    assert out["steps"][-4]["phase"] == "round_over"
    assert_refused(out, len(lines) + 1, "wrong_phase")
    assert out["steps"][-2]["phase"] == "auction"
    assert out["banks"] == pytest.approx([120, 117])


def test_P3_a_player_may_resign_at_any_time():
    out = run([DEAL_55], [*START, "3 0 resign", "4 1 play 0-5 right"])  # not p0's turn
    assert includes_in_order(
        out["steps"][2],
        [{"type": "resign", "player": 0}, {"type": "game_over", "winner": 1, "reason": "resign"}],
    )
    assert_refused(out, 3, "game_over")
    assert (out["status"], out["phase"], out["winner"], out["reason"]) == (
        "finished",
        "finished",
        1,
        "resign",
    )
    out = auction(["15 0 resign"])  # during the auction
    assert (out["winner"], out["reason"]) == (1, "resign")
    d, lines = domino_round(0)
    out = run([d], [*lines, "13 1 resign"])  # during the round summary
    assert (out["winner"], out["reason"]) == (0, "resign")


def test_P4_each_draw_request_draws_one_tile():
    out = run([DEAL_DRAW], [*START, "1 1 draw"])
    s = out["steps"][2]
    assert [e["tile"] for e in events(s, "draw")] == ["3-1"]
    assert s["to_act"] == 1 and out["boneyard_left"] == 13
    assert sorted(out["hands"][1]) == sorted([norm(x) for x in DEAL_DRAW["hands"][1]] + ["3-1"])
