"""Each page's JavaScript catalogue (/jsi18n/<page>/): only the words its scripts use.

A page loads the catalogue named after it. `PAGE_SCRIPTS` lists the page's entry modules;
the msgids are read from those files and from every module they import (the literal first
arguments of `gettext("…")` and `ngettext("…", "…")`), so a string added to a script is in
its page's catalogue with nothing to keep by hand (tests/pages/test_jsi18n.py checks that
every call is read, and that every string is translated in Spanish).

The script is compact where Django's is general: the three globals the modules call,
`gettext`, `ngettext` and `interpolate`, with Django's semantics (the plural rule of the
language's .po header), and none of the rest (no `django.formats`, pgettext, get_format…).
The translations are UTF-8 JSON (no `\\u00e1` escapes) keyed by a short hash of the msgid
(`message_key`, as Lingui's generated ids): the scripts hold the English text already, and
a second copy was 44 % of the Spanish catalogue. `gettext` hashes its argument the same way;
a string not in the catalogue is returned as it is, and two msgids of a page with one key
make the page's catalogue fail to build (and its test with it).
"""

from __future__ import annotations

import functools
import json
import posixpath
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import get_language
from django.utils.translation.trans_real import DjangoTranslation
from django.views.i18n import JavaScriptCatalog

# The entry modules of each page that loads a catalogue (static paths). The lobby and the
# live games page share the lobby's script.
PAGE_SCRIPTS: dict[str, tuple[str, ...]] = {
    "game": ("games/game/main.js",),
    "replay": ("games/replay.js", "games/replay_suggest.js"),
    "lobby": ("lobby/lobby.js",),
    "play-now": ("lobby/play_now.js",),
}

# The modules' relative imports (`import … from "./x.js"`, `export … from "../y.js"`).
IMPORT = re.compile(r'(?:import|export)[^"\';]*?from\s*["\'](\.{1,2}/[^"\']+)["\']')
# A double-quoted JavaScript string: its escapes are JSON's, which json.loads reads.
STRING = r'"(?:[^"\\\n]|\\.)*"'
CALL = re.compile(rf"\b(?P<fn>n?gettext)\(\s*(?P<one>{STRING})(?:\s*,\s*(?P<two>{STRING}))?")
# Every call, however written: a call CALL does not read fails tests/pages/test_jsi18n.py.
ANY_CALL = re.compile(r"\bn?gettext\(")


def page_modules(page: str) -> list[str]:
    """The static paths of `page`'s entry modules and of every module they import."""
    seen: list[str] = []
    todo = list(PAGE_SCRIPTS[page])
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.append(path)
        for spec in IMPORT.findall(_source(path)):
            todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(path), spec)))
    return seen


def script_msgids(source: str) -> Iterator[str]:
    """The msgids of a script's `gettext`/`ngettext` calls (both forms of a plural)."""
    for call in CALL.finditer(source):
        yield json.loads(call["one"])
        if call["fn"] == "ngettext" and call["two"]:
            yield json.loads(call["two"])


def page_msgids(page: str) -> frozenset[str]:
    return frozenset(m for path in page_modules(page) for m in script_msgids(_source(path)))


def _file(path: str) -> Path:
    found = finders.find(path)
    if not found:
        raise LookupError(f"no static file {path}")
    return Path(str(found))


def _source(path: str) -> str:
    return _file(path).read_text(encoding="utf-8")


def message_key(msgid: str) -> str:
    """A msgid's key in the catalogue: its 32-bit FNV-1a hash over UTF-16 code units (what
    JavaScript's charCodeAt reads), the top 30 bits in base 36 (at most 6 characters)."""
    code = msgid.encode("utf-16-le")
    h = 0x811C9DC5
    for i in range(0, len(code), 2):
        h = ((h ^ (code[i] | code[i + 1] << 8)) * 0x01000193) & 0xFFFFFFFF
    h >>= 2
    digits = ""
    while True:
        h, d = divmod(h, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[d] + digits
        if not h:
            return digits


# `k` is message_key; `p` the plural rule; `c` the translations.
CATALOGUE_JS = (
    '"use strict";{{const c={catalog},p=n=>{{const v={plural};return typeof v=="boolean"?+v:v}},'
    "k=s=>{{let h=2166136261;for(let i=0;i<s.length;i++)h=Math.imul(h^s.charCodeAt(i),16777619);"
    "return(h>>>2).toString(36)}};"
    'window.gettext=s=>{{const v=c[k(s)];return v===undefined?s:typeof v=="string"?v:v[0]}};'
    "window.ngettext=(s,t,n)=>{{const v=c[k(s)];"
    "return v===undefined?(n==1?s:t):Array.isArray(v)?v[p(n)]:v}};"
    "window.interpolate=(f,o,named)=>named"
    "?f.replace(/%\\(\\w+\\)s/g,m=>String(o[m.slice(2,-2)]))"
    ":f.replace(/%s/g,()=>String(o.shift()))}}\n"
)


def page_catalogue(request: HttpRequest, page: str) -> HttpResponse:
    """/jsi18n/<page>/: the script defining the page's words in the active language."""
    if page not in PAGE_SCRIPTS:
        raise Http404
    # DEBUG reads the scripts and the catalogues again: a developer may have changed them.
    script = (_catalogue_script if settings.DEBUG else catalogue_script)(page, get_language())
    return HttpResponse(script, content_type="text/javascript; charset=utf-8")


def _catalogue_script(page: str, language: str) -> str:
    msgids = page_msgids(page)
    keys = {message_key(msgid) for msgid in msgids}
    if len(keys) < len(msgids):
        raise ValueError(f"two msgids of the {page} page have one message_key: reword one")
    catalog, plural = translations(msgids, language)
    keyed = {message_key(msgid): text for msgid, text in catalog.items()}
    text = json.dumps(keyed, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return CATALOGUE_JS.format(catalog=text, plural=re.sub(r"\s+", "", plural))


catalogue_script = functools.lru_cache(maxsize=64)(_catalogue_script)


def translations(msgids: Iterable[str], language: str) -> tuple[dict[str, Any], str]:
    """({msgid: translation} of the translated `msgids`, the plural rule) in `language`.

    Django's JavaScriptCatalog reads the djangojs catalogues (the plural forms as a list).
    """
    django_catalogue = JavaScriptCatalog()
    django_catalogue.translation = DjangoTranslation(language, domain="djangojs")
    wanted = set(msgids)
    catalog = {
        msgid: text
        for msgid, text in django_catalogue.get_catalog().items()
        if msgid in wanted and any(text) and text != msgid  # gettext returns the msgid itself
    }
    # django-stubs types get_plural as a list; Django returns the expression, a string.
    return catalog, django_catalogue.get_plural() or "n!=1"  # type: ignore[return-value]
