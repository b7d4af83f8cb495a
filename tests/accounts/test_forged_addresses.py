"""A forged X-Forwarded-For changes neither the sign-up limit nor the log-in lock-out, with
or without a trusted proxy in front (realtime.addresses)."""

from __future__ import annotations

import itertools
import secrets
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

User = get_user_model()
PROXY = "10.0.0.5"
_run = secrets.token_hex(2)
_addresses = (f"2001:db8:{_run}::{n:x}" for n in itertools.count(0x100))


def _forged(k: int) -> str:
    return f"198.51.100.{k % 250 + 1}, 127.0.0.1"


# (peer, X-Forwarded-For for the k-th request): a client reaching Daphne itself, and one
# behind a trusted proxy that appends the peer it saw to whatever the client sent.
def _direct(client_address: str, k: int) -> dict[str, str]:
    return {"REMOTE_ADDR": client_address, "HTTP_X_FORWARDED_FOR": _forged(k)}


def _proxied(client_address: str, k: int) -> dict[str, str]:
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": f"{_forged(k)}, {client_address}"}


@pytest.fixture(params=["direct", "proxied"])
def way(request: Any, settings: Any) -> Any:
    settings.TRUSTED_PROXIES = [PROXY] if request.param == "proxied" else []
    return _direct if request.param == "direct" else _proxied


def test_forged_headers_do_not_step_around_the_sign_up_limit(
    settings: Any, way: Any, password: str
) -> None:
    settings.SIGNUP_RATE_LIMIT_PER_HOUR = 5
    address = next(_addresses)
    made = 0
    for k in range(15):
        form = {"username": f"forger{k}", "password1": password, "password2": password}
        response = Client().post(reverse("signup"), form, **way(address, k))
        made += response.status_code == 302
    assert made == 5
    assert User.objects.filter(username__startswith="forger").count() == 5
    # Another real client is counted on its own, behind the proxy too.
    form = {"username": "neighbour", "password1": password, "password2": password}
    assert Client().post(reverse("signup"), form, **way(next(_addresses), 99)).status_code == 302


def test_forged_headers_do_not_step_around_the_log_in_lock_out(
    way: Any, user: Any, password: str
) -> None:
    address = next(_addresses)
    login = reverse("login")
    for k in range(5):
        Client().post(login, {"username": "alice", "password": "wrong"}, **way(address, k))
    for k in range(5, 25):
        guess = {"username": "alice", "password": f"guess{k}"}
        assert Client().post(login, guess, **way(address, k)).status_code == 429
    right = {"username": "alice", "password": password}
    client = Client()
    assert client.post(login, right, **way(address, 25)).status_code == 429
    assert not client.session.get("_auth_user_id")
    # The lock is the real address's: alice from elsewhere still logs in.
    assert Client().post(login, right, **way(next(_addresses), 0)).status_code == 302
