"""The rules as state transitions: new_game, apply, advance, legal_actions, deadline.

Every public function takes a state and returns a new one; the state it was given is never
changed. `apply` and `advance` clone the state once and then let the private helpers below
update that private copy in place, which is what keeps a transition cheap.

Automatic actions (lead by rank R2.2, forced pass R5.3, forced renounce or accept R6.7) are
performed inside the transition that makes them due, at the same instant, and reported as
events with "auto": true; they take no time (R7.9).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from . import auction as bids
from .actions import ACTION_KEYS, choices
from .board import EMPTY_BOARD, END_INDEX, END_NAMES, Board, lead_board
from .clock import BANK, CONTINUE_TIMEOUT, START_TIMEOUT, charge, flag_at
from .deals import new_seed, parse_deal, shuffled_deal
from .errors import RuleError
from .state import (
    ABORTED,
    AUCTION,
    CANCELLED,
    DECISION_PHASES,
    FINISHED,
    LEAD,
    NO_DEAL,
    OVER,
    PLAY,
    PLAYING,
    ROUND_OVER,
    START,
    TERMINAL,
    TRAIL_AUTO_LEAD,
    TRAIL_DRAW,
    TRAIL_LEAD,
    TRAIL_PASS,
    TRAIL_PLAY,
    WAITING,
    Auction,
    Bid,
    Deal,
    Payment,
    State,
    blank_state,
)
from .tiles import BIT, NAME, OTHER, RANK_ORDER, mask_of, names_of, pip_total, tiles_of
from .tiles import TILE_BY_NAME as _TILE_NAMES

Event = dict[str, Any]
Action = dict[str, Any]

BALANCE = 150  # R1.1: each player's starting points, unless a game is created with others
VOID_REASON = "service_fault"  # R7.10; also what the platform's fault cancellation records

_PHASE_OF: dict[str, str] = {
    "play": PLAY,
    "draw": PLAY,
    "lead": LEAD,
    "bid": AUCTION,
    "raise": AUCTION,
    "accept": AUCTION,
    "renounce": AUCTION,
}
_WRONG_PHASE_HINT: dict[str, str] = {
    PLAY: "it is a turn of play: play a tile or draw",
    LEAD: "the auction is over: lead a tile",
    AUCTION: "the lead is being auctioned",
}


# --------------------------------------------------------------------------- creation


def new_game(
    deals: Sequence[Mapping[str, Any]] | None = None,
    balances: Sequence[int] = (BALANCE, BALANCE),
    banks: Sequence[float] = (BANK, BANK),
    same_device: bool = False,
    created_at: float = 0.0,
    rng: random.Random | None = None,
) -> State:
    """A game waiting for both players to press Start (P1).

    `deals` lists the deal of each round in order. Without it every round is shuffled from a
    secret seed drawn from `rng` (see deals.py). With it, the listed deals are used first; when
    they run out the game continues with shuffled deals if an `rng` was given, and otherwise
    stops with status "no_deal" (what a scenario replay wants).
    """
    if len(balances) != 2 or any(type(b) is not int or b < 0 for b in balances):
        raise ValueError("balances must be two non-negative integers")
    if len(banks) != 2 or any(isinstance(b, bool) or float(b) < 0 for b in banks):
        raise ValueError("banks must be two non-negative numbers of seconds")
    given: tuple[Deal, ...] = tuple(parse_deal(d) for d in deals) if deals is not None else ()
    seed = new_seed(rng) if deals is None or rng is not None else None
    return blank_state(
        balances=(balances[0], balances[1]),
        banks=(float(banks[0]), float(banks[1])),
        same_device=bool(same_device),
        created_at=float(created_at),
        deals=given,
        seed=seed,
    )


# --------------------------------------------------------------------------- queries


def awaiting_reveal(st: State) -> bool:
    """Same device: the seat to act has not shown its hand yet, so its clock is stopped."""
    return (
        st.same_device
        and st.to_act is not None
        and st.status == PLAYING
        and st.phase in DECISION_PHASES
        and st.showing != st.to_act
    )


def deadline(st: State) -> float | None:
    """The next instant at which `advance` changes something, or None."""
    status = st.status
    if status == WAITING:
        return st.created_at + START_TIMEOUT  # P1
    if status != PLAYING:
        return None
    if st.phase == ROUND_OVER:
        assert st.closed_at is not None
        return st.closed_at + CONTINUE_TIMEOUT  # P2
    if st.clock_start is not None:
        assert st.to_act is not None
        return flag_at(st.banks[st.to_act], st.clock_start)  # R7.6
    return None


def bank_at(st: State, seat: int, now: float) -> float:
    """Seconds left in a seat's bank as of `now` (the running clock included)."""
    bank = st.banks[seat]
    if st.to_act == seat and st.clock_start is not None:
        return charge(bank, st.clock_start, now)
    return bank


