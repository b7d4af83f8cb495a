"""Lossless JSON form of a state: to_json(from_json(d)) == d for any d that to_json produced.

Server side only: the JSON holds both hands, the boneyard, the deals not dealt yet and the
deal seed. Tiles are written as in scenarios ("6-4"); times are floats, points ints, so the
form survives `json.dumps`/`json.loads` unchanged.

Format 2 keeps only the deals still to come; a deal dealt is in its "deal" event. Format 1
(still read) also kept every deal dealt, so its state grew by a deal each round.
"""

from __future__ import annotations

from typing import Any

from .board import Board
from .deals import deal_to_json, parse_deal
from .state import Auction, Bid, Payment, State, copy_summary
from .tiles import NAME, TILE_BY_NAME, mask_of, names_of

FORMAT = 2
READABLE_FORMATS = (1, 2)


def to_json(st: State) -> dict[str, Any]:
    board = st.board
    auc = st.auction
    return {
        "format": FORMAT,
        "status": st.status,
        "phase": st.phase,
        "round": st.round,
        "same_device": st.same_device,
        "created_at": st.created_at,
        "started": list(st.started),
        "continued": list(st.continued),
        "balances": list(st.balances),
        "banks": list(st.banks),
        "to_act": st.to_act,
        "clock_start": st.clock_start,
        "showing": st.showing,
        "hands": [names_of(st.hands[0]), names_of(st.hands[1])],
        "boneyard": [NAME[t] for t in st.boneyard],
        "drawn": st.drawn,
        "must_play": NAME[st.must_play] if st.must_play >= 0 else None,
        "passes": st.passes,
        "board": {
            "lead": NAME[board.lead] if board.lead >= 0 else None,
            "arms": [[[NAME[t], outer] for t, outer in arm] for arm in board.arms],
            "spinner": list(board.spinner) if board.spinner is not None else None,
        },
        "jockey": st.jockey,
        "auction": None
        if auc is None
        else {
            "jockey": auc.jockey,
            "rival": auc.rival,
            "bid": auc.bid,
            "bidder": auc.bidder,
            "history": [[b.player, b.do, b.amount] for b in auc.history],
        },
        "winner": st.winner,
        "reason": st.reason,
        "closed_at": st.closed_at,
        "payments": [[p.payer, p.payee, p.points, p.why] for p in st.payments],
        "last_round": copy_summary(st.last_round),
        "deals": [deal_to_json(d) for d in st.deals],
        "seed": st.seed,
        "trail": [[s, kind, NAME[t] if t >= 0 else None, x] for s, kind, t, x in st.trail],
    }


def from_json(d: dict[str, Any]) -> State:
    if d.get("format") not in READABLE_FORMATS:
        raise ValueError(f"unknown engine state format {d.get('format')!r}")
    st = State.__new__(State)
    st.status = d["status"]
    st.phase = d["phase"]
    st.round = int(d["round"])
    st.same_device = bool(d["same_device"])
    st.created_at = float(d["created_at"])
    st.started = (bool(d["started"][0]), bool(d["started"][1]))
    st.continued = (bool(d["continued"][0]), bool(d["continued"][1]))
    st.balances = (int(d["balances"][0]), int(d["balances"][1]))
    st.banks = (float(d["banks"][0]), float(d["banks"][1]))
    st.to_act = d["to_act"]
    st.clock_start = None if d["clock_start"] is None else float(d["clock_start"])
    st.showing = d["showing"]
    st.hands = (
        mask_of([TILE_BY_NAME[t] for t in d["hands"][0]]),
        mask_of([TILE_BY_NAME[t] for t in d["hands"][1]]),
    )
    st.boneyard = tuple(TILE_BY_NAME[t] for t in d["boneyard"])
    st.drawn = int(d["drawn"])
    st.must_play = TILE_BY_NAME[d["must_play"]] if d["must_play"] is not None else -1
    st.passes = int(d["passes"])
    b = d["board"]
    arms = tuple(tuple((TILE_BY_NAME[t], int(outer)) for t, outer in arm) for arm in b["arms"])
    st.board = Board(
        TILE_BY_NAME[b["lead"]] if b["lead"] is not None else -1,
        (arms[0], arms[1], arms[2], arms[3]),
        (int(b["spinner"][0]), int(b["spinner"][1])) if b["spinner"] is not None else None,
    )
    st.jockey = d["jockey"]
    a = d["auction"]
    st.auction = (
        None
        if a is None
        else Auction(
            a["jockey"],
            a["rival"],
            a["bid"],
            a["bidder"],
            tuple(Bid(int(p), str(do), int(amount)) for p, do, amount in a["history"]),
        )
    )
    st.winner = d["winner"]
    st.reason = d["reason"]
    st.closed_at = None if d["closed_at"] is None else float(d["closed_at"])
    st.payments = tuple(Payment(int(a), int(b), int(p), str(w)) for a, b, p, w in d["payments"])
    st.last_round = copy_summary(d["last_round"])
    upcoming = d["deals"] if d["format"] == FORMAT else d["deals"][st.round :]
    st.deals = tuple(parse_deal(x) for x in upcoming)
    st.seed = d["seed"]
    # Absent from states stored before the trail existed: their round simply shows none.
    st.trail = tuple(
        (int(s), int(kind), TILE_BY_NAME[t] if t is not None else -1, int(x))
        for s, kind, t, x in d.get("trail", ())
    )
    return st
