"""Pages while the database is away: a 503 in the reader's language that retries by itself.

A page that cannot reach the database (django.db's OperationalError or InterfaceError:
refused, reset, the pool's wait run out) answers 503 with Retry-After and a page whose
script (static/js/retry.js) asks again every RETRY_SECONDS and goes back to the page once
the server can show it, instead of the 500 an uncaught error would give. After a form's
POST it goes back to the page the form was on, not to the address the form was sent to.

The middleware sits above the session, authentication and django-axes middlewares, which
read and write the database themselves. An error in a view reaches it through
process_exception; one raised in a middleware below it has already been turned into a 500
by Django's handler by the time it returns, so the got_request_exception signal marks the
request and the middleware replaces that 500. SessionMiddleware reports a session it could
not save as SessionInterrupted, a 400: the site's 400 handler (pages.views.bad_request)
answers with this page when a database error lies behind it. The page itself needs no
database: it is rendered without the request, so no context processor reads the session
or the user.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import DisallowedHost
from django.core.signals import got_request_exception
from django.db.utils import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme

DATABASE_ERRORS = (OperationalError, InterfaceError)
# Seconds before the page (and a client honouring Retry-After) asks again.
RETRY_SECONDS = 5
# Set on a request whose handling raised a database error (see the module's docstring).
_MARK = "_database_away"


def caused_by_database(error: BaseException | None) -> bool:
    """Whether `error`, or an error it was raised from or while handling, is the database's."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, DATABASE_ERRORS):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def _retry_url(request: HttpRequest) -> str:
    """Where to go once the database is back: this address for a GET (an empty link is the
    page's own address, query and all), else the path of the page the form was sent from
    (always a path of this site), or home."""
    if request.method in ("GET", "HEAD"):
        return ""
    referer = request.META.get("HTTP_REFERER", "")
    try:
        ours = url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()})
    except DisallowedHost:  # a Host header Django refuses: no page of ours to go back to
        ours = False
    if not ours:
        return "/"
    parts = urlsplit(referer)
    # Only a path of this site: "//evil.example/" or "/\\evil.example/" as a path would be
    # read by a browser as another host's address.
    path = "/" + parts.path.lstrip("/\\")
    url = path + (f"?{parts.query}" if parts.query else "")
    return url if url_has_allowed_host_and_scheme(url, allowed_hosts=None) else "/"


def database_away_response(request: HttpRequest) -> HttpResponse:
    """The 503 page, in the language of the request's cookie or Accept-Language."""
    language = translation.get_language_from_request(request)
    context = {"retry_seconds": RETRY_SECONDS, "retry_url": _retry_url(request)}
    with translation.override(language):
        html = loader.render_to_string("503.html", context)
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_SECONDS)
    response["Content-Language"] = language
    add_never_cache_headers(response)
    return response


def _mark_database_errors(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    # Sent by Django's handler inside its `except` block: the error is the current one.
    if request is not None and caused_by_database(sys.exc_info()[1]):
        setattr(request, _MARK, True)


class DatabaseAwayMiddleware:
    """Placed below WhiteNoise (static files need no database) and above SessionMiddleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        got_request_exception.connect(_mark_database_errors, dispatch_uid=__name__)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            response = self.get_response(request)
        except DATABASE_ERRORS:  # only with DEBUG_PROPAGATE_EXCEPTIONS
            return database_away_response(request)
        if response.status_code >= 500 and getattr(request, _MARK, False):
            return database_away_response(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if caused_by_database(exception):
            return database_away_response(request)
        return None