def choices_of(st: State, seat: int | None) -> list[Action]:
    """`seat`'s legal actions other than resigning: whether, and what, it has to choose."""
    return choices(legal_actions(st, seat))


def press_ready(st: State, now: float) -> State:
    """Both seats take their first choice while nobody is to act (Start, Continue, Reveal):
    how simulations move a game on between decisions."""
    for seat in (0, 1):
        buttons = choices_of(st, seat)
        if buttons:
            st, _ = apply(st, seat, buttons[0], now)
    return st


def legal_actions(st: State, seat: int | None) -> list[Action]:
    """Every action `seat` may send now, in ACTION form; each one is accepted by `apply`.

    "Now" is the state's own time: a caller holding a later clock reading calls `advance`
    first, since a flag or an automatic Continue may be due.
    """
    if st.status in TERMINAL or seat not in (0, 1):
        return []
    phase = st.phase
    resign: Action = {"do": "resign"}
    if phase == START:
        return [resign] if st.started[seat] else [{"do": "start"}, resign]
    if phase == ROUND_OVER:
        return [resign] if st.continued[seat] else [{"do": "continue"}, resign]
    if seat != st.to_act:
        return [resign]
    if awaiting_reveal(st):
        return [{"do": "reveal"}, resign]
    out = [_action_of(move) for move in _moves(st, seat)]
    out.append(resign)
    return out


# --------------------------------------------------------------------------- moves for search

# A decision in compact form for search (games/bots): (kind, tile id or amount, end index).
# The same decisions as `legal_actions` lists, in the same order, without building requests.
Move = tuple[int, int, int]
MOVE_PLAY, MOVE_DRAW, MOVE_LEAD, MOVE_BID, MOVE_RAISE, MOVE_ACCEPT, MOVE_RENOUNCE = range(7)
_DRAW: Move = (MOVE_DRAW, -1, -1)
_ACCEPT: Move = (MOVE_ACCEPT, -1, -1)
_RENOUNCE: Move = (MOVE_RENOUNCE, -1, -1)


def decision_moves(st: State, seat: int) -> list[Move]:
    """The decisions `seat` may take now as Moves; empty when it has none to take
    (not its turn, no round in play, a same-device hand not revealed yet)."""
    if st.status != PLAYING or seat != st.to_act or st.phase not in DECISION_PHASES:
        return []
    if awaiting_reveal(st):
        return []
    return _moves(st, seat)


def _moves(st: State, seat: int) -> list[Move]:
    phase = st.phase
    if phase == PLAY:
        board = st.board
        if st.must_play >= 0:
            candidates: tuple[int, ...] = (st.must_play,)
        else:
            candidates = tiles_of(st.hands[seat] & board.fit_mask)
        if not candidates:
            return [_DRAW]
        out: list[Move] = []
        ends = board.ends
        for t in candidates:
            base = t * 7
            for e in range(4):
                v = ends[e]
                if v >= 0 and OTHER[base + v] >= 0:
                    out.append((MOVE_PLAY, t, e))
        return out
    if phase == LEAD:
        return [(MOVE_LEAD, t, -1) for t in tiles_of(st.hands[seat])]
    auc = st.auction
    assert auc is not None
    amounts = bids.legal_amounts(st.balances[seat], seat == auc.jockey, auc.bid)
    if auc.bid is None:
        return [_RENOUNCE, *((MOVE_BID, a, -1) for a in amounts)]
    return [_ACCEPT, *((MOVE_RAISE, a, -1) for a in amounts)]


