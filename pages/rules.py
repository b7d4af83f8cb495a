"""The rule book (docs/rules/rules.<lang>.md) rendered to HTML, each rule with an id."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import markdown
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"
RULES_LANGUAGES = ("es", "en")
RULES_FALLBACK = "en"

# "<li><strong>R4.2</strong>" or "<li><strong>P1 Start.</strong>": each rule gets an id
# so that the game page (and a test, or a player's shared link) can point at one rule.
_RULE_ITEM = re.compile(r"<li><strong>((?:R\d+\.\d+)|(?:P\d+))\b")


def rules_language(language: str | None) -> str:
    """The rule book's language for an active Django language ("es-mx" reads "es")."""
    base = (language or "").split("-")[0].lower()
    return base if base in RULES_LANGUAGES else RULES_FALLBACK


@functools.lru_cache(maxsize=8)
def _render_rules(language: str, mtime_ns: int) -> tuple[str, str]:
    # The file's mtime is part of the key so that an edited rule book is re-rendered
    # without a restart; otherwise each process renders each language once.
    md = markdown.Markdown(extensions=["tables", "toc"], output_format="html")
    text = (RULES_DIR / f"rules.{language}.md").read_text(encoding="utf-8")
    html = _RULE_ITEM.sub(r'<li id="\1"><strong>\1', md.convert(text))
    return html, md.toc


def rules_html(language: str | None = None) -> tuple[SafeString, SafeString]:
    """The rule book as (HTML body, HTML table of contents) in `language` (default: active)."""
    lang = rules_language(language or get_language())
    path = RULES_DIR / f"rules.{lang}.md"
    html, toc = _render_rules(lang, path.stat().st_mtime_ns)
    # Our own, reviewed files: the markdown is trusted, so its HTML is marked safe.
    return mark_safe(html), mark_safe(toc)
