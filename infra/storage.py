"""Static files as production serves them: hashed, minified, compressed.

The page scripts are ES modules with no build step: the source files are what a
developer edits and what `DEBUG` serves. `collectstatic` then writes each JavaScript and
CSS file minified (rjsmin, rcssmin: comments and layout whitespace out, nothing renamed),
rewrites the modules' imports to the hashed names (so that a module is fetched once, under
the name the page preloads), and WhiteNoise adds the compressed copies.
"""

from __future__ import annotations

from typing import Any

import rcssmin
import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

MINIFIERS = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}


def minified(name: str, text: str) -> str:
    """`text` minified when `name` is a script or a stylesheet, else unchanged."""
    for suffix, minify in MINIFIERS.items():
        if name.endswith(suffix) and not name.endswith(f".min{suffix}"):
            return minify(text)
    return text


class MinifiedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    # `import … from "./auction.js"` becomes `… "./auction.<hash>.js"`, like url() in CSS.
    support_js_module_import_aggregation = True

    def _save(self, name: str, content: Any) -> str:
        if name.endswith((".js", ".css")):
            content.seek(0)
            raw = content.read()
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
            content = ContentFile(minified(name, text).encode("utf-8"))
        return super()._save(name, content)