def _action_of(move: Move) -> Action:
    kind, x, end = move
    if kind == MOVE_PLAY:
        return {"do": "play", "tile": NAME[x], "end": END_NAMES[end]}
    if kind == MOVE_LEAD:
        return {"do": "lead", "tile": NAME[x]}
    if kind == MOVE_BID:
        return {"do": "bid", "amount": x}
    if kind == MOVE_RAISE:
        return {"do": "raise", "amount": x}
    return {"do": _MOVE_DO[kind]}


_MOVE_DO = {MOVE_DRAW: "draw", MOVE_ACCEPT: "accept", MOVE_RENOUNCE: "renounce"}


def action_of(move: Move) -> Action:
    """The request a client would send for `move`."""
    return _action_of(move)


def play_move(st: State, seat: int, move: Move, now: float) -> State:
    """`apply` for a Move from `decision_moves`, for search: the new state and no events.

    No timed transition runs first (a play-out never lets time pass) and the request is not
    re-read; a move that `decision_moves` does not list raises RuleError like `apply`.
    """
    if st.status != PLAYING or seat != st.to_act or st.phase not in DECISION_PHASES:
        raise RuleError("not_your_turn", "It is not your turn.")
    if awaiting_reveal(st):
        raise RuleError("wrong_phase", "Reveal your tiles first.")
    new = st.clone()
    events: list[Event] = []
    kind, x, end = move
    if kind == MOVE_PLAY:
        if st.phase != PLAY or not 0 <= end < 4:
            raise RuleError("wrong_phase", "You cannot play a tile now.")
        _do_play(new, seat, x, END_NAMES[end], now, events)
    else:
        action = _action_of(move)
        _do_decision(new, seat, action["do"], action, now, events)
    return new


# --------------------------------------------------------------------------- transitions


def advance(state: State, now: float) -> tuple[State, list[Event]]:
    """Timed transitions due by `now`: P1 abort, flag (R7.6), P2 automatic Continue.

    Each happens at its own instant (not at `now`), so a round started by P2 at close + 30 s
    has its clock running from then, and may itself flag before `now`. Returns the same
    object when nothing is due.
    """
    st = state
    events: list[Event] = []
    while True:
        status = st.status
        if status == WAITING:
            at = st.created_at + START_TIMEOUT
            if now >= at:
                if st is state:
                    st = st.clone()
                _abort(st, at, events)
            break
        if status != PLAYING:
            break
        if st.phase == ROUND_OVER:
            assert st.closed_at is not None
            at = st.closed_at + CONTINUE_TIMEOUT
            if now < at:
                break
            if st is state:
                st = st.clone()
            _start_round(st, at, events)  # P2: the next round starts at close + 30 s
            continue
        start = st.clock_start
        if start is not None:
            seat = st.to_act
            assert seat is not None
            at = flag_at(st.banks[seat], start)
            if now >= at:
                if st is state:
                    st = st.clone()
                banks = list(st.banks)
                banks[seat] = 0.0
                st.banks = (banks[0], banks[1])
                st.clock_start = None
                events.append({"type": "flag", "t": at, "player": seat})
                _finish(st, 1 - seat, "time", at, events)
        break
    return st, events


def apply(
    state: State, seat: int, action: Mapping[str, Any], now: float
) -> tuple[State, list[Event]]:
    """The state after `seat`'s request reached the server at `now`, and what happened.

    Timed transitions due by `now` happen first (a flag wins over a late move) and their
    events lead the returned list. Raises RuleError and returns nothing when the request is
    illegal (R8.2); the given state is never changed either way.
    """
    do = _check_action(action)
    if type(seat) is not int or seat not in (0, 1):
        raise RuleError("bad_request", "The seat must be 0 or 1.")
    now = float(now)
    st, events = advance(state, now)
    if st.status in TERMINAL:
        if st.status == NO_DEAL:
            raise RuleError("game_over", "The replay stops here: no deal is listed for this round.")
        raise RuleError("game_over", "The game is over.")
    if st is state:
        st = st.clone()
    if do == "resign":
        # P3: any time until the game is over, whoever is to act.
        events.append({"type": "resign", "t": now, "player": seat})
        _finish(st, 1 - seat, "resign", now, events)
    elif do == "start":
        _do_start(st, seat, now, events)
    elif do == "continue":
        _do_continue(st, seat, now, events)
    else:
        _do_decision(st, seat, do, action, now, events)
    return st, events


