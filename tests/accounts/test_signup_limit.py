"""Sign-ups per client address and hour (SIGNUP_RATE_LIMIT_PER_HOUR), in both languages."""

from __future__ import annotations

import itertools
import secrets
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts import limits

pytestmark = pytest.mark.django_db

User = get_user_model()
# Each test signs up from addresses of its own: the cache outlives a test, and with Redis a
# test run (documentation addresses, RFC 3849, unique to this run).
_run = secrets.token_hex(2)
_addresses = (f"2001:db8:{_run}::{n}" for n in itertools.count(1))


@pytest.fixture
def address() -> str:
    return next(_addresses)


def _signup(client: Client, username: str, password: str, address: str) -> Any:
    form = {"username": username, "password1": password, "password2": password}
    return client.post(reverse("signup"), form, REMOTE_ADDR=address)


def test_the_sixth_sign_up_from_one_address_is_refused_with_429(
    settings: Any, address: str, password: str
) -> None:
    settings.SIGNUP_RATE_LIMIT_PER_HOUR = 5
    for n in range(5):
        assert _signup(Client(), f"player{n}x", password, address).status_code == 302
    refused = _signup(Client(), "latecomer", password, address)
    assert refused.status_code == 429
    assert "Too many new accounts" in refused.content.decode()
    assert not User.objects.filter(username="latecomer").exists()
    # Already said on the form's page, before anyone fills it in.
    assert Client().get(reverse("signup"), REMOTE_ADDR=address).status_code == 429
    # Another address is not concerned.
    assert _signup(Client(), "neighbour", password, next(_addresses)).status_code == 302


def test_the_limit_page_is_in_spanish(settings: Any, address: str, password: str) -> None:
    settings.SIGNUP_RATE_LIMIT_PER_HOUR = 1
    assert _signup(Client(), "primero", password, address).status_code == 302
    client = Client()
    client.cookies["django_language"] = "es"
    refused = _signup(client, "segundo", password, address)
    assert refused.status_code == 429
    html = refused.content.decode()
    assert "Demasiadas cuentas nuevas" in html and '<html lang="es">' in html


def test_a_refused_form_does_not_count(settings: Any, address: str, password: str) -> None:
    settings.SIGNUP_RATE_LIMIT_PER_HOUR = 1
    for _ in range(3):  # a weak password, three times
        assert _signup(Client(), "patient", "12345678", address).status_code == 200
    assert _signup(Client(), "patient", password, address).status_code == 302


def test_a_place_is_taken_in_one_step(settings: Any, address: str) -> None:
    settings.SIGNUP_RATE_LIMIT_PER_HOUR = 2
    assert [limits.signup_take(address) for _ in range(3)] == [True, True, False]
    assert not limits.signup_allowed(address)
    assert limits.signup_allowed(next(_addresses))


def test_the_address_is_the_one_axes_counts(rf: Any) -> None:
    request = rf.get("/", REMOTE_ADDR="203.0.113.9")
    assert limits.client_address(request) == "203.0.113.9"


def test_no_limit_at_zero(settings: Any, address: str) -> None:
    settings.SIGNUP_RATE_LIMIT_PER_HOUR = 0
    assert all(limits.signup_take(address) for _ in range(50))
