"""The pages' JavaScript catalogue (/jsi18n/), minified like the static scripts.

Django writes the catalogue indented for reading; the pages load it on every visit, and
in Spanish it is the largest script of the game page. rjsmin takes out the layout and
keeps every string and regular expression as it is.
"""

from __future__ import annotations

from typing import Any

import rjsmin
from django.http import HttpResponse
from django.views.i18n import JavaScriptCatalog


class MinifiedJavaScriptCatalog(JavaScriptCatalog):
    def render_to_response(self, context: dict[str, Any], **response_kwargs: Any) -> HttpResponse:
        response = super().render_to_response(context, **response_kwargs)
        response.content = rjsmin.jsmin(response.content.decode("utf-8")).encode("utf-8")
        return response