def void(state: State, now: float, reason: str = VOID_REASON) -> tuple[State, list[Event]]:
    """The game is cancelled with no result (R7.10): no winner, nothing left to do.

    Allowed while the game is waiting or playing, and on a finished game too: a fault
    window can end after a game did, and its result, measured with an unreliable clock,
    must go (the platform reverses its rating). That void clears the winner and keeps the
    rest of the final state, so it reveals nothing the finished view did not already show.
    An aborted, no-deal or cancelled game has no result to void: RuleError("game_over").
    Timed transitions due by `now` are deliberately not run first:
    a void exists because the clock could not be trusted, so a flag that "fell" meanwhile
    must not decide the game. The round in progress is not closed: both hands and the
    boneyard stay secret (no `last_round` is built from it), and the banks stay as they
    were when the running decision started. Events: one `{"type": "void", "reason", "t"}`.
    """
    if type(reason) is not str or not reason:
        raise ValueError("a void needs a reason: a non-empty string")
    if state.status in TERMINAL and state.status != OVER:
        raise RuleError("game_over", "The game is over.")
    now = float(now)
    st = state.clone()
    _close(st, CANCELLED, None, reason)
    return st, [{"type": "void", "t": now, "reason": reason}]


def _check_action(action: object) -> str:
    if type(action) is not dict and not isinstance(action, Mapping):
        raise RuleError("bad_request", "A request must be an object with a 'do' field.")
    do = action.get("do")
    if type(do) is not str or do not in ACTION_KEYS:
        raise RuleError("bad_request", f"Unknown request {do!r}.")
    fields = ACTION_KEYS[do]
    if len(action) > 1 or fields:
        for key in action:
            if key != "do" and key not in fields:
                raise RuleError("bad_request", f"A '{do}' request has no field {key!r}.")
        if fields:
            if "tile" in fields:
                tile = action.get("tile")
                if type(tile) is not str or tile not in _TILE_NAMES:
                    raise RuleError("bad_request", f"{tile!r} is not a tile of the double-six set.")
                end = action.get("end")
                if end is not None and (type(end) is not str or end not in END_INDEX):
                    raise RuleError("bad_request", "The end must be one of left, right, up, down.")
            elif type(action.get("amount")) is not int:
                raise RuleError("bad_request", "The amount must be a whole number of points.")
    return do


# --------------------------------------------------------------------------- handlers


def _press(
    pressed: tuple[bool, bool], seat: int, do: str, now: float, events: list[Event]
) -> tuple[bool, bool]:
    """Both seats' presses of Start or Continue once `seat` has pressed it (`do`)."""
    if pressed[seat]:
        raise RuleError("wrong_phase", f"You have already pressed {do.capitalize()}.")
    events.append({"type": do, "t": now, "player": seat})
    return (True, pressed[1]) if seat == 0 else (pressed[0], True)


def _do_start(st: State, seat: int, now: float, events: list[Event]) -> None:
    if st.phase != START:
        raise RuleError("wrong_phase", "The game has already started.")
    st.started = _press(st.started, seat, "start", now, events)
    if st.started[0] and st.started[1]:
        st.status = PLAYING
        _start_round(st, now, events)


def _do_continue(st: State, seat: int, now: float, events: list[Event]) -> None:
    if st.phase != ROUND_OVER:
        raise RuleError("wrong_phase", "There is no closed round to continue from.")
    st.continued = _press(st.continued, seat, "continue", now, events)
    if st.continued[0] and st.continued[1]:
        _start_round(st, now, events)  # P2: both pressed, the next round starts now


