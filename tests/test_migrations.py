"""The migrations describe the models, and keep what the models cannot say."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection


@pytest.mark.django_db
def test_the_models_need_no_new_migration():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_the_game_table_keeps_room_for_updates_in_place():
    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL storage parameter")
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'games_game'")
        [options] = cursor.fetchone()
    assert "fillfactor=70" in options
