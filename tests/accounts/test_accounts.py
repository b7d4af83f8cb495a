"""Sign up, log in (throttled by django-axes), log out, change password, profile, admin."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from accounts.services import account_create

pytestmark = pytest.mark.django_db

User = get_user_model()


def _signup(client: Client, username: str, password: str, email: str = ""):
    return client.post(
        reverse("signup"),
        {"username": username, "email": email, "password1": password, "password2": password},
    )


def _login(client: Client, username: str, password: str):
    return client.post(reverse("login"), {"username": username, "password": password})


def _logged_in_username(client: Client) -> str | None:
    user = client.get(reverse("home")).wsgi_request.user
    return user.get_username() if user.is_authenticated else None


# --- sign up


def test_signup_creates_the_account_and_logs_in(client: Client, password: str) -> None:
    response = _signup(client, "bob", password, email="bob@example.com")
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    bob = User.objects.get(username="bob")
    assert bob.email == "bob@example.com"
    assert bob.check_password(password)
    assert _logged_in_username(client) == "bob"


def test_signup_email_is_optional(client: Client, password: str) -> None:
    assert _signup(client, "carol", password).status_code == 302
    assert User.objects.get(username="carol").email == ""


def test_signup_page_renders(client: Client) -> None:
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    assert b'name="password2"' in response.content


def test_signup_refuses_a_taken_username_in_any_case(client: Client, user, password) -> None:
    response = _signup(client, "ALICE", password)
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert User.objects.filter(username__iexact="alice").count() == 1
    assert _logged_in_username(client) is None


def test_signup_refuses_a_reserved_username(client: Client, password: str) -> None:
    response = _signup(client, "login", password)
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert not User.objects.filter(username="login").exists()


def test_signup_refuses_a_username_longer_than_a_seat_can_show(client: Client, password) -> None:
    page = client.get(reverse("signup")).content.decode()
    assert 'maxlength="30"' in page and "30 characters or fewer" in page
    assert _signup(client, "W" * 30, password).status_code == 302
    client.post(reverse("logout"))
    client.cookies["django_language"] = "es"
    response = _signup(client, "Q" * 31, password)
    assert response.status_code == 200
    assert "de 30 caracteres como máximo" in response.content.decode()
    assert not User.objects.filter(username="Q" * 31).exists()
    with pytest.raises(ValidationError):
        account_create(username="R" * 31, password=password)


def test_a_badly_formed_username_is_explained_in_spanish(client: Client, password) -> None:
    """Django's Spanish has "Introduza" (Portuguese) here; the site's catalogue says it in tú."""
    client.cookies["django_language"] = "es"
    html = _signup(client, "a b<script>", password).content.decode()
    assert "Escribe un nombre de usuario válido" in html
    assert "Introduza" not in html


@pytest.mark.parametrize("weak", ["12345678", "short", "password"])
def test_signup_refuses_a_weak_password(client: Client, weak: str) -> None:
    response = _signup(client, "dave", weak)
    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not User.objects.filter(username="dave").exists()


def test_signup_refuses_a_password_too_similar_to_the_username(client: Client) -> None:
    response = _signup(client, "dominoking", "dominoking1")
    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not User.objects.filter(username="dominoking").exists()


def test_signup_refuses_two_different_passwords(client: Client, password: str) -> None:
    response = client.post(
        reverse("signup"),
        {"username": "erin", "password1": password, "password2": password + "x"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="erin").exists()


def test_account_create_validates_on_its_own(password: str) -> None:
    # The service is the door: it refuses bad input even without a form in front.
    with pytest.raises(ValidationError) as weak:
        account_create(username="frank", password="frank123", email="")
    assert "password" in weak.value.message_dict
    account_create(username="frank", password=password, email="")
    with pytest.raises(ValidationError) as taken:
        account_create(username="Frank", password=password, email="")
    assert "username" in taken.value.message_dict
    with pytest.raises(ValidationError) as reserved:
        account_create(username="Signup", password=password, email="")
    assert "username" in reserved.value.message_dict
    with pytest.raises(ValidationError) as bad_name:
        account_create(username="no spaces", password=password, email="")
    assert "username" in bad_name.value.message_dict


# --- log in / log out


def test_login_with_the_right_password(client: Client, user, password: str) -> None:
    response = _login(client, "alice", password)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert _logged_in_username(client) == "alice"


def test_login_follows_a_safe_next_only(client: Client, user, password: str) -> None:
    rules = reverse("rules")
    response = client.post(
        reverse("login"), {"username": "alice", "password": password, "next": rules}
    )
    assert response["Location"] == rules
    client.post(reverse("logout"))
    response = client.post(
        reverse("login"),
        {"username": "alice", "password": password, "next": "https://evil.example/"},
    )
    assert response["Location"] == reverse("home")


def test_login_with_a_wrong_password_is_refused(client: Client, user) -> None:
    response = _login(client, "alice", "not-the-password")
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert _logged_in_username(client) is None


def test_login_is_locked_after_five_failures_even_with_the_right_password(
    client: Client, user, password: str
) -> None:
    for _ in range(5):
        _login(client, "alice", "wrong-guess")
    response = _login(client, "alice", password)
    assert response.status_code == 429
    assert "registration/locked_out.html" in [t.name for t in response.templates]
    assert b"Too many failed log-in attempts" in response.content
    assert _logged_in_username(client) is None


def test_lockout_is_per_username(client: Client, user_factory, password: str) -> None:
    user_factory("alice")
    user_factory("bruno")
    for _ in range(5):
        _login(client, "alice", "wrong-guess")
    assert _login(client, "bruno", password).status_code == 302


def test_four_failures_do_not_lock(client: Client, user, password: str) -> None:
    for _ in range(4):
        _login(client, "alice", "wrong-guess")
    assert _login(client, "alice", password).status_code == 302


def test_lockout_page_is_translated(client: Client, user) -> None:
    client.cookies["django_language"] = "es"
    for _ in range(5):
        response = _login(client, "alice", "wrong-guess")
    assert response.status_code == 429
    assert "Demasiados intentos fallidos" in response.content.decode()


def test_logout_is_a_post(client_logged_in, user) -> None:
    client = client_logged_in(user)
    assert client.get(reverse("logout")).status_code == 405
    assert _logged_in_username(client) == "alice"
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert _logged_in_username(client) is None


# --- change password


def test_change_password(client_logged_in, user, password: str) -> None:
    client = client_logged_in(user)
    new = "a-brand-new-bank-120s"
    response = client.post(
        reverse("password-change"),
        {"old_password": password, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("profile", kwargs={"username": "alice"})
    assert _logged_in_username(client) == "alice"  # this session survives the change
    client.post(reverse("logout"))

    other = Client()
    assert _login(other, "alice", password).status_code == 200  # old one refused
    assert _login(other, "alice", new).status_code == 302


def test_change_password_needs_the_old_one(client_logged_in, user) -> None:
    client = client_logged_in(user)
    new = "a-brand-new-bank-120s"
    response = client.post(
        reverse("password-change"),
        {"old_password": "wrong", "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert not user.check_password(new)


def test_change_password_requires_login(client: Client) -> None:
    response = client.get(reverse("password-change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# --- profile


def test_profile_shows_username_and_date_joined(client: Client, user) -> None:
    # Early on a UTC morning: for a reader west of UTC, the day before (local-time.js).
    user.date_joined = datetime(2025, 3, 1, 2, 30, tzinfo=UTC)
    user.save(update_fields=["date_joined"])
    response = client.get(reverse("profile", kwargs={"username": "alice"}))
    assert response.status_code == 200
    html = response.content.decode()
    assert "alice" in html
    # The date in UTC without JavaScript, rewritten in the reader's zone with it.
    assert (
        'Joined <time datetime="2025-03-01T02:30:00+00:00" data-local="date">March 1, 2025</time>'
        in html
    )
    assert '<script type="module" src="/static/js/local-time.js">' in html
    # Only the owner sees the change-password link.
    assert reverse("password-change") not in html


def test_own_profile_links_to_change_password(client_logged_in, user) -> None:
    response = client_logged_in(user).get(reverse("profile", kwargs={"username": "alice"}))
    assert reverse("password-change") in response.content.decode()


def test_profile_of_an_unknown_user_is_404(client: Client) -> None:
    assert client.get(reverse("profile", kwargs={"username": "nobody"})).status_code == 404


def test_profile_of_an_inactive_user_is_404(client: Client, user_factory) -> None:
    user_factory("ghost", is_active=False)
    assert client.get(reverse("profile", kwargs={"username": "ghost"})).status_code == 404


# --- admin


def test_users_are_in_the_admin(client_logged_in, user_factory) -> None:
    assert admin.site.is_registered(User)
    boss = user_factory("boss", is_staff=True, is_superuser=True)
    response = client_logged_in(boss).get(reverse("admin:auth_user_changelist"))
    assert response.status_code == 200


@pytest.mark.parametrize("page", ["signup", "login"])
def test_account_pages_in_spanish_speak_as_tu(client: Client, page: str) -> None:
    """Django's own Spanish help and errors say "Su contraseña… introduzca"; the site says tú."""
    client.cookies["django_language"] = "es"
    if page == "login":
        html = _login(client, "nobody", "wrong-guess").content.decode()
        assert "Escribe un nombre de usuario y una contraseña correctos" in html
    else:
        html = client.get(reverse(page)).content.decode()
        assert "Tu contraseña debe tener al menos 8 caracteres." in html
    for formal in ("Su contraseña", "introduzca", "Introduzca", "carácteres", "Por favor"):
        assert formal not in html, formal
