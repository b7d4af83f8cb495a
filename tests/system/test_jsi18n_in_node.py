"""The pages' JavaScript catalogues (static/jsi18n/<language>/djangojs.js) run by node: their
three globals behave like Django's, in English and in Spanish.

Skipped when node is missing, except under CI=true, where a missing node is a failure.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.ci_guard import node_or_skip

CATALOGUES = Path(__file__).resolve().parents[2] / "static" / "jsi18n"


def test_the_globals_translate_like_djangos() -> None:
    node = node_or_skip("the catalogue")
    results = {}
    for language in ("en", "es"):
        script = (CATALOGUES / language / "djangojs.js").read_text(encoding="utf-8")
        check = (
            f"require('vm').runInThisContext({json.dumps(script)});"
            "console.log(JSON.stringify(["
            "gettext('Rematch'), gettext('not a msgid'),"
            "ngettext('%(n)s tile', '%(n)s tiles', 1), ngettext('%(n)s tile', '%(n)s tiles', 0),"
            "ngettext('%(n)s tile', '%(n)s tiles', 3), ngettext('a', 'b', 2),"
            "interpolate(gettext('Tile %(a)s-%(b)s'), {a: 6, b: 0}, true),"
            "interpolate('%s and %s', ['x', 'y'])]))"
        )
        out = subprocess.run([node, "-e", check], capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, out.stderr
        results[language] = json.loads(out.stdout)
    assert results["en"] == [
        "Rematch",
        "not a msgid",
        "%(n)s tile",
        "%(n)s tiles",
        "%(n)s tiles",
        "b",
        "Tile 6-0",
        "x and y",
    ]
    assert results["es"] == [
        "Revancha",
        "not a msgid",
        "%(n)s ficha",
        "%(n)s fichas",
        "%(n)s fichas",
        "b",
        "Ficha 6-0",
        "x and y",
    ]
