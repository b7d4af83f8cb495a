"""The one door for pushes after a change (realtime.events): sent once the transaction
commits, never for one rolled back, and a lost layer logged rather than raised."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from realtime import events

pytestmark = pytest.mark.django_db(transaction=True)


def listener(group: str) -> str:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group, channel)
    return channel


def heard(channel: str) -> list[dict[str, Any]]:
    layer = get_channel_layer()

    async def drain() -> list[dict[str, Any]]:
        found = []
        while True:
            try:
                found.append(await asyncio.wait_for(layer.receive(channel), 0.3))
            except TimeoutError:
                return found

    return async_to_sync(drain)()


def test_a_push_goes_once_the_change_commits_and_never_for_one_rolled_back():
    channel = listener("events-test")
    built = []

    def build() -> list[tuple[str, dict[str, Any]]]:
        built.append(1)
        return [("events-test", {"type": "test.built"})]

    with transaction.atomic():
        events.send_on_commit("events-test", {"type": "test.sent"})
        events.send_all_on_commit(build, "test")
        assert heard(channel) == [] and built == []  # not before the commit
    assert heard(channel) == [{"type": "test.sent"}, {"type": "test.built"}]
    assert built == [1]  # built once, after the commit
    with pytest.raises(RuntimeError), transaction.atomic():
        events.send_on_commit("events-test", {"type": "test.lost"})
        events.send_all_on_commit(build, "test")
        raise RuntimeError("rolled back")
    assert heard(channel) == [] and built == [1]


def test_a_lost_layer_is_logged_and_the_change_stands(monkeypatch, caplog):
    def lost(sends: Any, **kwargs: Any) -> None:
        raise ConnectionError("the layer is away")

    monkeypatch.setattr(events, "group_send_all", lost)

    def failing_build() -> list[tuple[str, dict[str, Any]]]:
        raise ConnectionError("the read failed")

    with caplog.at_level(logging.ERROR, logger="realtime.events"), transaction.atomic():
        events.send_on_commit("events-test", {"type": "test.sent"})
        events.send_all_on_commit(failing_build, "notice of %s", "game 7")
    lines = [record.getMessage() for record in caplog.records]
    assert lines == ["push lost: test.sent to events-test", "push lost: notice of game 7"]
