"""kombu's Redis transport that skips the put-back of unacknowledged messages once the
connection is gone: Celery clears the transport's client first, and the put-back's
AttributeError kills the worker on a Redis restart (kombu#582, kombu#970, celery#7705;
docs/decisions/kombu-transports.md).

Nothing is lost: the transport also keeps those messages in Redis (its `unacked` hash) and
puts them back once older than the visibility timeout.
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
