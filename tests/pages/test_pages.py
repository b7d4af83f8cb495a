"""Home page, rules page and fragment (both languages), language switch."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from pages.rules import rules_html, rules_language

pytestmark = pytest.mark.django_db

EN_ONLY = "Points and counters"
ES_ONLY = "Puntos y contadores"


def test_home_for_an_anonymous_visitor(client: Client) -> None:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Spectacular Bid" in html
    assert reverse("signup") in html
    assert reverse("login") in html
    assert reverse("rules") in html


def test_home_for_a_logged_in_player(client_logged_in, user) -> None:
    response = client_logged_in(user).get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert reverse("profile", kwargs={"username": "alice"}) in html
    assert f'action="{reverse("logout")}"' in html
    assert f'href="{reverse("signup")}"' not in html


def test_rules_page_in_english(client: Client) -> None:
    response = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    assert EN_ONLY in html
    assert ES_ONLY not in html
    assert "R4.2" in html
    assert 'id="R4.2"' in html  # each rule can be linked to
    assert '<html lang="en">' in html


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_rules_page_says_nothing_meant_for_developers(client: Client, language: str) -> None:
    html = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for words in ("reglas-original-es.txt", "normative", "normativo", "code comments", "código"):
        assert words not in html, words


def test_rules_page_in_spanish_from_accept_language(client: Client) -> None:
    response = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9")
    html = response.content.decode()
    assert response.status_code == 200
    assert ES_ONLY in html
    assert EN_ONLY not in html
    assert "R4.2" in html
    assert '<html lang="es">' in html


def test_rules_page_in_spanish_from_the_language_cookie(client: Client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    html = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ES_ONLY in html
    assert "subasta" in html


def test_both_rule_books_have_the_same_rule_ids() -> None:
    import re

    pattern = re.compile(r'id="((?:R\d+\.\d+)|(?:P\d+))"')
    en_ids = pattern.findall(rules_html("en")[0])
    es_ids = pattern.findall(rules_html("es")[0])
    assert en_ids == es_ids
    assert "R4.2" in en_ids
    assert len(en_ids) > 40


def test_rules_language_falls_back_to_english() -> None:
    assert rules_language("es-mx") == "es"
    assert rules_language("fr") == "en"
    assert rules_language(None) == "en"


def test_set_language_switches_the_language(client: Client) -> None:
    rules = reverse("rules")
    response = client.post(reverse("set_language"), {"language": "es", "next": rules})
    assert response.status_code == 302
    assert response["Location"] == rules
    html = client.get(rules, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ES_ONLY in html
    assert "Reglas" in html  # the nav is translated too

    client.post(reverse("set_language"), {"language": "en", "next": rules})
    html = client.get(rules, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert EN_ONLY in html


def test_base_template_has_a_language_switch_keeping_next(client: Client) -> None:
    html = client.get(reverse("rules") + "?x=1").content.decode()
    assert f'action="{reverse("set_language")}"' in html
    assert 'name="next" value="/rules/?x=1"' in html
    assert 'name="language" value="es"' in html
    assert 'name="language" value="en"' in html


def test_home_in_spanish(client: Client) -> None:
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Regístrate" in html or "Crear cuenta" in html


@pytest.mark.parametrize(
    ("language", "title", "lobby_link"),
    [("en", "Page not found", True), ("es", "Página no encontrada", False)],
)
def test_a_missing_page_is_a_page_of_the_site(
    settings, client_logged_in, user, language, title, lobby_link
) -> None:
    """With DEBUG off (production), not Django's bare "Not Found": the site's header, the
    player's language, and the ways on."""
    settings.DEBUG = False
    settings.SECURE_SSL_REDIRECT = False
    client = client_logged_in(user) if lobby_link else Client()
    response = client.get("/no-such-page/", headers={"accept-language": language})
    assert response.status_code == 404
    html = response.content.decode()
    assert f'<html lang="{language}"' in html and "site-header" in html
    assert f'<h1 class="hero__title">{title}</h1>' in html
    assert reverse("home") in html and (reverse("lobby") in html) == lobby_link


@pytest.mark.parametrize(
    ("language", "title"), [("en", "This form has expired"), ("es", "Este formulario ha caducado")]
)
def test_a_form_sent_with_a_stale_token_gets_a_page_of_the_site(
    settings, user, password, language, title
) -> None:
    """Signed in or out in another tab since the form was served: its token no longer
    holds. The site's page in the player's language, not Django's bare, unstyled one."""
    settings.DEBUG = False
    settings.SECURE_SSL_REDIRECT = False
    client = Client(enforce_csrf_checks=True)
    client.cookies["django_language"] = language
    response = client.post(reverse("login"), {"username": user.username, "password": password})
    assert response.status_code == 403
    html = response.content.decode()
    assert f'<html lang="{language}"' in html and "site-header" in html
    assert f'<h1 class="hero__title">{title}</h1>' in html


def test_a_server_error_page_needs_no_request() -> None:
    with translation.override("es"):
        html = render_to_string("500.html")
    assert '<html lang="es"' in html and "Error del servidor" in html
