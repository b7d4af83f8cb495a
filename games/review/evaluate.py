"""One decision valued from its player's own view: every legal option's chance to win.

For each sample the unseen tiles are dealt consistently with what the seat had seen
(games.bots.knowledge, as the hard computer deals them), never as they really lay; every
option is applied through the engine and the round is played out by the hard computer's
play-out policy (games.bots.search.play_on). The round's end is then worth its win chance
from the table (games.review.table): 1 or 0 if the game ended, else the chance of the
balance and the next lead. Every option meets the same samples and the same play-out dice,
so the differences between options are not the luck of different deals. Pure Python.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.bots.knowledge import read, sample
from games.bots.search import play_on
from games.engine.determinize import Position
from games.engine.game import (
    MOVE_BID,
    MOVE_PLAY,
    MOVE_RAISE,
    Move,
    action_of,
    decision_moves,
    play_move,
)
from games.engine.state import OVER, ROUND_OVER, State
from games.engine.tiles import TILE_BY_NAME

from .table import WinTable, situation_of

# Samples a decision gets by default: enough that two reviews with different seeds give
# the same grade to at least 95 % of decisions (bench/review.py), few enough for the time goal.
SAMPLES = 40
# Bid and raise amounts valued besides the chosen one: the cheapest few. A higher bid is
# mostly the same lead paid dearer (games.bots.search.MAX_BIDS says the same for play).
BID_OPTIONS = 3
AUCTION_KINDS = frozenset(("bid", "raise", "accept", "renounce"))


@dataclass(frozen=True)
class Option:
    action: dict[str, Any]
    chance: float  # mean win chance of the player after this option, 0..1
    points: float  # mean change of the player's balance by the end of the round


def kind_of(action: Mapping[str, Any]) -> str:
    """ "auction" for a bid, raise, accept or renounce; "tile" for a play, draw or lead."""
    return "auction" if action.get("do") in AUCTION_KINDS else "tile"


def move_of(action: Mapping[str, Any], moves: list[Move]) -> Move:
    """The Move among `moves` that `action` (a logged request) took."""
    for move in moves:
        if action_of(move) == {
            k: action[k] for k in ("do", "tile", "end", "amount") if k in action
        }:
            return move
    if action.get("do") == "play" and "end" not in action:
        # A request may leave out the end when the tile fits only one (or equal) ends.
        tile = TILE_BY_NAME.get(str(action.get("tile")), -1)
        for move in moves:
            if move[0] == MOVE_PLAY and move[1] == tile:
                return move
    raise ValueError(f"{action!r} is not among this view's legal decisions")


def _classes(moves: list[Move], base: State) -> list[list[Move]]:
    """The moves grouped by the table they leave (a tile on two ends showing the same value
    leaves the same ends and count): each group is valued once."""
    groups: dict[Any, list[Move]] = {}
    board = base.board
    for move in moves:
        if move[0] == MOVE_PLAY:
            after = board.place(move[1], move[2])
            key: Any = (move[1], tuple(sorted(zip(after.ends, after.counts, strict=True))))
        else:
            key = move
        groups.setdefault(key, []).append(move)
    return list(groups.values())


def _valued(moves: list[Move], chosen: Move) -> list[Move]:
    """The auction's amounts worth valuing: the cheapest few and the chosen one."""
    amounts = sorted(m[1] for m in moves if m[0] in (MOVE_BID, MOVE_RAISE))
    keep = set(amounts[:BID_OPTIONS])
    return [m for m in moves if m[0] not in (MOVE_BID, MOVE_RAISE) or m[1] in keep or m == chosen]


def end_chance(st: State, seat: int, table: WinTable) -> float:
    """What the end of a play-out is worth to `seat`."""
    if st.status == OVER:
        return 1.0 if st.winner == seat else 0.0
    jockey = st.jockey if st.phase == ROUND_OVER else None
    return table.chance(st.balances[seat], situation_of(seat, jockey))


def chance_of(view: Mapping[str, Any], table: WinTable, *, samples: int, seed: str) -> float:
    """`view`'s seat's win chance as the round stands, with no decision of its own taken:
    the mean, over deals of the unseen tiles consistent with the view, of the play-out's end
    (what games.review.plan weighs a deal or a draw against)."""
    rng = random.Random(f"review/{seed}")
    position = Position(view)
    know = read(view, position)
    total = 0.0
    for _ in range(samples):
        base = position.deal(*sample(know, rng))
        dice = random.Random(rng.getrandbits(64))
        total += end_chance(play_on(base, dice), position.seat, table)
    return total / samples


@dataclass(frozen=True)
class Evaluation:
    seat: int
    kind: str  # "tile" or "auction"
    options: tuple[Option, ...]  # best first
    chosen: int  # index into options
    forced: bool  # one option only (or all leave the same table): not graded
    spread: float  # standard error of the chosen option's deficit to the best, in chance

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def loss(self) -> float:
        """Win chance lost against the best option (0 when the best was chosen)."""
        return max(0.0, self.options[0].chance - self.options[self.chosen].chance)

    @property
    def points_lost(self) -> float:
        return max(0.0, self.options[0].points - self.options[self.chosen].points)


def evaluate(
    view: Mapping[str, Any],
    action: Mapping[str, Any],
    table: WinTable,
    *,
    samples: int = SAMPLES,
    seed: str,
) -> Evaluation:
    """Every option of `view`'s decision valued, and `action` (what the seat did) among them.

    `view` is the seat's own view at that moment (games.engine.view), so nothing its player
    could not see enters: the same view and seed give the same values whatever the real
    hidden tiles were.
    """
    rng = random.Random(f"review/{seed}")
    position = Position(view)
    know = read(view, position)
    seat = position.seat
    start = position.balances[seat]
    first = position.deal(*sample(know, rng))
    moves = decision_moves(first, seat)
    if not moves:
        raise ValueError("this view offers its seat nothing to decide")
    chosen_move = move_of(action, moves)
    groups = _classes(_valued(moves, chosen_move), first)
    kind = kind_of(action)
    if len(groups) == 1:
        only = Option(action_of(groups[0][0]), math.nan, math.nan)
        return Evaluation(seat, kind, (only,), 0, True, 0.0)
    chances = [[0.0] * samples for _ in groups]
    points = [0.0] * len(groups)
    base = first
    for n in range(samples):
        if n:
            base = position.deal(*sample(know, rng))
        dice = random.Random(rng.getrandbits(64))
        throw = dice.getstate()
        for i, group in enumerate(groups):
            dice.setstate(throw)
            end = play_on(play_move(base, seat, group[0], 0.0), dice)
            chances[i][n] = end_chance(end, seat, table)
            points[i] += end.balances[seat] - start
    means = [sum(c) / samples for c in chances]
    order = sorted(range(len(groups)), key=lambda i: -means[i])
    options = tuple(Option(action_of(groups[i][0]), means[i], points[i] / samples) for i in order)
    picked = next(i for i, group in enumerate(groups) if chosen_move in group)
    chosen = order.index(picked)
    best = order[0]
    diffs = [chances[best][n] - chances[picked][n] for n in range(samples)]
    mean = sum(diffs) / samples
    var = sum((d - mean) ** 2 for d in diffs) / max(1, samples - 1)
    spread = math.sqrt(var / samples)
    # The chosen option is named as the player took it, not as its group's first member.
    options = tuple(
        Option(action_of(chosen_move), o.chance, o.points) if k == chosen else o
        for k, o in enumerate(options)
    )
    return Evaluation(seat, kind, options, chosen, False, spread)
