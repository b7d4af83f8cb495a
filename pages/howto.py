"""The "How to play" page's worked examples, played by the engine.

One short game between Ana (seat 0) and Leo (seat 1), from fixed deals: every table, count,
score, balance, bid and clock reading the page shows or states is read from the engine's
views and events while the game is replayed here, so the page cannot say what the rules
do not (tests/pages/test_howto.py checks the figures against the rule book's).
"""

from __future__ import annotations

import functools
from typing import Any

from games import engine
from games.engine.deals import written_deal

NAMES = ("Ana", "Leo")
ANA, LEO = 0, 1

# Round 1: Ana holds the highest double and leads it by rank (R2.2); she goes out (domino).
# Round 2: the auction. Only its first decisions are played, so its boneyard is arbitrary.
DEALS: list[dict[str, Any]] = [
    written_deal(
        "6-6 6-2 0-0 5-2 3-1 3-0 4-1",
        "6-3 6-5 6-1 6-0 4-0 2-1 1-1",
        "2-0 5-4 2-2 5-3 3-3 6-4 5-0 5-1 3-2 1-0 4-3 4-2 5-5 4-4",
    ),
    written_deal(
        "5-5 5-0 4-1 3-2 6-4 2-0 1-0",
        "6-6 4-4 6-3 5-4 3-1 2-2 0-0",
        "6-5 6-2 6-1 6-0 5-3 5-2 5-1 4-3 4-2 4-0 3-3 3-0 2-1 1-1",
    ),
]

# Round 1 after the automatic lead of [6|6]; the times (s) make the clock example: Leo
# decides in 13 s (3 s from his bank), Ana in 8 s (nothing from hers).
LEO_THINKS = 13.0
ANA_THINKS = 8.0
ANA_SEEN_AT = 5.0  # her clock's picture: this far into her decision
ROUND_1: list[tuple[int, dict[str, Any]]] = [
    (LEO, {"do": "play", "tile": "6-3", "end": "right"}),
    (ANA, {"do": "play", "tile": "6-2", "end": "left"}),
    (LEO, {"do": "play", "tile": "6-5", "end": "up"}),
    (ANA, {"do": "play", "tile": "5-2", "end": "up"}),
    (LEO, {"do": "play", "tile": "2-1", "end": "up"}),
    (ANA, {"do": "play", "tile": "3-0", "end": "right"}),
    (LEO, {"do": "play", "tile": "1-1", "end": "up"}),
    (ANA, {"do": "play", "tile": "3-1", "end": "up"}),
    (LEO, {"do": "play", "tile": "6-1", "end": "down"}),
    (ANA, {"do": "play", "tile": "4-1", "end": "down"}),
    (LEO, {"do": "play", "tile": "4-0", "end": "down"}),
    (ANA, {"do": "play", "tile": "0-0", "end": "right"}),
]
# Round 2: Leo, the rival, bids the least; Ana, the jockey, raises by the least; Leo accepts.
AUCTION: list[tuple[int, dict[str, Any]]] = [
    (LEO, {"do": "bid", "amount": 15}),
    (ANA, {"do": "raise", "amount": 20}),
    (LEO, {"do": "accept"}),
]


class _Game:
    """The example game: the engine's state, moved on one request at a time."""

    def __init__(self) -> None:
        self.t = 0.0
        self.state = engine.new_game(deals=DEALS, created_at=0.0)
        self.events: list[dict[str, Any]] = []
        for seat in (ANA, LEO):
            self.do(seat, {"do": "start"}, 0.0)

    def do(self, seat: int, action: dict[str, Any], seconds: float = 1.0) -> list[dict[str, Any]]:
        self.t += seconds
        self.state, events = engine.apply(self.state, seat, action, self.t)
        self.events = events
        return events

    def view(self, seat: int | None = None, at: float | None = None) -> dict[str, Any]:
        return engine.view(self.state, seat, self.t if at is None else at)

    def balances(self) -> list[int]:
        return [p["balance"] for p in self.view()["players"]]


def tile_text(tile: str | None) -> str:
    """The notation of the rule book and the game log: "6-3" is written "[6|3]"."""
    return f"[{tile.replace('-', '|')}]" if tile else ""


def _table(view: dict[str, Any], last: str | None) -> dict[str, Any]:
    """What a picture of the table needs: the board as the page gets it, the tile just
    placed, and the open ends with what each counts."""
    board = view["board"]
    return {
        "board": board,
        "last": last,
        "last_text": tile_text(last),
        "ends": {e["end"]: e["counts"] for e in board["ends"]},
        "count": board["count"],
        "scores": board["scores"] or 0,
    }


