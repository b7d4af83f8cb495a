"""Each page's JavaScript catalogue (pages/jsi18n.py): every word its scripts use, read
from the scripts themselves, translated in Spanish, and served so that the three globals
behave like Django's."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation.trans_real import DjangoTranslation
from django.views.i18n import JavaScriptCatalog

from pages.jsi18n import (
    ANY_CALL,
    CALL,
    PAGE_SCRIPTS,
    catalogue_script,
    message_key,
    page_modules,
    page_msgids,
)
from tests.games.factories import drive, make_game, seeded_deals

ROOT = Path(__file__).resolve().parents[2]
# Where the browser scripts are (the apps' static folders and STATICFILES_DIRS).
SCRIPT_DIRS = [ROOT / "games" / "static", ROOT / "lobby" / "static", ROOT / "static"]
MODULE_SCRIPT = re.compile(r'<script type="module" src="/static/([^"]+)"')
CATALOGUE_SCRIPT = re.compile(r'<script src="/jsi18n/([^/"]+)/"')


def scripts_with_words() -> dict[str, str]:
    """{static path: source} of every browser script that calls gettext or ngettext."""
    found = {}
    for base in SCRIPT_DIRS:
        for path in base.rglob("*.js"):
            source = path.read_text(encoding="utf-8")
            if ANY_CALL.search(source):
                found[path.relative_to(base).as_posix()] = source
    return found


def test_every_call_is_read() -> None:
    """A call CALL cannot read (a variable, a template literal, single quotes) fails here:
    its words would be missing from the catalogue."""
    scripts = scripts_with_words()
    assert "games/game/main.js" in scripts and "lobby/closed.js" in scripts
    for path, source in scripts.items():
        assert len(ANY_CALL.findall(source)) == len(CALL.findall(source)), path


def test_every_script_with_words_belongs_to_a_page() -> None:
    in_pages = {path for page in PAGE_SCRIPTS for path in page_modules(page)}
    assert set(scripts_with_words()) <= in_pages


def test_every_word_of_each_page_is_translated_in_spanish() -> None:
    django_catalogue = JavaScriptCatalog()
    django_catalogue.translation = DjangoTranslation("es", domain="djangojs")
    spanish = django_catalogue.get_catalog()
    for page in PAGE_SCRIPTS:
        for path in page_modules(page):
            source = Path(finders.find(path)).read_text(encoding="utf-8")
            for call in CALL.finditer(source):
                msgid = json.loads(call["one"])
                assert msgid in page_msgids(page), (page, msgid)
                assert msgid in spanish and all(spanish[msgid]), (page, path, msgid)
                if call["fn"] == "ngettext":
                    assert isinstance(spanish[msgid], list), msgid


def test_no_two_words_of_a_page_share_a_key() -> None:
    for page in PAGE_SCRIPTS:
        for language in ("en", "es"):
            assert catalogue_script(page, language)  # raises on a collision
        assert len({message_key(m) for m in page_msgids(page)}) == len(page_msgids(page))


def test_the_key_is_fnv1a_over_utf16() -> None:
    assert message_key("") == "8yeycx"  # 0x811c9dc5 >> 2, in base 36
    assert message_key("Rematch") == "3p7fx8"
    assert message_key("¿Qué?😀") == "6po1rc"  # an astral character is two code units


@pytest.fixture(autouse=True)
def back_to_the_default_language() -> Iterator[None]:
    """A Spanish request leaves Spanish active in this thread (LocaleMiddleware)."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.mark.django_db
def test_each_page_loads_the_catalogue_of_its_scripts(user_factory, client_logged_in) -> None:
    alice, bob = user_factory("alice"), user_factory("bob")
    game = make_game(alice, bob, deals=seeded_deals(1), balances=(20, 20))
    finished = drive(game.pk, (alice, bob), lambda view: view["status"] == "finished")
    playing = make_game(alice, bob)
    client = client_logged_in(alice)
    pages = {
        reverse("game", kwargs={"game_id": playing.pk}): "game",
        reverse("game-replay", kwargs={"game_id": finished.pk}): "replay",
        reverse("lobby"): "lobby",
        reverse("live-games"): "lobby",
        reverse("play-now"): "play-now",
    }
    for url, page in pages.items():
        html = client.get(url).content.decode()
        assert CATALOGUE_SCRIPT.findall(html) == [page], url
        modules = MODULE_SCRIPT.findall(html)
        assert modules and set(modules) <= set(PAGE_SCRIPTS[page]), (url, modules)
        # The catalogue's classic script runs before the modules (deferred) that call it.
        assert html.index("/jsi18n/") < html.index('type="module"'), url


def test_an_unknown_page_has_no_catalogue(client: Client) -> None:
    assert client.get("/jsi18n/nowhere/").status_code == 404
