"""What one seat, or a spectator, may see (R2.4): `view` and `events_for`.

Secrecy is by construction: a view is built only from public fields plus the viewer's own hand,
so the opponent's tiles and the boneyard never enter it while a round is being played. Both
hands of a round appear only in `last_round`, which exists only once that round is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from . import auction as bids
from .board import END_INDEX, END_NAMES, SPINNER_AT_LEAD, Board, lead_board
from .clock import BANK, CONTINUE_TIMEOUT, DELAY, START_TIMEOUT, flag_at
from .game import BALANCE, awaiting_reveal, bank_at, deadline, legal_actions, points_for_count
from .state import (
    AUCTION,
    PLAYING,
    ROUND_OVER,
    TRAIL_AUTO_LEAD,
    TRAIL_DRAW,
    TRAIL_PASS,
    TRAIL_PLAY,
    WAITING,
    State,
    copy_summary,
)
from .tiles import HIGH, IS_DOUBLE, LOW, NAME, PIPS, TILE_BY_NAME, names_of

Event = dict[str, Any]

# The rule numbers the page shows or counts with, in every view, so that it hard-codes none.
# Times in seconds, points as ints; `bank`/`balance` are the defaults a game starts with.
RULES: Mapping[str, int | float] = MappingProxyType(
    {
        "delay": DELAY,  # R7.2
        "bank": BANK,  # R7.1
        "balance": BALANCE,  # R1.1
        "min_bid": bids.MIN_BID,  # R6.2
        "bid_step": bids.STEP,  # R6.3
        "jockey_discount": bids.JOCKEY_DISCOUNT,  # R6.5
        "start_timeout": START_TIMEOUT,  # P1
        "continue_timeout": CONTINUE_TIMEOUT,  # P2
    }
)

# PLACED dicts for every (tile, outer value), copied rather than rebuilt on each view.
_PLACED: tuple[dict[str, Any] | None, ...] = tuple(
    {"tile": NAME[t], "inner": PIPS[t] - outer, "outer": outer, "double": IS_DOUBLE[t]}
    if outer in (HIGH[t], LOW[t])
    else None
    for t in range(len(NAME))
    for outer in range(7)
)


def view(st: State, seat: int | None, now: float) -> dict[str, Any]:
    """The game as `seat` (0, 1, or None for a spectator) may see it at `now`."""
    own = seat if seat in (0, 1) else None
    now = float(now)
    players = [
        {
            "balance": st.balances[s],
            "bank": bank_at(st, s, now),
            "hand_count": st.hands[s].bit_count(),
            "started": st.started[s],
            "continued": st.continued[s],
        }
        for s in (0, 1)
    ]
    clock = None
    if st.clock_start is not None and st.to_act is not None:
        start = st.clock_start
        clock = {
            "running": st.to_act,
            "decision_start": start,
            "delay_end": start + DELAY,
            "flag_at": flag_at(st.banks[st.to_act], start),
        }
    must_play = None
    if own is not None and own == st.to_act and st.must_play >= 0:
        must_play = NAME[st.must_play]
    legal = legal_actions(st, own)
    return {
        "status": st.status,
        "phase": st.phase,
        "round": st.round,
        "seat": own,
        "same_device": st.same_device,
        "showing": st.showing if st.same_device else None,
        "players": players,
        "to_act": st.to_act,
        "awaiting_reveal": awaiting_reveal(st),
        "clock": clock,
        "deadline": deadline(st),
        "now": now,
        "board": board_view(st.board),
        "hand": names_of(st.hands[own]) if own is not None else None,
        "must_play": must_play,
        "legal": legal,
        "play_preview": play_preview(st.board, legal),
        "boneyard_left": len(st.boneyard) - st.drawn,
        "auction": _auction_view(st, own),
        "trail": trail_view(st, own),
        "jockey": st.jockey,
        "winner": st.winner,
        "reason": st.reason,
        "last_round": copy_summary(st.last_round),
        "continue_at": (
            st.closed_at + CONTINUE_TIMEOUT
            if st.status == PLAYING and st.phase == ROUND_OVER and st.closed_at is not None
            else None
        ),
        "start_deadline": st.created_at + START_TIMEOUT if st.status == WAITING else None,
        "rules": dict(RULES),
    }


def trail_view(st: State, seat: int | None) -> list[dict[str, Any]]:
    """This round so far as everyone at the table saw it, oldest first.

    `lead` {player, tile, auto}; `play` {player, tile, end}; `draw` {player, tile, ends};
    `pass` {player, ends}, where `ends` lists the values showing at the open ends when the
    player drew or passed (it held none of them). A drawn tile is named only to its drawer.
    """
    out: list[dict[str, Any]] = []
    for player, kind, tile, detail in st.trail:
        if kind == TRAIL_PLAY:
            out.append(
                {"player": player, "do": "play", "tile": NAME[tile], "end": END_NAMES[detail]}
            )
        elif kind in (TRAIL_DRAW, TRAIL_PASS):
            entry: dict[str, Any] = {
                "player": player,
                "do": "draw" if kind == TRAIL_DRAW else "pass",
            }
            if kind == TRAIL_DRAW:
                entry["tile"] = NAME[tile] if player == seat else None
            entry["ends"] = [v for v in range(7) if detail >> v & 1]
            out.append(entry)
        else:
            out.append(
                {
                    "player": player,
                    "do": "lead",
                    "tile": NAME[tile],
                    "auto": kind == TRAIL_AUTO_LEAD,
                }
            )
    return out


def outcome(st: State) -> tuple[str, int | None, str | None]:
    """(status, winner, reason), as in every view: what a store keeps beside the state."""
    return st.status, st.winner, st.reason


def play_preview(board: Board, legal: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """What each legal placement would make the count, and score: "tile:end" -> numbers.

    The lead after an auction is keyed "tile:lead". Computed here so that the page shows
    what a placement is worth without knowing any counting rule.
    """
    preview: dict[str, dict[str, int]] = {}
    for action in legal:
        do = action["do"]
        if do == "play":
            tile, end = TILE_BY_NAME[action["tile"]], action["end"]
            count = board.place(tile, END_INDEX[end]).count
        elif do == "lead":
            tile, end = TILE_BY_NAME[action["tile"]], "lead"
            count = lead_board(tile).count
        else:
            continue
        preview[f"{action['tile']}:{end}"] = {"count": count, "points": points_for_count(count)}
    return preview


def board_view(board: Board) -> dict[str, Any]:
    if board.lead < 0:
        return {
            "lead": None,
            "left": [],
            "right": [],
            "up": [],
            "down": [],
            "spinner": None,
            "ends": [],
            "count": 0,
            "scores": 0,
        }
    lead = board.lead
    # The lead lies higher half toward the left (docs/engine-api.md): inner = left, outer = right.
    out: dict[str, Any] = {
        "lead": {
            "tile": NAME[lead],
            "inner": HIGH[lead],
            "outer": LOW[lead],
            "double": IS_DOUBLE[lead],
        }
    }
    placed = _PLACED
    for name, arm in zip(END_NAMES, board.arms, strict=True):
        out[name] = [placed[t * 7 + outer].copy() for t, outer in arm]  # type: ignore[union-attr]
    spinner = None
    if board.spinner is not None:
        spinner_arm, index = board.spinner
        tile = board.spinner_tile()
        assert tile is not None
        spinner = {
            "tile": NAME[tile],
            "arm": "lead" if spinner_arm == SPINNER_AT_LEAD else END_NAMES[spinner_arm],
            "index": index,
        }
    out["spinner"] = spinner
    out["ends"] = [
        {"end": END_NAMES[e], "value": v, "counts": board.counts[e]}
        for e, v in enumerate(board.ends)
        if v >= 0
    ]
    out["count"] = board.count
    out["scores"] = points_for_count(board.count)
    return out


def _auction_view(st: State, own: int | None) -> dict[str, Any] | None:
    auc = st.auction
    if auc is None or st.phase != AUCTION:
        return None
    out: dict[str, Any] = {
        "jockey": auc.jockey,
        "rival": auc.rival,
        "bid": auc.bid,
        "bidder": auc.bidder,
        "history": [{"player": b.player, "do": b.do, "amount": b.amount} for b in auc.history],
        "min_bid": None,
        "max_bid": None,
        "net_cost": None,
        "loses_if_accepted": None,
        # What the standing bidder pays if the bid is accepted (R6.4, R6.5): public to both.
        "accept_cost": (
            None if auc.bid is None else bids.net_cost(auc.bid, auc.bidder == auc.jockey)
        ),
    }
    if own is not None and own == st.to_act:
        is_jockey = own == auc.jockey
        amounts = bids.legal_amounts(st.balances[own], is_jockey, auc.bid)
        out["min_bid"] = bids.min_bid(auc.bid)
        out["max_bid"] = amounts[-1] if amounts else None
        costs = {a: bids.net_cost(a, is_jockey) for a in amounts}
        out["net_cost"] = {str(a): cost for a, cost in costs.items()}
        # R6.6: a bid that costs the whole balance is legal, and loses the game if accepted.
        out["loses_if_accepted"] = [a for a, cost in costs.items() if cost == st.balances[own]]
    return out


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events as `seat` may see them: no other seat's drawn tile, no hidden deal."""
    own = seat if seat in (0, 1) else None
    out: list[Event] = []
    for ev in events:
        kind = ev.get("type")
        if kind == "draw":
            ev = dict(ev)
            if ev.get("player") != own:
                ev["tile"] = None
        elif kind == "deal":
            ev = dict(ev)
            hands = ev.get("hands") or [[], []]
            ev["hands"] = [list(hands[s]) if s == own else None for s in (0, 1)]
            ev["hand_counts"] = [len(hands[0]), len(hands[1])]
            boneyard = ev.get("boneyard") or []
            ev["boneyard"] = None
            ev["boneyard_left"] = len(boneyard)
        else:
            ev = dict(ev)
            for key in ("hands", "totals"):
                if isinstance(ev.get(key), list):
                    ev[key] = [list(x) if isinstance(x, list) else x for x in ev[key]]
        out.append(ev)
    return out
