"""The hard bot: determinized play-outs (perfect-information Monte Carlo) from its view.

For each sample it deals the unseen tiles consistently with what its seat observed
(games/bots/knowledge.py), builds that position through the engine
(games.engine.determinize) and, for every candidate decision, plays the round out with a
quick greedy policy through the engine's own transitions (`play_move`, the search form of
`apply`); the candidate with the best total balance change over the samples wins. Every
candidate meets the same samples and the same play-out dice, so the comparison is between
decisions, not between luck.

The search stops after a number of play-outs that follows from the budget (so the same
view, seed and budget give the same action on any machine fast enough to finish them), or
when the budget's time is up, whichever comes first.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from games.engine.auction import net_cost
from games.engine.board import Board, lead_board
from games.engine.determinize import Position
from games.engine.game import (
    MOVE_BID,
    MOVE_LEAD,
    MOVE_PLAY,
    MOVE_RAISE,
    Move,
    action_of,
    decision_moves,
    play_move,
    points_for_count,
)
from games.engine.state import DECISION_PHASES, OVER, PLAYING, ROUND_OVER, State
from games.engine.tiles import N_TILES, PIPS

from .knowledge import read, sample
from .policies import decisions, hand_value, outbids, placement_score, possible_opponent_tiles

Action = dict[str, Any]

# Play-outs a second of budget buys (for a placement; the auction and the lead get
# KEY_DECISION_SHARE times more). Well below what one core runs, so the count, not the
# clock, ends the search and the action does not depend on the machine's speed; the clock
# only stops a search on a machine too busy to finish it (bench/RESULTS.md).
PLAYOUTS_PER_SECOND = 1000
# Bid amounts searched: the cheapest only. In play-outs a higher bid is mostly the same
# outcome paid dearer, and every extra candidate thins the samples of the others.
MAX_BIDS = 1
# The auction and the lead after it decide more points than a placement, and come once a
# round: they get this many times the play-outs of a placement.
KEY_DECISION_SHARE = 4
# What a bid or raise must gain over accepting or renouncing, in points per play-out, before
# the search takes it: its estimate is noisy, and the winner of a noisy maximum is biased up.
BID_MARGIN = 2.0
# How far a placement is played out: its points and the replies to it show within a few
# moves; further on the dice decide more than the placement did, and cost play-outs.
PLACEMENT_HORIZON = 6
PRIOR = 2.0  # weight of medium's score of a placement, added to its play-out mean
GREEDY = 0.85  # how often the play-out policy takes the best-scoring placement
WIN_BONUS = 150  # a won game is worth more than the points it moved
JOCKEY_BONUS = 5  # a domino makes its player the jockey of the next auction (R6.5)

_LEAD_POINTS: tuple[int, ...] = tuple(points_for_count(lead_board(t).count) for t in range(N_TILES))


def _playout_move(st: State, seat: int, rng: random.Random) -> Move:
    moves = decision_moves(st, seat)
    if len(moves) == 1:
        return moves[0]
    kind = moves[0][0]
    if kind in (MOVE_PLAY, MOVE_LEAD):
        if rng.random() > GREEDY:
            return rng.choice(moves)
        board = st.board
        best, best_score = moves[0], -1
        for move in moves:
            tile = move[1]
            if kind == MOVE_LEAD:
                points = _LEAD_POINTS[tile]
            else:
                points = points_for_count(board.place(tile, move[2]).count)
            # Among equal scores, shed the heaviest tile: a block pays the lighter hand.
            score = points * 16 + PIPS[tile]
            if score > best_score:
                best, best_score = move, score
        return best
    # The auction: bid or raise the cheapest amount while it costs less than leading is worth.
    auction = st.auction
    assert auction is not None
    forgone = 0 if auction.bid is None else net_cost(auction.bid, auction.bidder == auction.jockey)
    if outbids(hand_value(st.hands[seat]), net_cost(moves[1][1], seat == auction.jockey), forgone):
        return moves[1]
    return moves[0]  # renounce or accept


def play_on(st: State, rng: random.Random, horizon: int = 1000) -> State:
    """The state after both seats play on with the play-out policy for `horizon` moves at
    most, or to the end of the round (what games.review values a decision by)."""
    while st.status == PLAYING and st.phase in DECISION_PHASES and horizon > 0:
        seat = st.to_act
        assert seat is not None
        st = play_move(st, seat, _playout_move(st, seat, rng), 0.0)
        horizon -= 1
    return st


def rollout(
    st: State, me: int, start_balance: int, rng: random.Random, horizon: int = 1000
) -> float:
    """Play on for `horizon` moves at most, or to the end of the round; my balance change,
    plus what winning the game or the domino is worth."""
    st = play_on(st, rng, horizon)
    value = float(st.balances[me] - start_balance)
    if st.status == OVER:
        value += WIN_BONUS if st.winner == me else -WIN_BONUS
    elif st.phase == ROUND_OVER and st.jockey is not None:
        value += JOCKEY_BONUS if st.jockey == me else -JOCKEY_BONUS
    return value


def candidates(moves: list[Move], board: Board) -> list[Move]:
    """The decisions worth searching: one placement per distinct table it leaves (a tile
    fitting two ends that show the same value leaves the same ends and count either way),
    and only the cheapest bids."""
    if moves[0][0] == MOVE_PLAY:
        seen: set[tuple[int, tuple[tuple[int, int], ...]]] = set()
        distinct: list[Move] = []
        for move in moves:
            after = board.place(move[1], move[2])
            key = (move[1], tuple(sorted(zip(after.ends, after.counts, strict=True))))
            if key not in seen:
                seen.add(key)
                distinct.append(move)
        return distinct
    amounts = sorted(m[1] for m in moves if m[0] in (MOVE_BID, MOVE_RAISE))
    if len(amounts) <= MAX_BIDS:
        return moves
    top = amounts[MAX_BIDS - 1]
    return [m for m in moves if m[0] not in (MOVE_BID, MOVE_RAISE) or m[1] <= top]


def hard(
    view: Mapping[str, Any],
    rng: random.Random,
    *,
    budget: float,
    playouts: int | None = None,
) -> Action:
    """The best candidate over determinized play-outs; `playouts` overrides the budget's count."""
    legal = decisions(view)
    if len(legal) == 1:
        return legal[0]
    started = time.perf_counter()
    position = Position(view)
    know = read(view, position)
    me = position.seat
    balance = position.balances[me]
    hand, boneyard = sample(know, rng)
    first = position.deal(hand, boneyard)
    options = candidates(decision_moves(first, me), first.board)
    if len(options) == 1:
        return action_of(options[0])
    limit = playouts if playouts is not None else int(budget * PLAYOUTS_PER_SECOND)
    horizon = PLACEMENT_HORIZON
    if view["phase"] in ("auction", "lead"):
        limit *= KEY_DECISION_SHARE
        horizon = 1000
    samples = max(1, limit // len(options))
    stop = started + budget
    totals = [0.0] * len(options)
    base = first
    done = 0
    for n in range(samples):
        if n:
            hand, boneyard = sample(know, rng)
            base = position.deal(hand, boneyard)
        dice = random.Random(rng.getrandbits(64))
        throw = dice.getstate()  # restored for each candidate: cheaper than seeding anew
        values: list[float] = []
        for move in options:
            if done and time.perf_counter() >= stop:
                break  # out of time mid-sample: every candidate keeps the same samples
            dice.setstate(throw)
            values.append(rollout(play_move(base, me, move, 0.0), me, balance, dice, horizon))
        if len(values) < len(options):
            break
        for i, value in enumerate(values):
            totals[i] += value
        done += 1
        if time.perf_counter() >= stop:
            break
    scores = [
        t / done - (BID_MARGIN if m[0] in (MOVE_BID, MOVE_RAISE) else 0.0)
        for t, m in zip(totals, options, strict=True)
    ]
    if PRIOR and options[0][0] in (MOVE_PLAY, MOVE_LEAD):
        # A few play-outs per candidate are noisy: medium's judgement of the placement
        # (its points, the reply it allows, doubles and weight shed) steadies them.
        possible = possible_opponent_tiles(know)
        for i, (kind, tile, end) in enumerate(options):
            after = lead_board(tile) if kind == MOVE_LEAD else first.board.place(tile, end)
            pts = points_for_count(after.count)
            scores[i] += PRIOR * placement_score(after, tile, know.hand, possible, pts)
    best = max(range(len(options)), key=lambda i: scores[i])
    return action_of(options[best])
