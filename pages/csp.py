"""Content-Security-Policy on every response (Django 5.2 has no CSP support of its own).

The pages load scripts and styles only from files of this site: no inline <script>, no
on*= handlers, no style attributes, so that an injected fragment of markup cannot run.
JSON data blocks (<script type="application/json">, json_script) are not executed, so the
policy does not apply to them. 'self' covers the same-origin ws:/wss: sockets (CSP Level 3,
which Chromium, Firefox and Safari follow); the browser tests play games under it.

The Django admin is served under the same policy: Django 5.2's admin templates need no
inline script or style (checked by the browser test that visits the admin).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "object-src 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    """Placed above WhiteNoise, so static files and error pages carry the header too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", POLICY)
        return response
