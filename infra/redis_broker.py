"""kombu's Redis transport, kept working once Celery has closed a channel on a Redis restart
(kombu#582, kombu#970, celery#7705; docs/decisions/kombu-transports.md).

Two paths read the connection parameters from a connection the close has cleared and died
with an AttributeError that kills the worker: the put-back of unacknowledged messages, and
the ack of a task that finished meanwhile. The put-back is skipped (the transport also keeps
those messages in its `unacked` hash in Redis and puts them back once older than the
visibility timeout); the ack reconnects with the parameters the channel last used, and if
Redis is still away it fails with a connection error that Celery logs and survives.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis
from redis.exceptions import ConnectionError as RedisConnectionError

logger = logging.getLogger(__name__)


class QoS(redis.QoS):
    def restore_unacked(self, client: object = None) -> list:
        if client is None and not self.channel.connected_to_transport():
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

    def connected_to_transport(self) -> bool:
        return self.connection is not None and self.connection.client is not None

    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        saved: dict[bool, dict[str, Any]] = self.__dict__.setdefault("_saved_connparams", {})
        if not self.connected_to_transport():
            if asynchronous not in saved:
                raise RedisConnectionError("the broker channel is closed")
            return dict(saved[asynchronous])
        params: dict[str, Any] = super()._connparams(asynchronous)
        saved[asynchronous] = dict(params)
        return params


class Transport(redis.Transport):
    Channel = Channel
