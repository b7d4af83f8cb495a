"""The "How to play" page: its examples are the engine's, and they say what the rule book
says (each figure checked against the rule's own arithmetic); the page states those figures
in both languages and hands the same tables and clocks to its script."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html import unescape

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import engine
from pages.howto import ANA, LEO, examples, pictures

pytestmark = pytest.mark.django_db

RULES = engine.RULES


@pytest.fixture(autouse=True)
def back_to_the_default_language() -> Iterator[None]:
    yield
    translation.activate(settings.LANGUAGE_CODE)


def page_text(client: Client, language: str) -> str:
    response = client.get(reverse("how-to-play"), headers={"accept-language": language})
    assert response.status_code == 200
    html = response.content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", main)).split())


def test_the_lead_and_the_fives_count_follow_r4() -> None:
    ex = examples()
    lead, fives = ex["lead"], ex["fives"]
    # R2.2: the highest double leads; R4.2: a spinner alone counts 2v; R4.5: 12 scores nothing.
    assert lead["board"]["lead"]["tile"] == "6-6" and lead["count"] == 2 * 6
    assert lead["count"] % 5 and lead["scores"] == 0
    # R4.2: with one main arm taken the spinner still counts 2v, plus that arm's end.
    assert fives["ends"] == {"left": 2 * 6, "right": 3}
    assert fives["count"] == sum(fives["ends"].values()) == 15
    assert fives["count"] % 5 == 0 and fives["points"] == fives["scores"] == fives["count"]


def test_the_transfer_follows_r1() -> None:
    ex = examples()
    transfer = ex["transfer"]
    # R1.1-R1.3: 150-150 becomes 135-165 after Leo's 15, and the two still add up to 300.
    assert transfer["before"] == [RULES["balance"]] * 2
    assert transfer["after"][LEO] == transfer["before"][LEO] + transfer["points"]
    assert transfer["after"][ANA] == transfer["before"][ANA] - transfer["points"]
    assert sum(transfer["after"]) == ex["total"] == 2 * RULES["balance"]


def test_the_spinner_examples_follow_r3_and_r4() -> None:
    spinner = examples()["spinner"]
    closed, lateral = spinner["closed"], spinner["lateral"]
    # R4.3: both main arms taken, the spinner counts nothing and the empty lateral arms 0.
    assert closed["ends"] == {"left": 2, "right": 3, "up": 0, "down": 0}
    assert closed["count"] == 2 + 3 and closed["points"] == 5
    # R3.2: the lateral arm opened; an occupied lateral arm counts its end.
    assert lateral["board"]["up"][0]["tile"] == "6-5" and lateral["ends"]["up"] == 5
    assert lateral["count"] == 2 + 3 + 5 and lateral["points"] == 10


def test_the_auction_follows_r5_and_r6() -> None:
    auction = examples()["auction"]
    # R5.5: Ana placed her last tile; she is the jockey.
    assert auction["round_1"]["reason"] == "domino" and auction["round_1"]["hands"][ANA] == []
    assert auction["jockey"] == ANA and auction["domino"]["player"] == ANA
    bid, raised, accept = auction["bids"]
    # R6.2: the rival bids first, at least 15, at no discount.
    assert (bid["player"], bid["amount"], bid["net_cost"]) == (LEO, RULES["min_bid"], 15)
    # R6.3 and R6.5: a raise by 5; the jockey's own 20 costs 20 - 15.
    assert raised["amount"] == bid["amount"] + RULES["bid_step"]
    assert raised["net_cost"] == raised["amount"] - RULES["jockey_discount"] == 5
    # R6.4: accepted, the bidder pays the net cost to the other and leads any tile.
    assert (accept["bid"], accept["paid"], accept["payer"]) == (20, 5, ANA)
    assert auction["after"] == [auction["before"][ANA] - 5, auction["before"][LEO] + 5]
    assert (auction["leads"], auction["phase"]) == (ANA, "lead")


def test_the_clock_follows_r7() -> None:
    clock = examples()["clock"]
    # R7.4: charged to the bank = max(0, elapsed - 10 s).
    assert clock["leo_bank"] == RULES["bank"] - (clock["leo_thinks"] - RULES["delay"]) == 117
    assert clock["leo_from_bank"] == 3
    assert clock["ana_thinks"] < RULES["delay"] and clock["ana_bank"] == RULES["bank"]
    # The pictures' instants: Leo 13 s into his decision, Ana 5 s into hers.
    leo, ana = clock["leo"], clock["ana"]
    assert leo["view"]["clock"]["running"] == LEO
    assert leo["at_ms"] / 1000 - leo["view"]["clock"]["decision_start"] == 13
    assert ana["view"]["clock"]["running"] == ANA
    assert ana["at_ms"] / 1000 - ana["view"]["clock"]["decision_start"] == clock["ana_seen_at"]


@pytest.mark.parametrize(
    ("language", "sentences"),
    [
        (
            "en",
            [
                "Alone, it counts both halves: 12.",
                "12 + 3 = 15, a multiple of 5. Leo scores 15.",
                "Ana goes from 150 to 135, Leo from 150 to 165. Together they still have 300.",
                "2 + 3 = 5. Ana scores 5.",
                "2 + 3 + 5 = 10.",
                "Leo bids 15. Accepted, it would cost him 15.",
                "she would pay 20 \u2212 15 = 5.",
                "Ana pays 5, not 20,",
                "10 came from the delay and 3 from his bank, which now has 117 seconds.",
            ],
        ),
        (
            "es",
            [
                "Sola, cuenta sus dos mitades: 12.",
                "12 + 3 = 15, múltiplo de 5: Leo puntúa 15.",
                "Ana pasa de 150 a 135, y Leo de 150 a 165. Entre los dos siguen teniendo 300.",
                "2 + 3 = 5. Ana puntúa 5.",
                "2 + 3 + 5 = 10.",
                "Leo puja 15. Si se la aceptan, le cuesta 15.",
                "pagaría 20 \u2212 15 = 5.",
                "Ana paga 5, no 20,",
                "10 salieron del retraso y 3 de su banco, al que le quedan 117 segundos.",
            ],
        ),
    ],
)
def test_the_page_states_the_engines_figures(client: Client, language, sentences) -> None:
    text = page_text(client, language)
    for sentence in sentences:
        assert sentence in text, sentence


def test_the_script_gets_the_engines_tables_and_clocks(client: Client) -> None:
    html = client.get(reverse("how-to-play")).content.decode()
    found = re.search(r'<script id="howto-examples" type="application/json">(.*?)</script>', html)
    assert found is not None
    assert json.loads(found[1]) == json.loads(json.dumps(pictures()))
    # Every figure of the page is one the script draws.
    assert set(re.findall(r'data-example="(\w+)"', html)) == set(pictures()["tables"])
    assert set(re.findall(r'data-clock="(\w+)"', html)) == set(pictures()["clocks"])


def test_the_practice_game_is_offered_to_a_player_and_sign_up_to_a_visitor(
    client: Client, client_logged_in, user
) -> None:
    anonymous = client.get(reverse("how-to-play")).content.decode()
    assert f'href="{reverse("signup")}"' in anonymous and 'name="practice"' not in anonymous
    html = client_logged_in(user).get(reverse("how-to-play")).content.decode()
    assert f'action="{reverse("computer-new")}"' in html and 'name="practice" value="1"' in html


@pytest.mark.parametrize("name", ["home", "rules"])
def test_home_and_rule_book_link_the_page(client: Client, name) -> None:
    html = client.get(reverse(name)).content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    assert f'href="{reverse("how-to-play")}"' in main
