"""The hard bot: determinized play-outs (perfect-information Monte Carlo) from its view.

For each sample it deals the unseen tiles consistently with what its seat observed
(games/bots/knowledge.py), builds that position through the engine
(games.engine.determinize) and, for every candidate action, plays the round out with a
quick greedy policy through the engine's own `apply`; the candidate with the best total
balance change over the samples wins. Every candidate meets the same samples and the same
play-out dice, so the comparison is between actions, not between luck.

The search stops at a number of play-outs that follows from the budget (so the same view,
seed and budget give the same action on any machine fast enough to finish them), or when
the budget's time is up, whichever comes first.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from games.engine import apply, legal_actions
from games.engine.auction import net_cost
from games.engine.board import END_INDEX, lead_board
from games.engine.determinize import state_from_view
from games.engine.game import points_for_count
from games.engine.state import DECISION_PHASES, OVER, PLAYING, ROUND_OVER, State
from games.engine.tiles import TILE_BY_NAME

from .knowledge import read, sample
from .policies import decisions, hand_value

Action = dict[str, Any]

# Play-outs the budget buys: set below what one core does, so the count, not the clock,
# ends the search on a healthy machine (and the result does not depend on its speed).
PLAYOUTS_PER_SECOND = 2000
MAX_BIDS = 4  # bid amounts searched: the cheapest few; higher ones rarely pay
GREEDY = 0.85  # how often the play-out policy takes the highest-scoring placement
WIN_BONUS = 150  # a won game is worth more than the points it moved
JOCKEY_BONUS = 5  # a domino makes its player the jockey of the next auction (R6.5)


def _playout_action(st: State, seat: int, rng: random.Random) -> Action:
    legal = legal_actions(st, seat)
    legal.pop()  # resign is always last
    if len(legal) == 1:
        return legal[0]
    first = legal[0]["do"]
    if first in ("play", "lead"):
        if rng.random() > GREEDY:
            return rng.choice(legal)
        board = st.board
        best, best_points = legal[0], -1
        for action in legal:
            tile = TILE_BY_NAME[action["tile"]]
            if first == "lead":
                points = points_for_count(_lead_count(tile))
            else:
                points = points_for_count(board.place(tile, END_INDEX[action["end"]]).count)
            if points > best_points:
                best, best_points = action, points
        return best
    # The auction: raise the cheapest amount while it costs less than the hand's lead is worth.
    auction = st.auction
    assert auction is not None
    value = hand_value(st.hands[seat])
    cheapest = legal[1]
    if net_cost(cheapest["amount"], seat == auction.jockey) < value:
        return cheapest
    return legal[0]  # renounce or accept


_LEAD_COUNTS: dict[int, int] = {}


def _lead_count(tile: int) -> int:
    count = _LEAD_COUNTS.get(tile)
    if count is None:
        count = _LEAD_COUNTS[tile] = lead_board(tile).count
    return count


def rollout(st: State, me: int, start_balance: int, rng: random.Random) -> float:
    """Play the round out; my balance change, plus what winning the game or the domino is worth."""
    while st.status == PLAYING and st.phase in DECISION_PHASES:
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, _playout_action(st, seat, rng), 0.0)
    value = float(st.balances[me] - start_balance)
    if st.status == OVER:
        value += WIN_BONUS if st.winner == me else -WIN_BONUS
    elif st.phase == ROUND_OVER and st.jockey is not None:
        value += JOCKEY_BONUS if st.jockey == me else -JOCKEY_BONUS
    return value


def candidates(legal: list[Action]) -> list[Action]:
    """The actions worth searching: all placements, and only the cheapest bids."""
    bids = [a for a in legal if a["do"] in ("bid", "raise")]
    if len(bids) <= MAX_BIDS:
        return legal
    keep = {a["amount"] for a in sorted(bids, key=lambda a: a["amount"])[:MAX_BIDS]}
    return [a for a in legal if a["do"] not in ("bid", "raise") or a["amount"] in keep]


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
    options = candidates(legal)
    limit = playouts if playouts is not None else int(budget * PLAYOUTS_PER_SECOND)
    samples = max(1, limit // len(options))
    started = time.perf_counter()
    stop = started + budget
    know = read(view)
    me: int = view["seat"]
    balance = view["players"][me]["balance"]
    totals = [0.0] * len(options)
    for _ in range(samples):
        hand, boneyard = sample(know, rng)
        base = state_from_view(view, hand, boneyard)
        dice = rng.getrandbits(64)
        for i, action in enumerate(options):
            st, _ = apply(base, me, action, 0.0)
            totals[i] += rollout(st, me, balance, random.Random(dice))
        if time.perf_counter() >= stop:
            break
    best = max(range(len(options)), key=lambda i: totals[i])
    return options[best]
