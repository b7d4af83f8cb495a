"""Usernames a profile link can reach and no one can mistake for another player's."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import UsernameSkeleton
from accounts.services import account_create, username_check_available
from infra.confusables import confusable_keys, one_script

pytestmark = pytest.mark.django_db

User = get_user_model()


def _signup(client: Client, username: str, password: str, language: str = "en") -> str:
    client.cookies["django_language"] = language
    response = client.post(
        reverse("signup"),
        {"username": username, "password1": password, "password2": password},
    )
    assert response.status_code == 200, "the sign-up should have been refused"
    assert not User.objects.filter(username=username).exists()
    return str(response.context["form"].errors["username"])


def _code(username: str) -> str:
    with pytest.raises(ValidationError) as refused:
        username_check_available(username)
    return str(refused.value.code)


@pytest.mark.parametrize("name", [".", "..", "...", "...."])
def test_dots_only_are_refused(name: str) -> None:
    assert _code(name) == "dots"


def test_dots_are_explained_in_both_languages(client: Client, password: str) -> None:
    assert "only dots" in _signup(client, "..", password)
    assert "solo puntos" in _signup(client, ".", password, "es")


@pytest.mark.parametrize("name", ["a.b", ".alice", "bob.", "x..y", "@home", "j-m_k+l"])
def test_names_with_dots_and_signs_lead_to_their_profile(
    client: Client, password: str, name: str
) -> None:
    account_create(username=name, password=password)
    page = client.get(reverse("profile", kwargs={"username": name}))
    assert page.status_code == 200
    assert page.context["player"].get_username() == name


def test_names_of_fixed_pages_stay_reserved() -> None:
    for name in ("login", "LOGOUT", "signup", "password"):
        assert _code(name) == "reserved"


@pytest.mark.parametrize(
    "name", ["p\u0430ypal", "\u0430lice", "J\u043ehn", "\u03b1lpha1x", "bob\u043a\u043e\u0442"]
)
def test_mixed_scripts_are_refused(name: str) -> None:
    # Each has Cyrillic or Greek letters (written as escapes) among Latin ones.
    assert _code(name) == "mixed_scripts"


def test_mixed_scripts_are_explained_in_both_languages(client: Client, password: str) -> None:
    assert "one alphabet" in _signup(client, "p\u0430ypal", password)
    assert "un solo alfabeto" in _signup(client, "p\u0430ypal", password, "es")


@pytest.mark.parametrize("name", ["José", "Ελένη", "Дмитрий", "山田たろう", "김민수", "zoë_99"])
def test_one_script_names_are_welcome(password: str, name: str) -> None:
    assert one_script(name)
    account_create(username=name, password=password)
    assert User.objects.filter(username=name).exists()


@pytest.mark.parametrize(
    ("existing", "lookalike"),
    [
        (
            "alice",
            "\u0430l\u0456\u0441\u0435",
        ),  # Cyrillic a, i, c, e around a Latin l: mixed scripts
        (
            "paypal",
            "\u0440\u0430\u0443\u0440\u0430l",
        ),  # Cyrillic p, a, y with a Latin l: mixed scripts
        ("mary", "rnary"),  # "rn" reads as "m"
        ("Ian", "lan"),  # a capital I is a small L
        ("ian", "\u0406an"),  # a Cyrillic capital I, in another case
        ("bob", "b0b"),  # a zero is an O
        ("player1", "playerl"),
    ],
)
def test_a_lookalike_of_an_existing_name_is_refused(
    user_factory: Any, password: str, existing: str, lookalike: str
) -> None:
    user_factory(existing)
    with pytest.raises(ValidationError) as refused:
        account_create(username=lookalike, password=password)
    assert refused.value.error_dict["username"][0].code in {"confusable", "mixed_scripts"}
    assert not User.objects.filter(username=lookalike).exists()


def test_an_all_cyrillic_copy_of_a_latin_name_is_refused_as_a_lookalike(
    client: Client, user_factory: Any, password: str
) -> None:
    user_factory("copa")
    assert _code("\u0441\u043e\u0440\u0430") == "confusable"  # Cyrillic c, o, p, a
    assert "looks too much like “copa”" in _signup(client, "\u0441\u043e\u0440\u0430", password)
    assert "se parece demasiado a «copa»" in _signup(
        client, "\u0441\u043e\u0440\u0430", password, "es"
    )


def test_names_are_nfkc_normalised(password: str) -> None:
    user = account_create(
        username="\uff42\uff45\uff54\uff48", password=password
    )  # full-width letters
    assert user.get_username() == "beth"
    with pytest.raises(ValidationError):
        account_create(username="\uff22\uff25\uff34\uff28", password=password)


def test_existing_accounts_keep_their_names(
    client_logged_in: Any, user_factory: Any, password: str
) -> None:
    # Made before the rules (straight through the model): they still log in and show.
    old: AbstractBaseUser = user_factory("..")
    twin = user_factory("\u0430lice")
    assert client_logged_in(twin).get(reverse("home")).status_code == 200
    assert User.objects.filter(pk__in=[old.pk, twin.pk]).count() == 2
    # And a new name like one of them is refused.
    assert _code("alice") == "confusable"


def test_different_names_do_not_collide() -> None:
    names = ["alice", "alice2", "bob", "carol", "Élise", "elise2", "dominoking", "marta"]
    keys = [confusable_keys(name) for name in names]
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            assert not a & b


def test_each_name_is_stored_as_its_skeletons_once(user_factory: Any) -> None:
    carol = user_factory("carol")
    rows = UsernameSkeleton.objects.filter(user=carol)
    assert set(rows.values_list("skeleton", flat=True)) == confusable_keys("carol")
    carol.last_login = timezone.now()
    carol.save(update_fields=["last_login"])
    carol.save()
    assert rows.count() == len(confusable_keys("carol"))


def test_a_renamed_account_frees_its_old_name_and_guards_its_new_one(
    user_factory: Any, password: str
) -> None:
    player = user_factory("mary")
    player.username = "dolores"
    player.save()
    assert set(
        UsernameSkeleton.objects.filter(user=player).values_list("skeleton", flat=True)
    ) == confusable_keys("dolores")
    assert _code("d0lores") == "confusable"
    account_create(username="rnary", password=password)  # "mary" is free again


def test_the_lookalike_check_reads_as_little_for_many_players_as_for_one(
    user_factory: Any,
) -> None:
    def queries_to_check(name: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            username_check_available(name)
        return len(queries)

    user_factory("alice")
    few = queries_to_check("zoe")
    User.objects.bulk_create([User(username=f"player{n}") for n in range(200)])
    assert queries_to_check("zara") == few <= 2


@pytest.mark.django_db(transaction=True)
def test_the_migration_stores_the_skeletons_of_names_taken_before_it() -> None:
    call_command("migrate", "accounts", "zero", verbosity=0)
    try:
        # bulk_create sends no post_save: these are the accounts the column never saw.
        User.objects.bulk_create([User(username="copa"), User(username="Ian")])
    finally:
        call_command("migrate", "accounts", verbosity=0)
    assert _code("\u0441\u043e\u0440\u0430") == "confusable"
    assert _code("lan") == "confusable"