def _do_decision(
    st: State, seat: int, do: str, action: Mapping[str, Any], now: float, events: list[Event]
) -> None:
    phase = st.phase
    if phase not in DECISION_PHASES:
        what = "the game has not started" if phase == START else "the round is over"
        raise RuleError("wrong_phase", f"Nobody can {do} now: {what}.")
    if seat != st.to_act:
        raise RuleError("not_your_turn", "It is not your turn.")
    if do == "reveal":
        if not awaiting_reveal(st):
            raise RuleError("wrong_phase", "There is nothing to reveal: your tiles are showing.")
        # R7.7: the hand-over is over; this seat's delay starts now.
        st.showing = seat
        st.clock_start = now
        events.append({"type": "reveal", "t": now, "player": seat})
        return
    if st.same_device and st.showing != seat:
        raise RuleError("wrong_phase", "Reveal your tiles first.")
    if _PHASE_OF[do] != phase:
        raise RuleError("wrong_phase", f"You cannot {do} now: {_WRONG_PHASE_HINT[phase]}.")
    if do == "play":
        _do_play(st, seat, _TILE_NAMES[action["tile"]], action.get("end"), now, events)
    elif do == "draw":
        _do_draw(st, seat, now, events)
    elif do == "lead":
        _do_lead(st, seat, _TILE_NAMES[action["tile"]], now, events)
    elif do == "bid" or do == "raise":
        _do_bid(st, seat, do, action["amount"], now, events)
    elif do == "accept":
        _do_accept(st, seat, now, events)
    else:
        _do_renounce(st, seat, now, events)


def _do_play(
    st: State, seat: int, tile: int, end: str | None, now: float, events: list[Event]
) -> None:
    hand = st.hands[seat]
    name = NAME[tile]
    if not hand & BIT[tile]:
        raise RuleError("illegal_tile", f"You do not hold {name}.")
    if st.must_play >= 0 and tile != st.must_play:
        # R5.2: only the tile just drawn may be played now.
        raise RuleError("illegal_tile", "You must play the tile you have just drawn.")
    board = st.board
    ends = board.ends
    base = tile * 7
    if end is None:
        fits = [e for e in range(4) if ends[e] >= 0 and OTHER[base + ends[e]] >= 0]
        if not fits:
            raise RuleError("illegal_tile", f"{name} does not fit any open end.")
        if len(fits) > 1:
            # R3.4: the player chooses among the ends it fits.
            raise RuleError("end_required", f"{name} fits more than one end: choose one.")
        e = fits[0]
    else:
        e = END_INDEX[end]
        v = ends[e]
        if v < 0 or OTHER[base + v] < 0:
            raise RuleError("illegal_tile", f"{name} does not fit the {end} end.")
    _end_decision(st, now)
    hand &= ~BIT[tile]
    st.hands = (hand, st.hands[1]) if seat == 0 else (st.hands[0], hand)
    st.must_play = -1
    st.passes = 0
    st.board = board.place(tile, e)
    st.trail = (*st.trail, (seat, TRAIL_PLAY, tile, e))
    events.append({"type": "play", "t": now, "player": seat, "tile": name, "end": END_NAMES[e]})
    if _score(st, seat, now, events):
        return
    if not hand:
        # R5.5: the last tile is counted first, then the round ends; no bonus.
        st.jockey = seat
        events.append({"type": "domino", "t": now, "player": seat})
        _close_round(st, "domino", now, events)
        return
    _next_turn(st, 1 - seat, now, events)  # R4.6


def _do_draw(st: State, seat: int, now: float, events: list[Event]) -> None:
    if st.must_play >= 0:
        raise RuleError("cannot_draw", "You must play the tile you have just drawn.")
    hand = st.hands[seat]
    board = st.board
    if hand & board.fit_mask:
        raise RuleError("cannot_draw", "You hold a playable tile, so you must play it.")  # R5.1
    if st.drawn >= len(st.boneyard):
        raise RuleError("cannot_draw", "The boneyard is empty.")
    tile = st.boneyard[st.drawn]
    st.trail = (*st.trail, (seat, TRAIL_DRAW, tile, open_values(board)))
    st.drawn += 1
    hand |= BIT[tile]
    st.hands = (hand, st.hands[1]) if seat == 0 else (st.hands[0], hand)
    events.append({"type": "draw", "t": now, "player": seat, "tile": NAME[tile]})
    # R5.2/R7.3: drawing continues the same decision; the clock keeps running.
    if BIT[tile] & board.fit_mask:
        st.must_play = tile
    elif st.drawn >= len(st.boneyard):
        # R5.3: nothing fits and nothing is left to draw, so the turn ends in a forced pass.
        _end_decision(st, now)
        _forced_pass(st, seat, now, events)


