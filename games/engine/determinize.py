"""A full state built from one seat's view plus a guess at what it cannot see.

Search bots (games/bots) deal the hidden tiles themselves, consistently with the view, and
then play the position on through `apply`: this module turns (view, the other hand, the
boneyard in draw order) into the engine state those tiles make, so that no bot needs to know
how a board, an auction or a turn is stored, and no rule is written twice. The state keeps
no clocks that matter (both banks are effectively endless, time never passes) and no deals
after this round's: a play-out ends with the round.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .board import END_INDEX, SPINNER_AT_LEAD, Arm, Board
from .state import AUCTION, DECISION_PHASES, PLAYING, Auction, Bid, State, blank_state
from .tiles import BIT, FULL_SET, TILE_BY_NAME, mask_of

# Play-outs apply every request at the same instant, so no decision ever uses up its delay;
# the banks only have to be something no flag can fall on.
ENDLESS_BANK = 1e9


def tile_ids(names: Iterable[str]) -> list[int]:
    return [TILE_BY_NAME[name] for name in names]


def board_from_view(board: Mapping[str, Any]) -> Board:
    """The engine's board for a view's `board` (see views.board_view)."""
    lead = board.get("lead")
    if lead is None:
        return Board()
    arms: list[Arm] = []
    for name in ("left", "right", "up", "down"):
        arms.append(tuple((TILE_BY_NAME[p["tile"]], int(p["outer"])) for p in board[name]))
    spinner = board.get("spinner")
    where = None
    if spinner is not None:
        arm = SPINNER_AT_LEAD if spinner["arm"] == "lead" else END_INDEX[spinner["arm"]]
        where = (arm, int(spinner["index"]))
    return Board(TILE_BY_NAME[lead["tile"]], (arms[0], arms[1], arms[2], arms[3]), where)


def board_tiles(board: Board) -> int:
    """The mask of every tile on the table."""
    if board.lead < 0:
        return 0
    mask = BIT[board.lead]
    for arm in board.arms:
        for tile, _outer in arm:
            mask |= BIT[tile]
    return mask


class Position:
    """One seat's view, read once, from which many completions of the hidden tiles are built.

    Every state `deal` returns shares one board object, so the boards a search places from
    it are built once (Board.place remembers them).
    """

    def __init__(self, view: Mapping[str, Any]) -> None:
        seat = view.get("seat")
        if seat not in (0, 1) or view.get("status") != PLAYING:
            raise ValueError("a seat's view of a game in play is needed")
        phase = view["phase"]
        if phase not in DECISION_PHASES:
            raise ValueError(f"no decision is open in phase {phase!r}")
        self.seat: int = seat
        self.view = view
        self.own = mask_of(tile_ids(view["hand"]))
        self.board = board_from_view(view["board"])
        self.table = board_tiles(self.board)
        players = view["players"]
        self.balances: tuple[int, int] = (players[0]["balance"], players[1]["balance"])
        self.other_count: int = players[1 - seat]["hand_count"]
        self.boneyard_count: int = view["boneyard_left"]
        must_play = view.get("must_play")
        self.must_play = TILE_BY_NAME[must_play] if must_play else -1
        passes = 0
        for entry in reversed(view.get("trail") or ()):
            if entry["do"] != "pass":
                break
            passes += 1
        self.passes = passes
        self.auction: Auction | None = None
        if phase == AUCTION:
            auction = view.get("auction")
            if auction is None:
                raise ValueError("an auction view needs its auction")
            self.auction = Auction(
                auction["jockey"],
                auction["rival"],
                auction["bid"],
                auction["bidder"],
                tuple(Bid(b["player"], b["do"], b["amount"]) for b in auction["history"]),
            )

    @property
    def unseen(self) -> int:
        """The mask of the tiles this seat cannot see: the other hand and the boneyard."""
        return FULL_SET & ~self.own & ~self.table

    def deal(self, other_hand: Iterable[int], boneyard: Sequence[int]) -> State:
        """The state in which the other seat holds `other_hand` and the boneyard is
        `boneyard` (first drawn first). ValueError when those are not exactly the unseen
        tiles in the numbers the view shows."""
        other_mask = mask_of(list(other_hand))
        bone_mask = mask_of(list(boneyard))
        if other_mask.bit_count() != self.other_count:
            raise ValueError("the other hand does not have the number of tiles the view shows")
        if len(boneyard) != self.boneyard_count or bone_mask.bit_count() != len(boneyard):
            raise ValueError("the boneyard does not have the number of tiles the view shows")
        if other_mask & bone_mask or other_mask | bone_mask != self.unseen:
            raise ValueError("the tiles given and seen are not the 28 tiles, each once")
        view = self.view
        seat = self.seat
        st = blank_state(
            balances=self.balances,
            banks=(ENDLESS_BANK, ENDLESS_BANK),
            same_device=False,
            created_at=0.0,
            deals=(),
            seed=None,
        )
        st.status = PLAYING
        st.phase = view["phase"]
        st.round = view["round"]
        st.started = (True, True)
        st.hands = (self.own, other_mask) if seat == 0 else (other_mask, self.own)
        st.boneyard = tuple(boneyard)
        st.board = self.board
        st.jockey = view["jockey"]
        st.to_act = view["to_act"]
        st.clock_start = 0.0 if st.to_act is not None else None
        st.must_play = self.must_play
        st.passes = self.passes
        st.auction = self.auction
        return st


def state_from_view(
    view: Mapping[str, Any], other_hand: Iterable[int], boneyard: Sequence[int]
) -> State:
    """The state in which `view`'s seat is where the view says, the other seat holds
    `other_hand` and the boneyard is `boneyard` (first drawn first).

    Only for a seat's view of a round in play (auction, lead or play). Raises ValueError when
    the tiles given do not complete the view: every tile once, the counts the view shows.
    """
    return Position(view).deal(other_hand, boneyard)
