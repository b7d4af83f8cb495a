"""Moving Challenge and QueueEntry from games to lobby keeps every row (state-only migrations)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

AFTER = [("games", "0007_challenge_queueentry_to_lobby"), ("lobby", "0001_initial")]


@pytest.mark.django_db(transaction=True)
def test_rows_and_content_types_survive_the_move(user_factory):
    alice = user_factory("alice")
    executor = MigrationExecutor(connection)
    executor.migrate([("lobby", None)])
    executor.loader.build_graph()
    executor.migrate([("games", "0006_void_legacy_cancelled_games")])
    old = executor.loader.project_state(("games", "0006_void_legacy_cancelled_games")).apps
    now = timezone.now()
    challenge = old.get_model("games", "Challenge").objects.create(
        challenger_id=alice.pk, expires_at=now + timedelta(minutes=5)
    )
    old.get_model("games", "QueueEntry").objects.create(
        user_id=alice.pk, rating=1512, joined_at=now, seen_at=now
    )
    ContentType.objects.filter(app_label="lobby").delete()  # as before the move
    old_type = ContentType.objects.get_or_create(app_label="games", model="challenge")[0]

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    moved = new.get_model("lobby", "Challenge").objects.get(pk=challenge.pk)
    assert moved.challenger_id == alice.pk and moved.status == "open"
    assert new.get_model("lobby", "QueueEntry").objects.get(user_id=alice.pk).rating == 1512
    relabelled = ContentType.objects.get(pk=old_type.pk)
    assert (relabelled.app_label, relabelled.model) == ("lobby", "challenge")

    # Back to the latest state, as the other tests expect.
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()
