"""infra.filesystem_broker on a folder of its own: whole messages only, bad files set aside.

The race it removes (a reader opening a file its writer has created but not yet filled)
is too brief to hit on demand; these tests pin down the two properties that close it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from kombu import Connection, Queue

from infra.filesystem_broker import TEMP_PREFIX, transport_options

QUEUE = "bursttest"


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[tuple[Connection, Path]]:
    root = tmp_path / "broker"  # absent: the transport creates its folders itself
    connection = Connection(
        "filesystem://",
        transport="infra.filesystem_broker:Transport",
        transport_options=transport_options(root),
    )
    yield connection, root
    connection.release()


def test_a_message_goes_through_under_its_final_name_only(broker):
    connection, root = broker
    queue = Queue(QUEUE, routing_key=QUEUE)
    with connection.Producer() as producer:
        producer.publish({"n": 1}, routing_key=QUEUE, declare=[queue])
    # Only the finished message, under the name readers look for; no temporary left over.
    [name] = os.listdir(root / "queue")
    assert name.endswith(f".{QUEUE}.msg") and not name.startswith(TEMP_PREFIX)

    message = connection.SimpleQueue(queue).get(timeout=5)
    assert message.payload == {"n": 1}
    message.ack()


def test_an_unreadable_file_is_set_aside_and_the_next_message_still_arrives(broker):
    connection, root = broker
    queue = connection.SimpleQueue(Queue(QUEUE, routing_key=QUEUE))
    # What stock kombu's reader saw: a message file created but not yet written.
    (root / "queue" / f"0_empty.{QUEUE}.msg").write_bytes(b"")
    # A file being written right now, under the temporary name: never picked up.
    (root / "queue" / f"{TEMP_PREFIX}inflight").write_bytes(b'{"half')
    with connection.Producer() as producer:
        producer.publish({"n": 2}, routing_key=QUEUE)

    message = queue.get(timeout=5)
    assert message.payload == {"n": 2}
    message.ack()
    assert os.listdir(root / "unreadable") == [f"0_empty.{QUEUE}.msg"]
    assert os.listdir(root / "queue") == [f"{TEMP_PREFIX}inflight"]
    queue.close()
