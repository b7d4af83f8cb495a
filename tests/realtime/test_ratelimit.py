"""realtime.ratelimit's budgets on their own: a connection's sliding window, and the
user's and game's shared budgets (in the cache, or leased from Redis)."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings

from realtime import ratelimit
from realtime.ratelimit import RateLimiter, SharedBudget, shared_budget_take


def test_rate_limiter_window_slides():
    limiter = RateLimiter(limit=3, window=20.0)
    assert all(limiter.allow(t) for t in (0.0, 1.0, 2.0))
    assert not limiter.allow(19.9)
    assert limiter.allow(20.0)  # the first message left the window


@pytest.mark.skipif(not django_settings.REDIS_URL, reason="windows of Redis's counters")
def test_shared_budgets_are_per_window(settings):
    settings.WS_RATE_LIMIT_USER = 2
    settings.WS_RATE_LIMIT_WINDOW = 20.0
    user_id = 10_000_000 + id(settings) % 1_000_000  # a user no other test uses
    assert shared_budget_take(user_id=user_id, now=40.0) == 1
    assert shared_budget_take(user_id=user_id, now=41.0) == 1
    assert shared_budget_take(user_id=user_id, now=59.9) == 0
    assert shared_budget_take(user_id=user_id, now=60.0) == 1  # the next window


def test_without_redis_the_budgets_are_realtime_counters(settings):
    """The fallback (embedded mode) counts one message at a time in realtime.counters."""
    settings.REDIS_URL = ""
    settings.WS_RATE_LIMIT_USER = 2
    settings.WS_RATE_LIMIT_GAME = 3
    user_id, other = 20_000_000 + id(settings) % 1_000_000, 30_000_000 + id(settings) % 1_000_000
    game_id = 40_000_000 + id(settings) % 1_000_000
    assert [shared_budget_take(user_id=user_id, count=5) for _ in range(3)] == [1, 1, 0]
    assert shared_budget_take(user_id=other, game_id=game_id) == 1  # the user's own budget
    assert shared_budget_take(user_id=other, game_id=game_id) == 1
    assert shared_budget_take(user_id=other + 1, game_id=game_id) == 1
    assert shared_budget_take(user_id=other + 2, game_id=game_id) == 0  # the game's is spent


@pytest.mark.skipif(not django_settings.REDIS_URL, reason="leases are taken from Redis")
def test_connections_lease_from_the_shared_budget_and_never_exceed_it(settings, monkeypatch):
    settings.WS_RATE_LIMIT_USER = 40
    settings.WS_RATE_LIMIT_WINDOW = 20.0
    user_id = 20_000_000 + id(settings) % 1_000_000  # a user no other test uses
    trips: list[int] = []
    take = ratelimit._take_in_redis
    monkeypatch.setattr(ratelimit, "_take_in_redis", lambda *args: trips.append(1) or take(*args))
    sockets = [SharedBudget(user_id=user_id, game_id=None, lease=5) for _ in range(3)]
    first = [sockets[0].allow(now=40.0 + n / 100) for n in range(30)]
    assert first == [True] * 30
    assert len(trips) <= 8  # leases of 5, then smaller as the budget runs out
    others = [budget.allow(now=41.0 + n / 100) for budget in sockets[1:] for n in range(30)]
    # Never more than the budget; at most what the first socket leased and did not use
    # (less than a quarter of what was left) is lost.
    assert 37 <= 30 + sum(others) <= 40
    assert all(budget.allow(now=60.0) for budget in sockets)  # the next window