def _do_lead(st: State, seat: int, tile: int, now: float, events: list[Event]) -> None:
    hand = st.hands[seat]
    if not hand & BIT[tile]:
        raise RuleError("illegal_tile", f"You do not hold {NAME[tile]}.")
    _end_decision(st, now)
    events.append({"type": "lead", "t": now, "player": seat, "tile": NAME[tile]})
    _place_lead(st, seat, tile, now, events, auto=False)  # R2.3: any tile of the hand


def _do_bid(st: State, seat: int, do: str, amount: int, now: float, events: list[Event]) -> None:
    auc = st.auction
    assert auc is not None
    if do == "bid" and auc.bid is not None:
        raise RuleError("wrong_phase", "A bid stands: raise it or accept it.")
    if do == "raise" and auc.bid is None:
        raise RuleError("wrong_phase", "No bid stands: bid or renounce.")
    problem = bids.bid_problem(amount, st.balances[seat], seat == auc.jockey, auc.bid)
    if problem:
        raise RuleError("bad_bid", problem)  # R6.3, R6.6
    _end_decision(st, now)
    st.auction = Auction(auc.jockey, auc.rival, amount, seat, (*auc.history, Bid(seat, do, amount)))
    events.append({"type": do, "t": now, "player": seat, "amount": amount})
    _face_bid(st, 1 - seat, now, events)  # R7.5: a raise switches the clock


def _do_accept(st: State, seat: int, now: float, events: list[Event]) -> None:
    assert st.auction is not None
    if st.auction.bid is None:
        raise RuleError("wrong_phase", "There is no bid to accept.")
    _end_decision(st, now)
    _accept(st, seat, now, events, auto=False)


def _do_renounce(st: State, seat: int, now: float, events: list[Event]) -> None:
    assert st.auction is not None
    if st.auction.bid is not None:
        raise RuleError("wrong_phase", "You cannot renounce facing a bid: accept or raise.")
    _end_decision(st, now)
    _renounce(st, seat, now, events, auto=False)


# --------------------------------------------------------------------------- internals


def _begin_decision(st: State, seat: int, now: float) -> None:
    """A fresh delay for `seat` (R7.2); in a same-device game it waits for the reveal (R7.7)."""
    st.to_act = seat
    st.clock_start = None if st.same_device and st.showing != seat else now


def _end_decision(st: State, now: float) -> None:
    start = st.clock_start
    if start is not None:
        seat = st.to_act
        assert seat is not None
        bank = charge(st.banks[seat], start, now)  # R7.4
        st.banks = (bank, st.banks[1]) if seat == 0 else (st.banks[0], bank)
        st.clock_start = None


def _transfer(st: State, payer: int, points: int, why: str, now: float, events: list[Event]) -> int:
    """Move up to `points` from payer to the other seat (R1.2, R1.4); ends the game at 0 (R1.5).

    Returns the points actually moved.
    """
    balances = st.balances
    moved = min(points, balances[payer])
    if moved <= 0:
        return 0
    if payer == 0:
        st.balances = (balances[0] - moved, balances[1] + moved)
    else:
        st.balances = (balances[0] + moved, balances[1] - moved)
    st.payments = (*st.payments, Payment(payer, 1 - payer, moved, why))
    if st.balances[payer] == 0:
        _finish(st, 1 - payer, "points", now, events)
    return moved


def open_values(board: Board) -> int:
    """The values showing at the open ends, as a mask (bit v: some end shows v)."""
    mask = 0
    for v in board.ends:
        if v >= 0:
            mask |= 1 << v
    return mask


def points_for_count(count: int) -> int:
    """R4.5: a positive multiple of 5 scores that many points; any other count scores nothing."""
    return count if count > 0 and count % 5 == 0 else 0


def _score(st: State, seat: int, now: float, events: list[Event]) -> bool:
    """R4.5: score the count after a placement. True when that ended the game (R1.5)."""
    count = st.board.count
    if not points_for_count(count):
        return False
    opponent = 1 - seat
    moved = min(count, st.balances[opponent])
    events.append({"type": "score", "t": now, "player": seat, "count": count, "points": moved})
    _transfer(st, opponent, count, "score", now, events)
    return st.status != PLAYING


