"""Browser fixtures for the end-to-end tests: Debian's Chromium driven by Playwright.

Under CI=true a Chromium that cannot be launched FAILS the tests (never a skip); on a
developer's machine without it they are skipped with the reason.

Django refuses ORM calls while an event loop is running in the thread, and Playwright's
sync API keeps one. These tests do their ORM work in the test's thread while the browser
is up, so this process allows it (DJANGO_ALLOW_ASYNC_UNSAFE); the platform subprocesses
(Daphne, Celery) are started with the check back on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError
from django.db.backends.base.operations import BaseDatabaseOperations
from django.test import Client

from tests.ci_guard import CHROMIUM, IN_CI
from tests.live import ROOT, LivePlatform, live_platform

ARTIFACTS = ROOT / "test-artifacts"


def _flush_retrying_a_deadlock(
    flush: Callable[[Any, list[str]], None],
) -> Callable[[Any, list[str]], None]:
    """The tests' flush between browser tests, run again if PostgreSQL picked it as a
    deadlock's victim: the shared platform's worker (its clock keeper, a computer still
    playing) may be locking the game tables just then."""

    def execute_sql_flush(self: Any, sql_list: list[str]) -> None:
        for attempt in range(5):
            try:
                flush(self, sql_list)
                return
            except OperationalError as error:
                if "deadlock detected" not in str(error) or attempt == 4:
                    raise
                time.sleep(0.2)

    return execute_sql_flush


BaseDatabaseOperations.execute_sql_flush = _flush_retrying_a_deadlock(  # type: ignore[method-assign]
    BaseDatabaseOperations.execute_sql_flush
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"CI=true and Chromium is unusable: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """One Chromium for the browser tests (package scope: its event loop ends with them)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:  # pragma: no cover - playwright is a dev dependency
        _unavailable(f"playwright is not installed: {error}")
    if not Path(CHROMIUM).exists():
        _unavailable(f"no Chromium at {CHROMIUM}")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    manager = sync_playwright().start()
    try:
        try:
            chromium = manager.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except Exception as error:
            _unavailable(f"Chromium did not launch: {error}")
        yield chromium
        chromium.close()
    finally:
        manager.stop()
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture(scope="package")
def live(django_db_setup: None, django_db_blocker: Any) -> Iterator[LivePlatform]:
    """Daphne + a Celery worker on the test database, shared by the browser tests (a module
    that needs other settings overrides it)."""
    # An empty value keeps Django's async-safety check ON in the subprocesses.
    with live_platform(env={"DJANGO_ALLOW_ASYNC_UNSAFE": ""}) as platform:
        yield platform


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# Every page reports a Content-Security-Policy violation on its console, tagged, so that a
# blocked script, style or socket fails the test that met it (see pages/csp.py). The
# pages' policy forbids eval, so wait_for_function is always given a function ("() => …"):
# Playwright evaluates a bare expression string with eval inside the page.
CSP_TAG = "CSP violation:"
CSP_LISTENER = (
    "document.addEventListener('securitypolicyviolation', (e) => console.error("
    f"'{CSP_TAG} ' + e.violatedDirective + ' ' + e.blockedURI));"
)


def csp_violations(page: Any) -> list[str]:
    return list(page.csp_violations)


@pytest.fixture
def login_page(
    browser: Any, live: LivePlatform, transactional_db: None
) -> Iterator[Callable[..., Any]]:
    """login_page(user, viewport=PHONE, touch=False, timezone_id=None) -> a page whose
    session is `user`'s (`touch`: a phone's touch screen, with no hover and a coarse pointer;
    `timezone_id`: the browser's time zone, the machine's when None).

    At the end of the test, no page may have reported a Content-Security-Policy violation.
    """
    contexts = []
    pages = []

    def make(
        user: Any,
        viewport: dict[str, int] | None = None,
        *,
        touch: bool = False,
        timezone_id: str | None = None,
    ) -> Any:
        client = Client()
        client.force_login(user)
        context = browser.new_context(
            viewport=viewport or DESKTOP,
            locale="en-US",
            has_touch=touch,
            is_mobile=touch,
            timezone_id=timezone_id,
        )
        context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": client.cookies["sessionid"].value,
                    "domain": "127.0.0.1",
                    "path": "/",
                }
            ]
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.live_url = live.url()  # type: ignore[attr-defined]
        page.errors = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda error: page.errors.append(str(error)))  # type: ignore[attr-defined]
        page.csp_violations = []  # type: ignore[attr-defined]
        page.add_init_script(CSP_LISTENER)

        def on_console(message: Any) -> None:
            text = message.text
            if CSP_TAG in text or "Content Security Policy" in text:
                page.csp_violations.append(text)  # type: ignore[attr-defined]

        page.on("console", on_console)
        pages.append(page)
        return page

    yield make
    violations = [v for page in pages for v in page.csp_violations]
    for context in contexts:
        context.close()
    assert violations == [], violations


@pytest.fixture
def make_user(transactional_db: None) -> Callable[[str], Any]:
    def make(username: str) -> Any:
        return get_user_model().objects.create_user(username=username, password="felt-green-42x")

    return make


def wait_interactive(page: Any, timeout: float = 15_000) -> float:
    """Wait for the first state to be drawn; return navigation start -> interactive (ms)."""
    page.wait_for_function("() => window.__interactiveAt !== undefined", timeout=timeout)
    return float(page.evaluate("window.__interactiveAt"))


def settle(seconds: float = 0.2) -> None:
    time.sleep(seconds)
