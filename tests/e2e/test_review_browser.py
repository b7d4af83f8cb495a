"""The review page in Chromium: the win-chance graph, the decisions and their filter, and
"learn from your mistakes", at 390x844 and 1280x800, in English and Spanish.

The game is played to its end through the game service; its review is made by the live
worker on the review queue, as after any rated game. Low thresholds (this module's own
platform) make sure the player has mistakes to learn from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import GameReview
from tests.e2e.pagecheck import check_page
from tests.games.factories import drive, make_game, seeded_deals
from tests.live import LivePlatform, live_platform, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
# The decision list's past tense, which the choices to make must not be in.
PAST_EN = re.compile(r"\b(played|led|drew|renounced|accepted|raised)\b")
PAST_ES = re.compile(r"\b(jugó|salió|robó|pujó|subió|renunció|aceptó)\b")
REVIEW_ENV = {
    "DJANGO_ALLOW_ASYNC_UNSAFE": "",
    "REVIEW_SAMPLES": "6",
    "REVIEW_INACCURACY": "0.002",
    "REVIEW_MISTAKE": "0.004",
    "REVIEW_BLUNDER": "0.5",
}


@pytest.fixture(scope="module")
def live(django_db_setup: None, django_db_blocker: Any) -> Iterator[LivePlatform]:
    with live_platform(env=REVIEW_ENV) as platform:
        yield platform


def reviewed_game(make_user: Callable[[str], Any], suffix: str) -> tuple[Any, Any]:
    ana, ben = make_user(f"ana{suffix}"), make_user(f"ben{suffix}")
    game = make_game(ana, ben, deals=seeded_deals(8), balances=(35, 35))
    drive(game.pk, (ana, ben), lambda view: view["status"] not in ("waiting", "playing"))
    done = wait_for(
        lambda: GameReview.objects.filter(game=game, status=GameReview.Status.DONE).exists(),
        timeout=120,
    )
    assert done, "the worker did not review the game"
    return game, ana


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_review_page_and_learning_from_ones_mistakes(
    login_page: Callable[..., Any], make_user: Callable[[str], Any], lang: str
) -> None:
    game, ana = reviewed_game(make_user, lang)
    review = GameReview.objects.get(game=game)
    mistakes = [
        d
        for d in review.result["decisions"]
        if d["seat"] == 0 and d["grade"] in ("mistake", "blunder")
    ]
    assert mistakes, "ana made no mistake to learn from"
    for viewport, size in ((PHONE, "phone"), (LAPTOP, "laptop")):
        page = login_page(ana, viewport)
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": page.live_url}])
        page.goto(f"{page.live_url}/games/{game.pk}/review/")
        # The graph is drawn, with a mark on each of the graded mistakes.
        expect(page.locator("#review-graph polyline")).to_have_count(1)
        # Each player's luck, the deals' and the draws' beside the total.
        deals, draws = ("repartos", "robos") if lang == "es" else ("deals", "draws")
        expect(page.locator(".review__luck")).to_have_count(2)
        # A plus or a minus sign, then a percentage with the language's decimal mark.
        signed = r"[+\u2212]\d+,\d %" if lang == "es" else r"[+\u2212]\d+\.\d %"
        for luck in page.locator(".review__luck").all():
            expect(luck).to_contain_text(re.compile(rf"\({deals} {signed}, {draws} {signed}\)"))
        marks = page.locator("#review-graph .review__mark")
        assert marks.count() >= len(mistakes)
        # The list, then one player's mistakes only.
        graded = sum(1 for d in review.result["decisions"] if not d["forced"])
        expect(page.locator("#review-list > li")).to_have_count(graded)
        # The filter is the site's own field: a finger's height, text a phone does not zoom.
        size = page.locator("#review-filter").evaluate(
            "(s) => [s.getBoundingClientRect().height, parseFloat(getComputedStyle(s).fontSize)]"
        )
        assert size[0] >= 44 and size[1] >= 16, size
        page.select_option("#review-filter", "0")
        items = page.locator("#review-list > li")
        assert items.count() >= len(mistakes)
        for seat in items.evaluate_all("(lis) => lis.map((li) => li.dataset.seat)"):
            assert seat == "0"
        expect(page.locator(".review__sentence").first).to_contain_text(
            "Mejor:" if lang == "es" else "Better:"
        )
        # Learn from your mistakes: the first mistake, chosen again with the best option.
        learn = page.locator("#review-learn")
        expect(learn).to_be_visible()
        expect(page.locator("#review-learn-title")).to_have_text(
            "Aprende de tus errores" if lang == "es" else "Learn from your mistakes"
        )
        first = mistakes[0]
        # The balances as the player saw them, theirs named first (never seat 0's first).
        expect(page.locator("#review-learn-where")).to_contain_text(
            "tu saldo" if lang == "es" else "your balance"
        )
        # Each option offered as a choice to make ("pujar 20"), not as a past move ("pujó 20").
        best_text = page.evaluate(
            "(step) => window.__review.data.decisions"
            ".find((d) => d.step === step).options[0].choice",
            first["step"],
        )
        past = PAST_ES if lang == "es" else PAST_EN
        offered = page.locator("#review-learn-options button").all_inner_texts()
        assert offered and not [text for text in offered if past.search(text)], offered
        page.locator("#review-learn-options button", has_text=best_text).first.click()
        expect(page.locator("#review-learn-answer")).to_have_class(
            "review__answer review__answer--good"
        )
        played = page.evaluate(
            "(step) => { const d = window.__review.data.decisions.find((x) => x.step === step);"
            " return d.options[d.chosen].choice; }",
            first["step"],
        )
        page.locator("#review-learn-options button", has_text=played).first.click()
        expect(page.locator("#review-learn-answer")).to_have_class(
            "review__answer review__answer--bad"
        )
        learnable = page.evaluate("window.__review.data.learn.length")
        if learnable > 1:
            page.locator("[data-learn=next]").click()
            expect(page.locator("#review-learn-where")).to_contain_text("2")
        else:
            expect(page.locator(".review__learn-nav")).to_be_hidden()
        check_page(page, f"review-{size}", lang)
        # The finished game's page links to its review from the game-over card.
        page.goto(f"{page.live_url}/games/{game.pk}/")
        link = page.locator("#review-progress a")
        expect(link).to_have_attribute("href", f"/games/{game.pk}/review/")
        expect(link).to_have_text(
            "Ver el análisis de la partida" if lang == "es" else "See the game review"
        )
        assert page.errors == []

    # Ben (seat 1) sees his own chance: ana's curve upside down.
    def first_point_y(reader: Any) -> float:
        page = login_page(reader, LAPTOP)
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": page.live_url}])
        page.goto(f"{page.live_url}/games/{game.pk}/review/")
        points = page.locator("#review-graph polyline").get_attribute("points") or ""
        return float(points.split()[0].split(",")[1])

    ben = game.player1
    assert first_point_y(ana) + first_point_y(ben) == pytest.approx(200)  # the graph's height
