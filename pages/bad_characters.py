"""A request carrying a character no text of ours can hold is answered 400 before any
middleware or view reads it: NUL, which PostgreSQL refuses in text (a query with one raises
instead of finding nothing), in the path, the query string, a form field, a cookie or a
header. Every URL and form is covered by this one check, new ones included
(docs/fair-play.md, "Addresses and limits").

The 400 page is rendered without the request, since the session (a cookie) may be what
carries the character: no context processor reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils import translation

from realtime.characters import holds_refused_character

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _texts(request: HttpRequest) -> Iterator[str]:
    yield request.path
    for key, value in request.META.items():
        if key.startswith("HTTP_") and isinstance(value, str):
            yield value
    for query in (request.GET, request.COOKIES):
        for key in query:
            yield key
            yield from (query.getlist(key) if hasattr(query, "getlist") else [query[key]])
    if request.method == "POST" and request.content_type in FORM_TYPES:
        for key in request.POST:
            yield key
            yield from request.POST.getlist(key)


def bad_characters_response(request: HttpRequest) -> HttpResponse:
    """The site's 400 page, in the language of the request's cookie or Accept-Language."""
    language = translation.get_language_from_request(request)
    with translation.override(language):
        html = loader.render_to_string("400.html")
    response = HttpResponse(html, status=400)
    response["Content-Language"] = language
    return response


class BadCharactersMiddleware:
    """Answers 400 to a request with a REFUSED_CHARACTERS character anywhere it is read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if any(holds_refused_character(text) for text in _texts(request)):
            return bad_characters_response(request)
        return self.get_response(request)
