"""Pages while the database is away: a 503 in the reader's language that retries by itself,
never a 500, whichever layer's query fails (pages.database_away)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection
from django.db.utils import OperationalError
from django.test import Client
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from pages.csp import POLICY
from pages.database_away import RETRY_SECONDS, DatabaseAwayMiddleware

pytestmark = pytest.mark.django_db


@contextmanager
def database_away(only: Callable[[str], bool] = lambda sql: True) -> Iterator[None]:
    """Every query of this thread (or those `only` picks) fails as with a stopped server."""

    def refuse(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
        if only(sql):
            raise OperationalError("connection refused (a test's outage)")
        return execute(sql, *args)

    with connection.execute_wrapper(refuse):
        yield


@pytest.fixture
def client_of(db: None) -> Callable[[Any], Client]:
    """A signed-in client that gets the page an error gives, as a browser would (the test
    client re-raises errors Django's handler reports, by default)."""

    def make(user: Any) -> Client:
        client = Client(raise_request_exception=False)
        client.force_login(user)
        return client

    return make


def assert_database_page(response: Any, language: str = "en") -> str:
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_SECONDS)
    assert response["Content-Security-Policy"] == POLICY
    assert "no-cache" in response["Cache-Control"]
    html: str = response.content.decode()
    assert f'<html lang="{language}">' in html
    # It asks again by itself with a file the CSP allows: no inline script, no timed reload.
    assert '<script src="/static/js/retry.js" defer></script>' in html
    assert html.count("<script") == 1 and "http-equiv" not in html
    assert f'data-retry-seconds="{RETRY_SECONDS}"' in html
    return html


def test_a_page_whose_view_cannot_reach_the_database(client_of: Any, user: Any) -> None:
    client = client_of(user)
    with database_away():
        html = assert_database_page(client.get(reverse("lobby")))
    assert "The server cannot reach its database right now" in html
    assert f"every {RETRY_SECONDS} seconds" in html
    assert client.get(reverse("lobby")).status_code == 200  # and back


def test_the_page_is_in_spanish(client_of: Any, user: Any) -> None:
    client = client_of(user)
    client.cookies["django_language"] = "es"
    with database_away():
        html = assert_database_page(client.get(reverse("lobby")), "es")
    assert "El servidor no puede acceder a su base de datos" in html


def test_an_error_page_that_cannot_read_the_user(client_of: Any, user: Any) -> None:
    # A 404 renders the site's layout, which reads the session and the user.
    client = client_of(user)
    with database_away():
        assert_database_page(client.get("/no-such-page/"))


def test_a_middleware_that_cannot_save_the_session(
    client_of: Any, user: Any, settings: Any
) -> None:
    # The view answers; SessionMiddleware's save after it fails (the error never reaches
    # process_exception: Django's handler makes it a 500 first).
    settings.SESSION_SAVE_EVERY_REQUEST = True
    client = client_of(user)
    writes = lambda sql: "django_session" in sql and not sql.lstrip().upper().startswith("SELECT")  # noqa: E731
    with database_away(only=writes):
        assert_database_page(client.get(reverse("home")))
    assert client.get(reverse("home")).status_code == 200


def test_a_page_asks_for_itself_again(client_of: Any, user: Any) -> None:
    client = client_of(user)
    with database_away():
        html = assert_database_page(client.get(reverse("lobby") + "?x=1"))
    assert 'id="retry-now" href=""' in html  # an empty link: this very address


def test_after_a_form_it_goes_back_to_the_form_s_page(client_of: Any, user: Any) -> None:
    client = client_of(user)
    lobby = reverse("lobby")
    with database_away():
        sent = client.post(
            reverse("challenge-create"), {"opponent": ""}, HTTP_REFERER=f"http://testserver{lobby}"
        )
        elsewhere = client.post(
            reverse("challenge-create"), {"opponent": ""}, HTTP_REFERER="https://example.com/x/"
        )
    assert f'id="retry-now" href="{lobby}"' in assert_database_page(sent)
    assert 'id="retry-now" href="/"' in assert_database_page(elsewhere)


@pytest.mark.parametrize(
    "referer",
    [
        "http://testserver//evil.example/",
        "http://testserver/\\evil.example/",
        "http://testserver/\\/evil.example/",
        "http://testserver///\\evil.example/x?y=1",  # kept as the path /evil.example/x?y=1
        "http://testserver/%2F%2Fevil.example/",
    ],
)
def test_the_retry_link_never_leaves_the_site(client_of: Any, user: Any, referer: str) -> None:
    client = client_of(user)
    with database_away():
        sent = client.post(reverse("challenge-create"), {"opponent": ""}, HTTP_REFERER=referer)
    html = assert_database_page(sent)
    href = html.split('id="retry-now" href="', 1)[1].split('"', 1)[0]
    # A path of this site: one slash, then neither a slash nor a backslash (which browsers
    # read as a slash), so no browser takes what follows for a host.
    assert href.startswith("/") and href[1:2] not in ("/", "\\"), href
    assert url_has_allowed_host_and_scheme(href, allowed_hosts=None)


def test_a_page_that_needs_no_database_is_served(client: Client) -> None:
    with database_away():
        assert client.get(reverse("rules")).status_code == 200


def test_other_errors_are_left_to_django() -> None:
    middleware = DatabaseAwayMiddleware(lambda request: None)  # type: ignore[arg-type,return-value]
    assert middleware.process_exception(None, ValueError("a bug")) is None  # type: ignore[arg-type]


@pytest.mark.django_db(transaction=True)
def test_a_database_that_cannot_be_opened(
    client_of: Any, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite: a file path that cannot be opened; PostgreSQL (a pooled connection, whose
    settings are read once): every new connection refused, as by a stopped server."""
    client = client_of(user)
    connection.close()
    with monkeypatch.context() as patch:
        if connection.vendor == "sqlite":
            patch.setitem(connection.settings_dict, "NAME", "/nonexistent/folder/db.sqlite3")
        else:

            def refused(*args: object, **kwargs: object) -> None:
                raise OperationalError("connection refused")

            patch.setattr(connection, "get_new_connection", refused)
        try:
            for page in (reverse("lobby"), reverse("profile", kwargs={"username": "alice"})):
                assert_database_page(client.get(page))
        finally:
            connection.close()
    assert client.get(reverse("lobby")).status_code == 200