def _score(events: list[dict[str, Any]]) -> int:
    return sum(e["points"] for e in events if e["type"] == "score")


def _clock(view: dict[str, Any], at: float) -> dict[str, Any]:
    """A clock reading as the game page draws it (clocks.js's clockReadout): the view's
    clock and banks, and the instant in epoch milliseconds on the view's axis."""
    return {
        "view": {
            "status": view["status"],
            "clock": view["clock"],
            "players": [{"bank": p["bank"]} for p in view["players"]],
            "rules": view["rules"],
        },
        "at_ms": round(at * 1000),
    }


@functools.lru_cache(maxsize=1)
def examples() -> dict[str, Any]:
    """Every example of the page: pictures' data (JSON) and the figures its text states."""
    game = _Game()
    rules = dict(engine.RULES)
    lead = _table(game.view(), "6-6")
    before = game.balances()

    # The clock: Leo's decision, 13 s in (its delay spent, 3 s gone from his bank).
    leo_clock = _clock(game.view(LEO, at=LEO_THINKS), LEO_THINKS)
    game.do(LEO, dict(ROUND_1[0][1]), LEO_THINKS)
    fives = _table(game.view(), "6-3")
    fives["points"] = _score(game.events)
    after = game.balances()
    leo_bank = game.view()["players"][LEO]["bank"]
    ana_clock = _clock(game.view(ANA, at=game.t + ANA_SEEN_AT), game.t + ANA_SEEN_AT)

    game.do(ANA, dict(ROUND_1[1][1]), ANA_THINKS)
    closed = _table(game.view(), "6-2")
    closed["points"] = _score(game.events)
    ana_bank = game.view()["players"][ANA]["bank"]
    game.do(LEO, dict(ROUND_1[2][1]))
    lateral = _table(game.view(), "6-5")
    lateral["points"] = _score(game.events)

    for seat, action in ROUND_1[3:]:
        game.do(seat, dict(action))
    domino = _table(game.view(), ROUND_1[-1][1]["tile"])
    domino["player"] = ROUND_1[-1][0]
    round_1 = game.view()["last_round"]
    at_auction = game.balances()
    for seat in (ANA, LEO):
        game.do(seat, {"do": "continue"})

    bids: list[dict[str, Any]] = []
    for seat, action in AUCTION:
        auction = game.view(seat)["auction"]
        events = game.do(seat, dict(action))
        amount = action.get("amount")
        step = {"player": seat, "do": action["do"], "amount": amount}
        if amount is not None:
            step["net_cost"] = auction["net_cost"][str(amount)]
        accepted = [e for e in events if e["type"] == "accept"]
        if accepted:
            step.update(bid=accepted[0]["bid"], paid=accepted[0]["amount"])
            step["payer"] = accepted[0]["payer"]
        bids.append(step)
    jockey_view = game.view(ANA)
    return {
        "names": list(NAMES),
        "rules": rules,
        "total": sum(before),
        "lead": lead,
        "fives": fives,
        "transfer": {
            "before": before,
            "after": after,
            "points": fives["points"],
            "payer": ANA,
            "payee": LEO,
        },
        "spinner": {"lead": lead, "closed": closed, "lateral": lateral},
        "auction": {
            "domino": domino,
            "jockey": jockey_view["jockey"],
            "round_1": round_1,
            "before": at_auction,
            "after": game.balances(),
            "bids": bids,
            "leads": jockey_view["to_act"],
            "phase": jockey_view["phase"],
        },
        "clock": {
            "leo": leo_clock,
            "ana": ana_clock,
            "leo_thinks": LEO_THINKS,
            "ana_thinks": ANA_THINKS,
            "ana_seen_at": ANA_SEEN_AT,
            "leo_bank": leo_bank,
            "leo_from_bank": rules["bank"] - leo_bank,
            "ana_bank": ana_bank,
        },
    }


# The page's scripts: its own and the game page's modules it draws with (all preloaded).
MODULES = (
    "pages/howto.js",
    "games/game/board.js",
    "games/game/board-layout.js",
    "games/game/balances.js",
    "games/game/clocks.js",
)


def pictures() -> dict[str, Any]:
    """What the page's script draws (json_script): each table and each clock reading."""
    ex = examples()
    tables = {
        "lead": ex["lead"],
        "fives": ex["fives"],
        "closed": ex["spinner"]["closed"],
        "lateral": ex["spinner"]["lateral"],
        "domino": ex["auction"]["domino"],
    }
    return {
        "tables": {
            k: {"board": t["board"], "last": t["last"], "ends": t["ends"]}
            for k, t in tables.items()
        },
        "clocks": {"leo": ex["clock"]["leo"], "ana": ex["clock"]["ana"]},
    }
