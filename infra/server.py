"""Daphne's command line with five changes it has no option for: oversized messages closed
with 1009 rather than a dropped connection, a send to a socket the browser has just closed
dropped rather than raised into the consumer, a tuned garbage collector, 16 threads, and
a lighter queue of each connection's incoming messages
(docs/decisions/daphne-entry-point.md).

    python -m infra.server [daphne's own arguments]
"""

from __future__ import annotations

import asyncio
import gc
import os
from functools import partial
from typing import Any

# Threads running the game service for the sockets (read by daphne.server): they mostly
# wait for PostgreSQL's commit, and asyncio's default of cores + 4 queues moves behind them.
DEFAULT_ASGI_THREADS = "16"
os.environ.setdefault("ASGI_THREADS", DEFAULT_ASGI_THREADS)

from daphne.cli import CommandLineInterface  # noqa: E402
from daphne.server import Server  # noqa: E402
from daphne.ws_protocol import WebSocketProtocol  # noqa: E402

from infra.mailbox import Mailbox  # noqa: E402

# The youngest generation is collected after this many new objects instead of 700, since a
# move allocates a few thousand.
GC_THRESHOLDS = (10_000, 20, 100)


class GoneSafeWebSocketProtocol(WebSocketProtocol):
    """Daphne's WebSocket protocol, dropping what is sent after the browser closed.

    Autobahn raises Disconnected there (django/channels#1820): the consumer ended in an error
    for what is a browser leaving a page, and logged it as one.
    """

    def serverSend(self, content: str | bytes, binary: bool = False) -> None:
        if self.state in (self.STATE_CLOSING, self.STATE_CLOSED):
            return
        super().serverSend(content, binary)


class CleanCloseServer(Server):
    """Daphne's Server with autobahn's failByDrop off and the collector tuned: Server.run
    builds its WebSocket factory and runs the reactor in one go, so the factory is
    configured as it is assigned."""

    def run(self) -> None:
        # What is loaded now lives as long as the process, so full collections skip it.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        super().run()

    def create_application(self, protocol: Any, scope: dict[str, Any]) -> Mailbox | None:
        """Daphne's, with a Mailbox for asyncio.Queue."""
        assert "application_instance" not in self.connections[protocol]
        input_queue = Mailbox()
        scope.setdefault("asgi", {"version": "3.0"})
        application_instance = self.application(
            scope=scope, receive=input_queue.get, send=partial(self.handle_reply, protocol)
        )
        if protocol not in self.connections:
            return None
        self.connections[protocol]["application_instance"] = asyncio.ensure_future(
            application_instance, loop=asyncio.get_event_loop()
        )
        return input_queue

    @property
    def ws_factory(self) -> Any:
        return self._ws_factory

    @ws_factory.setter
    def ws_factory(self, factory: Any) -> None:
        factory.setProtocolOptions(failByDrop=False)  # close with 1009, not a dropped link
        factory.protocol = GoneSafeWebSocketProtocol
        self._ws_factory = factory


class CleanCloseCommandLineInterface(CommandLineInterface):
    server_class = CleanCloseServer


if __name__ == "__main__":
    CleanCloseCommandLineInterface.entrypoint()
