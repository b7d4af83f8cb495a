"""Helpers shared by the engine tests: hand-crafted deals and a compact scenario syntax.

A deal is written as two hands of 7 tiles plus the start of the boneyard (drawn first);
the rest of the boneyard is filled with the unused tiles in a fixed order.  A step is
written as one line: ``"<t> <player|-> <do> [tile|amount] [end]"``, e.g.
``"3 1 play 0-5 right"``, ``"9 1 bid 15"``, ``"40 - tick"``.
"""

from __future__ import annotations

from typing import Any

ALL_TILES = [f"{a}-{b}" for a in range(6, -1, -1) for b in range(a, -1, -1)]


def _norm(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


# Looked up rather than parsed: the property tests normalise tiles by the hundred thousand.
_NORMS = {f"{a}-{b}": _norm(f"{a}-{b}") for a in range(7) for b in range(7)}


def norm(tile: str) -> str:
    """Tile written higher half first, as the engine writes it."""
    known = _NORMS.get(tile)
    return known if known is not None else _norm(tile)


def deal(h0: str, h1: str, bone: str = "") -> dict[str, Any]:
    """Both hands (7 tiles each) and the first tiles of the boneyard, first drawn first."""
    hands = [h0.split(), h1.split()]
    first = bone.split()
    used = [norm(x) for x in hands[0] + hands[1] + first]
    assert len(set(used)) == len(used), f"duplicate tile in {used}"
    assert len(hands[0]) == 7 and len(hands[1]) == 7, hands
    boneyard = first + [x for x in ALL_TILES if x not in used]
    assert len(boneyard) == 14
    return {"hands": hands, "boneyard": boneyard}


def step(line: str) -> dict[str, Any]:
    tok = line.split()
    out: dict[str, Any] = {"t": float(tok[0]), "do": tok[2]}
    if tok[1] != "-":
        out["player"] = int(tok[1])
    args = tok[3:]
    if out["do"] in ("play", "lead") and args:
        out["tile"] = args[0]
        if len(args) > 1:
            out["end"] = args[1]
    elif out["do"] in ("bid", "raise") and args:
        out["amount"] = int(args[0])
    return out


def scenario(rounds: list[dict[str, Any]], lines: list[str], **extra: Any) -> dict[str, Any]:
    return {"name": "test", "rounds": rounds, "steps": [step(x) for x in lines], **extra}


def run(rounds: list[dict[str, Any]], lines: list[str], **extra: Any) -> dict[str, Any]:
    from games.engine.scenario import run_scenario

    out = run_scenario(scenario(rounds, lines, **extra))
    assert len(out["steps"]) == len(lines)
    return out


def matches(event: dict[str, Any], want: dict[str, Any]) -> bool:
    return all(event.get(k) == v for k, v in want.items())


def events(out_step: dict[str, Any], type_: str, **want: Any) -> list[dict[str, Any]]:
    return [e for e in out_step["events"] if e.get("type") == type_ and matches(e, want)]


def has_event(out_step: dict[str, Any], type_: str, **want: Any) -> bool:
    return bool(events(out_step, type_, **want))


def includes_in_order(out_step: dict[str, Any], wanted: list[dict[str, Any]]) -> bool:
    it = iter(out_step["events"])
    return all(any(matches(e, w) for e in it) for w in wanted)


def ok_steps(out: dict[str, Any]) -> list[bool]:
    return [s["ok"] for s in out["steps"]]


def assert_refused(out: dict[str, Any], i: int, code: str) -> None:
    """Step i was refused with `code`, produced no events and changed nothing visible."""
    s = out["steps"][i]
    assert s["ok"] is False, s
    assert s["error"] == code, s
    assert s["events"] == [], s
    prev = out["steps"][i - 1]
    for key in ("balances", "to_act", "phase"):
        assert s[key] == prev[key], (key, s, prev)


# --- reusable rounds -------------------------------------------------------------------

# The deal of spec scenario 01: p0 leads [5|5] by rank (p1's highest double is [3|3]).
DEAL_55 = deal("5-5 0-1 1-2 2-3 0-4 4-6 0-6", "0-5 3-3 1-1 2-4 3-4 1-3 2-6", "0-0 2-2 4-4 6-6")

# Round 2 deal used after a domino: the auction decides who leads.
DEAL_R2 = deal("6-6 5-5 1-2 0-3 4-5 2-6 1-3", "4-4 3-3 0-1 2-4 3-5 0-6 1-6")


def domino_round(
    winner: int = 0, last: str = "3-6", times: list[float] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Round 1 in which `winner` leads [0|0] by rank and goes out with 13 placements.

    Counts, placement by placement: 0,1,3,6,7,9,11,7,3,6,8,9 and then 12 with the last
    tile 3-6 (no score in the whole round) or 10 with the last tile 3-4 (the winner
    scores 10 with its domino).  Both main arms are used; nobody ever draws.
    """
    w, o = winner, 1 - winner
    w_hand = f"0-0 0-2 2-3 3-5 5-1 1-3 {last}"
    o_hand = "0-1 1-4 4-6 6-2 2-5 5-6 0-3"
    hands = (w_hand, o_hand) if w == 0 else (o_hand, w_hand)
    d = deal(*hands)
    moves = [
        (o, "0-1", "right"),
        (w, "0-2", "left"),
        (o, "1-4", "right"),
        (w, "2-3", "left"),
        (o, "4-6", "right"),
        (w, "3-5", "left"),
        (o, "6-2", "right"),
        (w, "5-1", "left"),
        (o, "2-5", "right"),
        (w, "1-3", "left"),
        (o, "5-6", "right"),
        (w, last, "left"),
    ]
    times = times if times is not None else [float(i) for i in range(1, 13)]
    lines = ["0 0 start", "0 1 start"]
    lines += [f"{t} {p} play {tile} {end}" for t, (p, tile, end) in zip(times, moves, strict=True)]
    return d, lines


BLOCK_OTHERS = ["1-1", "2-2", "3-3", "4-4", "3-1", "4-1", "3-2", "4-2"]


def block_round(p0_extra: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Round 1 that ends in a block, with every decision taken 1 s after the previous one.

    p0 leads [6|6] by rank; the main arms become 6-1|1-2|2-6 (left) and 6-3|3-4|4-6
    (right), then p1 draws until [6|0] and plays it up, p0 draws until [5|0] and plays it
    up, p1 draws until [6|5] and plays it up: all four ends show 6 and every six is on
    the table, the boneyard is empty, both pass.  Balances move 150-150 -> 145-155 ->
    135-165 during the round (p1 scores 5 and 10).  At the block p0 holds
    [5|5] [5|4] [5|3] [5|2] [5|1] (40) plus `p0_extra`; p1 holds the zeros 0-0..4-0 (10)
    plus the rest of BLOCK_OTHERS (whose tiles total 40).
    """
    p0_pool = ["5-5", "5-4", "5-3", "5-2", "5-1", *p0_extra]
    p1_pool = ["0-0", "1-0", "2-0", "3-0", "4-0", *[x for x in BLOCK_OTHERS if x not in p0_extra]]
    h0 = ["6-6", "6-3", "4-3", "6-4", *p0_pool[:3]]
    h1 = ["6-1", "2-1", "6-2", *p1_pool[:4]]
    d0 = p0_pool[3:]
    rest1 = p1_pool[4:]
    d1a, d1b = rest1[: len(rest1) // 2], rest1[len(rest1) // 2 :]
    bone = [*d1a, "6-0", *d0, "5-0", *d1b, "6-5"]
    d = deal(" ".join(h0), " ".join(h1), " ".join(bone))
    assert d["boneyard"] == bone
    seq = [
        "1 play 6-1 left",
        "0 play 6-3 right",
        "1 play 2-1 left",
        "0 play 4-3 right",
        "1 play 6-2 left",
        "0 play 6-4 right",
        *["1 draw"] * (len(d1a) + 1),
        "1 play 6-0 up",
        *["0 draw"] * (len(d0) + 1),
        "0 play 5-0 up",
        *["1 draw"] * (len(d1b) + 1),
        "1 play 6-5 up",
    ]
    lines = ["0 0 start", "0 1 start"] + [f"{i} {s}" for i, s in enumerate(seq, start=1)]
    return d, lines
