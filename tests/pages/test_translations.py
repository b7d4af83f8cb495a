"""Both languages ship complete: every Spanish entry is translated, none is fuzzy, and the
compiled catalogue that Django reads holds exactly those translations."""

from __future__ import annotations

import ast
import gettext
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "es" / "LC_MESSAGES"
CATALOGUES = ["django.po", "djangojs.po"]


@dataclass
class Entry:
    msgid: str
    forms: list[str]
    context: str
    plural: bool
    fuzzy: bool


def po_entries(path: Path) -> list[Entry]:
    """Every entry of a .po file, the header left out."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        current = ""
        fuzzy = False
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            elif line.startswith("msg"):
                current, _, literal = line.partition(" ")
                fields[current] = ast.literal_eval(literal)
            elif line.startswith('"') and current:
                fields[current] += ast.literal_eval(line)
        if fields.get("msgid"):
            entries.append(
                Entry(
                    msgid=fields["msgid"],
                    forms=[v for k, v in fields.items() if k.startswith("msgstr")],
                    context=fields.get("msgctxt", ""),
                    plural="msgid_plural" in fields,
                    fuzzy=fuzzy,
                )
            )
    return entries


@pytest.mark.parametrize("catalogue", CATALOGUES)
def test_spanish_catalogue_is_complete(catalogue):
    entries = po_entries(LOCALE / catalogue)
    assert len(entries) > 20
    assert [e.msgid for e in entries if not all(e.forms)] == []
    assert [e.msgid for e in entries if e.fuzzy] == []


@pytest.mark.parametrize("catalogue", CATALOGUES)
def test_compiled_spanish_catalogue_matches_its_source(catalogue):
    with (LOCALE / catalogue).with_suffix(".mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for entry in po_entries(LOCALE / catalogue):
        if entry.plural:
            continue
        if entry.context:
            got = compiled.pgettext(entry.context, entry.msgid)
        else:
            got = compiled.gettext(entry.msgid)
        assert got == entry.forms[0], entry.msgid


# The rule book's own words (docs/rules/rules.es.md, R7) for the two parts of the clock: a
# player who reads "reserva" on one screen and "banco" on the next cannot tell they are one.
CLOCK_WORDS = {"delay": "retraso", "bank": "banco"}


@pytest.mark.parametrize("catalogue", CATALOGUES)
def test_spanish_names_the_clock_as_the_rule_book_does(catalogue):
    for entry in po_entries(LOCALE / catalogue):
        english = re.sub(r"%\(\w+\)s", "", entry.msgid).lower()  # placeholders are not words
        for word, spanish in CLOCK_WORDS.items():
            if re.search(rf"\b{word}\b", english):
                assert spanish in entry.forms[0].lower(), (entry.msgid, entry.forms[0])
