"""The pages' JavaScript catalogues (django-statici18n: static/jsi18n/<language>/djangojs.js):
every word the browser scripts use is translated in Spanish, each page whose scripts call
the globals loads its language's catalogue first, and the committed files are what
`make messages` makes from the .po files now."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from games.computer.moves import computer_game_create
from games.review import services
from tests.games.factories import drive, make_game, seeded_deals

ROOT = Path(__file__).resolve().parents[2]
# Where the browser scripts are (the apps' static folders and STATICFILES_DIRS).
SCRIPT_DIRS = [ROOT / "games" / "static", ROOT / "lobby" / "static", ROOT / "static"]
CATALOGUES = ROOT / "static" / "jsi18n"
# A double-quoted JavaScript string: its escapes are JSON's, which json.loads reads.
STRING = r'"(?:[^"\\\n]|\\.)*"'
CALL = re.compile(rf"\b(?P<fn>n?gettext)\(\s*(?P<one>{STRING})(?:\s*,\s*(?P<two>{STRING}))?")
# Every call, however written: one that CALL cannot read has no literal msgid to extract.
ANY_CALL = re.compile(r"\bn?gettext\(")
# The modules' relative imports (`import … from "./x.js"`, `export … from "../y.js"`).
# `import … from "./x.js"`, and `import("./x.js")` (a module fetched when it is needed).
IMPORT = re.compile(
    r'(?:(?:import|export)[^"\';(]*?from\s*|import\(\s*)["\'](\.{1,2}/[^"\']+)["\']'
)
MODULE_SCRIPT = re.compile(r'<script type="module" src="/static/([^"]+)"')
CATALOGUE_SCRIPT = re.compile(r'<script src="/static/jsi18n/([a-z-]+)/djangojs\.js"')
# The translations in Django's catalogue script, a JSON object.
NEW_CATALOG = re.compile(r"const newcatalog = (\{.*?\});\n", re.DOTALL)


def scripts_with_words() -> dict[str, str]:
    """{static path: source} of every browser script that calls gettext or ngettext."""
    found = {}
    for base in SCRIPT_DIRS:
        for path in base.rglob("*.js"):
            if CATALOGUES in path.parents:
                continue
            source = path.read_text(encoding="utf-8")
            if ANY_CALL.search(source):
                found[path.relative_to(base).as_posix()] = source
    return found


def with_imports(entries: list[str]) -> set[str]:
    """The static paths of `entries` and of every module they import."""
    seen: set[str] = set()
    todo = list(entries)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        source = Path(str(finders.find(path))).read_text(encoding="utf-8")
        for spec in IMPORT.findall(source):
            todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(path), spec)))
    return seen


def shipped_catalogue(language: str) -> dict[str, str | list[str]]:
    """The translations of the committed catalogue of `language` ({} when it has none)."""
    script = (CATALOGUES / language / "djangojs.js").read_text(encoding="utf-8")
    found = NEW_CATALOG.search(script)
    return json.loads(found[1]) if found else {}


def test_every_call_is_read() -> None:
    """A call CALL cannot read (a variable, a template literal, single quotes) fails here:
    makemessages would not extract its words and the page would show them in English."""
    scripts = scripts_with_words()
    assert "games/game/main.js" in scripts and "lobby/closed.js" in scripts
    for path, source in scripts.items():
        assert len(ANY_CALL.findall(source)) == len(CALL.findall(source)), path


def test_every_word_of_the_scripts_is_translated_in_spanish() -> None:
    spanish = shipped_catalogue("es")
    for path, source in scripts_with_words().items():
        for call in CALL.finditer(source):
            msgid = json.loads(call["one"])
            assert msgid in spanish and all(spanish[msgid]), (path, msgid)
            if call["fn"] == "ngettext":
                assert isinstance(spanish[msgid], list), (path, msgid)


def test_the_committed_catalogues_are_up_to_date(tmp_path) -> None:
    """A .po changed without `make messages` (or a Django upgrade) fails here."""
    call_command("compilejsi18n", outputdir=str(tmp_path), verbosity=0)
    for language, _name in settings.LANGUAGES:
        made = (tmp_path / language / "djangojs.js").read_text(encoding="utf-8")
        committed = (CATALOGUES / language / "djangojs.js").read_text(encoding="utf-8")
        assert made == committed, f"static/jsi18n/{language}/ is stale: run make messages"


@pytest.fixture(autouse=True)
def back_to_the_default_language() -> Iterator[None]:
    """A Spanish request leaves Spanish active in this thread (LocaleMiddleware)."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def reviewed(game_id: int, user_id: int, monkeypatch: pytest.MonkeyPatch, on_commit: Any) -> None:
    """The game's review made here and now, as the review queue's worker would."""
    tasks = {
        services.TASK_START: services.review_start,
        services.TASK_PLAN: services.review_plan,
        services.TASK_PART: services.review_part,
    }
    monkeypatch.setattr(services, "_send", lambda name, **kwargs: tasks[name](**kwargs))
    with on_commit(execute=True):
        services.review_request(game_id=game_id, user_id=user_id)


@pytest.mark.django_db
def test_each_page_loads_the_catalogue_of_its_language(
    user_factory, client_logged_in, monkeypatch, settings, django_capture_on_commit_callbacks
) -> None:
    alice, bob = user_factory("alice"), user_factory("bob")
    game = make_game(alice, bob, deals=seeded_deals(1), balances=(20, 20))
    finished = drive(game.pk, (alice, bob), lambda view: view["status"] == "finished")
    settings.REVIEW_SAMPLES, settings.REVIEW_PART_SIZE = 2, 50
    reviewed(finished.pk, alice.pk, monkeypatch, django_capture_on_commit_callbacks)
    playing = make_game(alice, bob)
    # A practice game's page (here a spectator's) also loads the hints' script.
    practice = computer_game_create(user=user_factory("carol"), strength="easy", practice=True)
    client = client_logged_in(alice)
    urls = [
        reverse("game", kwargs={"game_id": playing.pk}),
        reverse("game", kwargs={"game_id": practice.pk}),
        reverse("game-replay", kwargs={"game_id": finished.pk}),
        reverse("game-review", kwargs={"game_id": finished.pk}),
        reverse("lobby"),
        reverse("live-games"),
        reverse("play-now"),
    ]
    translated: set[str] = set()
    for language in ("en", "es"):
        for url in urls:
            html = client.get(url, headers={"accept-language": language}).content.decode()
            assert CATALOGUE_SCRIPT.findall(html) == [language], url
            # The catalogue's classic script runs before the modules (deferred) that call it.
            assert html.index("/jsi18n/") < html.index('type="module"'), url
            translated |= with_imports(MODULE_SCRIPT.findall(html))
    # A script with words on a page that loads no catalogue would throw on its first call.
    assert set(scripts_with_words()) <= translated
