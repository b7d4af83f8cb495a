"""Bid arithmetic for the auction of the lead (R6)."""

from __future__ import annotations

MIN_BID = 15  # R6.2
STEP = 5  # R6.3
JOCKEY_DISCOUNT = 15  # R6.5


def net_cost(amount: int, bidder_is_jockey: bool) -> int:
    """What the bidder pays if this bid is accepted (R6.4, R6.5)."""
    if bidder_is_jockey:
        return max(0, amount - JOCKEY_DISCOUNT)
    return amount


def max_bid(balance: int, bidder_is_jockey: bool) -> int:
    """The highest bid whose net cost the bidder can pay (R6.6)."""
    top = balance + JOCKEY_DISCOUNT if bidder_is_jockey else balance
    return top - top % STEP


def min_bid(standing: int | None) -> int:
    """The lowest amount a bid (nothing standing) or a raise (R6.3) may name."""
    return MIN_BID if standing is None else standing + STEP


def legal_amounts(balance: int, bidder_is_jockey: bool, standing: int | None) -> range:
    """Every amount this player may name now; empty means the decision is forced (R6.7)."""
    return range(min_bid(standing), max_bid(balance, bidder_is_jockey) + 1, STEP)


def bid_problem(amount: int, balance: int, bidder_is_jockey: bool, standing: int | None) -> str:
    """Why `amount` is not a legal bid or raise, or "" when it is."""
    if amount % STEP:
        return f"A bid must be a multiple of {STEP}."
    low = min_bid(standing)
    if amount < low:
        if standing is None:
            return f"The opening bid must be at least {low}."
        return f"A raise must be at least {STEP} above the standing bid, so at least {low}."
    if net_cost(amount, bidder_is_jockey) > balance:
        return f"A bid of {amount} would cost more than your balance of {balance}."
    return ""