def _next_turn(st: State, seat: int, now: float, events: list[Event]) -> None:
    """Give the turn to `seat`, passing automatically for whoever can neither play nor draw."""
    board = st.board
    if st.hands[seat] & board.fit_mask or st.drawn < len(st.boneyard):
        st.phase = PLAY
        _begin_decision(st, seat, now)
        return
    _forced_pass(st, seat, now, events)


def _forced_pass(st: State, seat: int, now: float, events: list[Event]) -> None:
    # R5.3, R7.9: a pass has no choice in it, so it is automatic and takes no time.
    events.append({"type": "pass", "t": now, "player": seat, "auto": True})
    st.trail = (*st.trail, (seat, TRAIL_PASS, -1, open_values(st.board)))
    st.passes += 1
    st.to_act = None
    st.clock_start = None
    st.must_play = -1
    if st.passes >= 2:
        _block(st, now, events)
    else:
        _next_turn(st, 1 - seat, now, events)


def _block(st: State, now: float, events: list[Event]) -> None:
    """R5.6: the lower hand receives the other's total rounded to the nearest 5."""
    totals = (pip_total(st.hands[0]), pip_total(st.hands[1]))
    if totals[0] == totals[1]:
        receiver: int | None = None
        points = 0
    else:
        receiver = 0 if totals[0] < totals[1] else 1
        owed = (totals[1 - receiver] + 2) // 5 * 5
        points = min(owed, st.balances[1 - receiver])
    events.append(
        {
            "type": "block",
            "t": now,
            "player": receiver,
            "totals": [totals[0], totals[1]],
            "points": points,
        }
    )
    st.jockey = None  # R5.6: after a block the next lead goes by rank
    if receiver is not None and points:
        _transfer(st, 1 - receiver, points, "block", now, events)
        if st.status != PLAYING:
            return
    _close_round(st, "block", now, events)


def _place_lead(
    st: State, seat: int, tile: int, now: float, events: list[Event], *, auto: bool
) -> None:
    hand = st.hands[seat] & ~BIT[tile]
    st.trail = (*st.trail, (seat, TRAIL_AUTO_LEAD if auto else TRAIL_LEAD, tile, 0))
    st.hands = (hand, st.hands[1]) if seat == 0 else (st.hands[0], hand)
    st.board = lead_board(tile)
    st.auction = None  # R6.5: the discount expires when the lead starts
    st.phase = PLAY
    if _score(st, seat, now, events):  # R4: the lead scores like any placement
        return
    _next_turn(st, 1 - seat, now, events)


def _face_bid(st: State, seat: int, now: float, events: list[Event]) -> None:
    auc = st.auction
    assert auc is not None
    if bids.legal_amounts(st.balances[seat], seat == auc.jockey, auc.bid):
        _begin_decision(st, seat, now)
    else:
        _accept(st, seat, now, events, auto=True)  # R6.7


def _accept(st: State, seat: int, now: float, events: list[Event], *, auto: bool) -> None:
    auc = st.auction
    assert auc is not None and auc.bid is not None and auc.bidder is not None
    payer = auc.bidder
    cost = bids.net_cost(auc.bid, payer == auc.jockey)  # R6.4, R6.5
    event: Event = {
        "type": "accept",
        "t": now,
        "player": seat,
        "payer": payer,
        "amount": cost,
        "bid": auc.bid,
    }
    if auto:
        event["auto"] = True
    events.append(event)
    st.to_act = None
    _transfer(st, payer, cost, "auction", now, events)
    if st.status != PLAYING:
        return  # R6.6: paying the whole balance loses before leading
    st.phase = LEAD
    _begin_decision(st, payer, now)  # R7.5: accepting starts the leader's clock


def _renounce(st: State, seat: int, now: float, events: list[Event], *, auto: bool) -> None:
    auc = st.auction
    assert auc is not None
    event: Event = {"type": "renounce", "t": now, "player": seat}
    if auto:
        event["auto"] = True
    events.append(event)
    st.phase = LEAD
    _begin_decision(st, auc.jockey, now)  # R6.2: the jockey leads for free


