"""The game page's weight as production serves it (collectstatic, DEBUG off, WhiteNoise).

Every script and stylesheet the page loads, its JavaScript catalogue included, is fetched
as a browser that accepts gzip and brotli gets it, and the bytes sent are what the budget
counts: WhiteNoise sends the smallest compressed copy that collectstatic wrote (.br only
when the brotli package is installed, else .gz, else the file itself). The module graph is
checked to load in one wave: every module that any module imports is preloaded by the page
itself (<link rel="modulepreload">).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.views import GAME_MODULES
from infra.storage import minified
from tests.games.factories import make_game

pytestmark = pytest.mark.django_db

BUDGET_BYTES = 45_000  # JS + CSS + catalogue of the game page, as transferred (compressed)
ACCEPT_ENCODING = "gzip, deflate, br"  # what every current browser sends
STATIC_SOURCES = Path(__file__).resolve().parents[2] / "games" / "static" / "games"

ASSET = re.compile(
    r'<(?:link[^>]*rel="(?P<rel>stylesheet|modulepreload)"[^>]*href="(?P<href>[^"]+)"'
    r'|script[^>]*src="(?P<src>[^"]+)")'
)
IMPORT = re.compile(r'(?:import|export)[^"\']*?from\s*["\'](\.[^"\']+)["\']')


def served(client: Client, url: str) -> tuple[int, bytes]:
    """(bytes sent, the body decoded) of `url`."""
    response = client.get(url)
    assert response.status_code == 200, url
    # A hashed name: the browser keeps it for good and asks no more (the catalogue too).
    assert "immutable" in response["Cache-Control"], url
    sent = b"".join(response.streaming_content) if response.streaming else response.content
    encoding = response.get("Content-Encoding")
    if encoding == "br":
        import brotli  # only there when WhiteNoise could write .br copies

        return len(sent), brotli.decompress(sent)
    assert encoding in (None, "gzip"), (url, encoding)
    return len(sent), gzip.decompress(sent) if encoding == "gzip" else sent


def test_every_module_of_the_game_page_is_preloaded() -> None:
    """A new module must join GAME_MODULES, or the page would fetch it a wave late."""
    on_disk = {f"games/game/{p.name}" for p in (STATIC_SOURCES / "game").glob("*.js")}
    assert set(GAME_MODULES) == on_disk | {"realtime/socket.js"}


def test_minifying_keeps_strings_and_template_literals() -> None:
    source = 'const a = `x ${b}  y`; // note\nconst c = "a  b"; /* gone */ const d = /a b/g;\n'
    out = minified("x.js", source)
    assert "`x ${b}  y`" in out and '"a  b"' in out and "/a b/g" in out
    assert "note" not in out and "gone" not in out
    assert minified("x.css", "a {  color: red; } /* c */") == "a{color:red}"
    assert minified("x.txt", "a  b") == "a  b"


def test_game_page_weight_as_served(alice, bob, settings, tmp_path) -> None:
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path
    settings.WHITENOISE_USE_FINDERS = False
    settings.WHITENOISE_AUTOREFRESH = False
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "infra.storage.MinifiedStaticFilesStorage"},
    }
    call_command("collectstatic", "--noinput", verbosity=0)
    game = make_game(alice, bob)
    page_url = reverse("game", kwargs={"game_id": game.pk})
    totals = {}
    for lang in ("en", "es"):
        client = Client(headers={"accept-language": lang, "accept-encoding": ACCEPT_ENCODING})
        client.force_login(alice)
        sizes = page_weight(client, page_url)
        totals[lang] = sum(sent for sent, _decoded in sizes.values())
        print(f"\ngame page as served ({lang}), bytes sent (decoded):")
        for kind in ("JS", "CSS"):
            of_kind = [n for url, n in sizes.items() if url.endswith(".css") == (kind == "CSS")]
            sent, decoded = sum(n[0] for n in of_kind), sum(n[1] for n in of_kind)
            print(f"  {kind:>5} {sent:>7} ({decoded})")
        decoded = sum(n for _sent, n in sizes.values())
        print(f"  total {totals[lang]:>7} ({decoded})")
    # Spanish loads the same files but a catalogue with the translations in it.
    assert totals["en"] < BUDGET_BYTES
    assert totals["es"] < BUDGET_BYTES


def page_weight(client: Client, page_url: str) -> dict[str, tuple[int, int]]:
    """{url: (bytes sent, bytes decoded)} of every script and stylesheet the page loads,
    and its module graph checked."""
    html = client.get(page_url).content.decode()
    sizes: dict[str, tuple[int, int]] = {}
    preloaded: set[str] = set()
    modules: dict[str, bytes] = {}
    for match in ASSET.finditer(html):
        url = match["href"] or match["src"]
        sent, body = served(client, url)
        sizes[url] = (sent, len(body))
        if match["rel"] == "modulepreload":
            preloaded.add(url)
            modules[url] = body
    # One wave: whatever a module imports, the page preloaded already.
    for url, body in modules.items():
        for spec in IMPORT.findall(body.decode()):
            assert urljoin(url, spec) in preloaded, (url, spec)
    # The game's modules, and the user socket's (base.html), which the page hears too.
    assert len(preloaded) == len(GAME_MODULES) + 1
    assert any("/js/user." in url for url in preloaded)
    for url, (sent, decoded) in sorted(sizes.items(), key=lambda item: -item[1][0])[:6]:
        print(f"  {sent:>7} ({decoded:>6}) {url}")
    return sizes
