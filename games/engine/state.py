"""The game state: one flat object of immutable values.

Every field holds an int, float, str, bool, None, tuple, `Board`, `Auction` or a dict that is
never changed after it is built. `clone()` therefore copies ~30 references, and a transition
replaces only the fields it changes (copy-on-write): the engine never deep-copies and never
mutates a state it was handed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, cast

from .board import EMPTY_BOARD, Board

# Phases and statuses, spelled as in the scenario files (docs/engine-api.md).
START, AUCTION, LEAD, PLAY, ROUND_OVER, FINISHED = (
    "start",
    "auction",
    "lead",
    "play",
    "round_over",
    "finished",
)
WAITING, PLAYING, OVER, ABORTED, NO_DEAL = "waiting", "playing", "finished", "aborted", "no_deal"
# Voided by a proven service fault (R7.10); the platform's database spells it the same way.
CANCELLED = "cancelled"
DECISION_PHASES = frozenset((AUCTION, LEAD, PLAY))
TERMINAL = frozenset((OVER, ABORTED, NO_DEAL, CANCELLED))

# A deal: (hand of seat 0, hand of seat 1, boneyard in draw order), as tile ids.
Deal = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class Bid(NamedTuple):
    player: int
    do: str  # "bid" or "raise"
    amount: int


class Auction(NamedTuple):
    jockey: int
    rival: int
    bid: int | None  # the standing bid
    bidder: int | None
    history: tuple[Bid, ...]


class Payment(NamedTuple):
    payer: int
    payee: int
    points: int
    why: str  # "score", "block" or "auction"


# One entry of `State.trail`: (seat, kind, tile id or -1, detail). The detail of a play is
# the end index; of a draw or a pass, the mask of the values open at the ends at that moment
# (bit v set when an end shows v); of a lead, 0.
TrailEntry = tuple[int, int, int, int]
TRAIL_LEAD, TRAIL_AUTO_LEAD, TRAIL_PLAY, TRAIL_DRAW, TRAIL_PASS = 0, 1, 2, 3, 4


class State:
    __slots__ = (
        "auction",
        "balances",
        "banks",
        "board",
        "boneyard",
        "clock_start",
        "closed_at",
        "continued",
        "created_at",
        "deals",
        "drawn",
        "hands",
        "jockey",
        "last_round",
        "must_play",
        "passes",
        "payments",
        "phase",
        "reason",
        "round",
        "same_device",
        "seed",
        "showing",
        "started",
        "status",
        "to_act",
        "trail",
        "winner",
    )

    status: str
    phase: str
    round: int  # rounds dealt so far
    same_device: bool
    created_at: float
    started: tuple[bool, bool]
    continued: tuple[bool, bool]
    balances: tuple[int, int]
    # Bank of each seat as of the start of the running decision; the running seat's bank is
    # charged only when its decision ends (R7.4), so a view computes it as of `now`.
    banks: tuple[float, float]
    to_act: int | None
    # Start of the running decision; None when no clock runs (start phase, round over, or a
    # same-device seat that has not revealed yet: R7.7).
    clock_start: float | None
    showing: int | None  # same device: the seat whose hand is on screen
    hands: tuple[int, int]  # tile masks
    boneyard: tuple[int, ...]  # this round's boneyard in draw order; `drawn` already taken
    drawn: int
    must_play: int  # R5.2: the drawn tile that has to be played now, or -1
    passes: int  # passes in a row (R5.6)
    board: Board
    jockey: int | None
    auction: Auction | None
    winner: int | None
    reason: str | None
    closed_at: float | None  # when the current round closed (P2)
    payments: tuple[Payment, ...]  # this round's transfers, for the round summary
    last_round: dict[str, object] | None  # built once at the close, never changed afterwards
    deals: tuple[Deal, ...]  # the deals given up front that are not dealt yet, in order
    seed: str | None  # secret for the deals not given up front; None: stop when they run out
    # This round's placements, draws and passes in order (TRAIL_* below): what both players
    # watched happen at the table, so a view can show its public part (who drew on which ends).
    trail: tuple[TrailEntry, ...]

    def clone(self) -> State:
        """A shallow copy; replaced below by a generated, unrolled version of the same loop."""
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        return new


def _unrolled_clone() -> Callable[[State], State]:
    # clone() runs once per transition and is the largest cost of one; straight-line
    # attribute copies are much faster than the getattr/setattr loop.
    lines = ["def clone(self):", "    new = _new(_State)"]
    lines += [f"    new.{name} = self.{name}" for name in State.__slots__]
    lines.append("    return new")
    namespace: dict[str, object] = {"_new": object.__new__, "_State": State}
    exec("\n".join(lines), namespace)
    return cast(Callable[[State], State], namespace["clone"])


State.clone = _unrolled_clone()  # type: ignore[method-assign,assignment]


def blank_state(
    *,
    balances: tuple[int, int],
    banks: tuple[float, float],
    same_device: bool,
    created_at: float,
    deals: tuple[Deal, ...],
    seed: str | None,
) -> State:
    st = State.__new__(State)
    st.status = WAITING
    st.phase = START
    st.round = 0
    st.same_device = same_device
    st.created_at = created_at
    st.started = (False, False)
    st.continued = (False, False)
    st.balances = balances
    st.banks = banks
    st.to_act = None
    st.clock_start = None
    st.showing = None
    st.hands = (0, 0)
    st.boneyard = ()
    st.drawn = 0
    st.must_play = -1
    st.passes = 0
    st.board = EMPTY_BOARD
    st.jockey = None
    st.auction = None
    st.winner = None
    st.reason = None
    st.closed_at = None
    st.payments = ()
    st.last_round = None
    st.deals = deals
    st.seed = seed
    st.trail = ()
    return st


def copy_summary(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """A deep copy of a round summary: states share it between versions, so nobody may edit it."""
    if summary is None:
        return None
    return {
        "round": summary["round"],
        "reason": summary["reason"],
        "hands": [list(summary["hands"][0]), list(summary["hands"][1])],
        "totals": list(summary["totals"]),
        "payments": [dict(p) for p in summary["payments"]],
    }