def _start_round(st: State, now: float, events: list[Event]) -> None:
    number = st.round + 1
    deal = _deal_for(st, number)
    st.to_act = None
    st.clock_start = None
    if deal is None:
        st.status = NO_DEAL
        events.append({"type": "no_deal", "t": now, "round": number})
        return
    hand0, hand1, boneyard = deal
    st.round = number
    st.status = PLAYING
    st.hands = (mask_of(hand0), mask_of(hand1))
    st.boneyard = boneyard
    st.drawn = 0
    st.must_play = -1
    st.passes = 0
    st.board = EMPTY_BOARD
    st.payments = ()
    st.trail = ()
    st.continued = (False, False)
    st.closed_at = None
    st.showing = None  # R7.7: no hand is showing at the start of a round
    events.append(
        {
            "type": "deal",
            "t": now,
            "round": number,
            "hands": [names_of(st.hands[0]), names_of(st.hands[1])],
            "boneyard": [NAME[t] for t in boneyard],
            "jockey": st.jockey,
        }
    )
    jockey = st.jockey
    if jockey is None:
        # R2.2: round 1 and after a block the best tile leads, automatically.
        seat, tile = 0, RANK_ORDER[0]
        for tile in RANK_ORDER:
            if st.hands[0] & BIT[tile]:
                seat = 0
                break
            if st.hands[1] & BIT[tile]:
                seat = 1
                break
        events.append({"type": "lead", "t": now, "player": seat, "tile": NAME[tile], "auto": True})
        _place_lead(st, seat, tile, now, events, auto=True)
        return
    # R2.3, R6.1: after a domino the lead is auctioned; the rival decides first (R6.2).
    rival = 1 - jockey
    st.auction = Auction(jockey, rival, None, None, ())
    st.phase = AUCTION
    if bids.legal_amounts(st.balances[rival], False, None):
        _begin_decision(st, rival, now)
    else:
        _renounce(st, rival, now, events, auto=True)  # R6.7


def _deal_for(st: State, number: int) -> Deal | None:
    # Each deal leaves the state once dealt: the deal event (in the caller's log) keeps it,
    # and the state a move reads and writes stays the same size all game long.
    if st.deals:
        deal = st.deals[0]
        st.deals = st.deals[1:]
        return deal
    if st.seed is None:
        return None
    return shuffled_deal(st.seed, number)


def _close_round(st: State, reason: str, now: float, events: list[Event]) -> None:
    st.phase = ROUND_OVER
    st.to_act = None
    st.clock_start = None
    st.must_play = -1
    st.closed_at = now
    st.continued = (False, False)
    st.last_round = _summary(st, reason)
    events.append(
        {
            "type": "round_over",
            "t": now,
            "round": st.round,
            "reason": reason,
            "hands": st.last_round["hands"],
            "totals": st.last_round["totals"],
        }
    )


def _finish(st: State, winner: int | None, reason: str, now: float, events: list[Event]) -> None:
    """The game ends; a round in progress closes with its hands shown."""
    _end_decision(st, now)
    if st.phase in DECISION_PHASES:
        st.last_round = _summary(st, reason)
    _close(st, ABORTED if reason == "abort" else OVER, winner, reason)
    events.append({"type": "game_over", "t": now, "winner": winner, "reason": reason})


def _close(st: State, status: str, winner: int | None, reason: str) -> None:
    """The game ends with `status` (over, aborted, cancelled): nobody acts, no clock runs."""
    st.status = status
    st.phase = FINISHED
    st.to_act = None
    st.clock_start = None
    st.must_play = -1
    st.winner = winner
    st.reason = reason


def _abort(st: State, at: float, events: list[Event]) -> None:
    # P1: both players did not press Start within a minute: no result.
    events.append({"type": "abort", "t": at})
    _finish(st, None, "abort", at, events)


def _summary(st: State, reason: str) -> dict[str, Any]:
    return {
        "round": st.round,
        "reason": reason,
        "hands": [names_of(st.hands[0]), names_of(st.hands[1])],
        "totals": [pip_total(st.hands[0]), pip_total(st.hands[1])],
        "payments": [
            {"payer": p.payer, "payee": p.payee, "points": p.points, "why": p.why}
            for p in st.payments
        ],
    }
