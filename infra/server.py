"""Daphne, closing oversized WebSocket messages with 1009 instead of dropping the TCP link.

Daphne passes its --websocket-max-message-size / --websocket-max-frame-size (1 MiB) to
autobahn, whose factories default to failByDrop=True: a message over the limit makes
autobahn drop the connection without a close frame, so the browser sees 1006 and cannot
tell it from a network error. With failByDrop=False autobahn sends the close frame with
1009 ("message too big") instead; protocol violations are then closed with 1002 the same
way, as RFC 6455 asks. Daphne has no option for it, hence this entry point:

    python -m infra.server [daphne's own arguments]

It also tunes Python's cyclic garbage collector for a server, just before it serves (see
CleanCloseServer.run).
"""

from __future__ import annotations

import gc
import os
from typing import Any

# The threads that run the game service for the sockets (one transaction each, most of it
# spent waiting for PostgreSQL's commit): asyncio's default of cores + 4 queues moves
# behind each other's commits; more of them commit together. Read by daphne.server.
DEFAULT_ASGI_THREADS = "16"
os.environ.setdefault("ASGI_THREADS", DEFAULT_ASGI_THREADS)

from daphne.cli import CommandLineInterface  # noqa: E402
from daphne.server import Server  # noqa: E402

# Collect the youngest generation after this many new objects instead of 700: a move
# allocates a few thousand (views, messages, rows), and at 700 the collector ran several
# times per move. Measured with bench/moves.py at 50 games: about 5-8 % more moves/s.
GC_THRESHOLDS = (10_000, 20, 100)


class CleanCloseServer(Server):
    """Server.run builds its WebSocket factory and runs the reactor in one go; the factory
    is configured as it is assigned, and the collector tuned before that."""

    def run(self) -> None:
        # Everything loaded so far (Django, the app, Twisted) lives as long as the process:
        # frozen out of the collector's generations, full collections no longer walk it.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        super().run()

    @property
    def ws_factory(self) -> Any:
        return self._ws_factory

    @ws_factory.setter
    def ws_factory(self, factory: Any) -> None:
        factory.setProtocolOptions(failByDrop=False)
        self._ws_factory = factory


class CleanCloseCommandLineInterface(CommandLineInterface):
    server_class = CleanCloseServer


if __name__ == "__main__":
    CleanCloseCommandLineInterface.entrypoint()
