"""The Redis Celery broker: kombu's Redis transport, surviving a Redis restart.

When the connection to Redis drops, Celery's consumer first tears the kombu connection
down (`Connection.collect()`, which sets the transport's `client` to None) and only then
closes it; closing the channel puts the worker's unacknowledged messages (ETA tasks held in
memory, tasks in progress under acks_late) back on the queue, and that needs the transport's
connection parameters, read from the `client` that is now None. The result is
"AttributeError: 'NoneType' object has no attribute 'hostname'", which is not one of the
connection errors the close is guarded against, so the worker (and the beat inside it)
exits with "Unrecoverable error" (seen with celery 5.7 / kombu 5.7; upstream reports of the
same crash: kombu #582 and #970, celery #7705).

Here that restore is skipped once the connection is gone. Nothing is lost by it: the Redis
transport also keeps every delivered, unacknowledged message in Redis itself (its
`unacked` hash), and a worker puts those back on the queue once they are older than the
`visibility_timeout`; if Redis lost its data in the restart, the messages are gone either
way. Game clocks do not depend on them: the clock keeper reads deadlines from the database.
"""

from __future__ import annotations

import logging

from kombu.transport import redis

logger = logging.getLogger(__name__)


class QoS(redis.QoS):
    def restore_unacked(self, client: object = None) -> list:
        if client is None and self.channel.connection.client is None:
            logger.warning(
                "Broker connection already closed: %d unacknowledged message(s) left in "
                "Redis until the visibility timeout puts them back",
                len(self._delivered),
            )
            self._delivered.clear()
            return []
        return super().restore_unacked(client)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
