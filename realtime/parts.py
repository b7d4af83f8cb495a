"""A socket composed of parts, one per app (the user socket, user_socket.consumer).

Each part is a subclass of `SocketPart` that adds its channel-layer handlers and extends
the steps below, calling `super()` so that every part takes its turn; the composed class
lists the parts, and its method resolution order is the order they run in. A part reads
the database through `realtime.consumer.in_pool` only.
"""

from __future__ import annotations

from typing import Any

from realtime.consumer import JsonSocketConsumer


class SocketPart(JsonSocketConsumer):
    """The steps every part extends; here, the end of each chain."""

    def part_options(self, query: dict[str, list[str]]) -> None:
        """Take what the page asked for in the socket's query string."""

    async def part_join(self) -> None:
        """Join the part's groups (before the socket is accepted)."""

    def part_read(self, found: dict[str, Any]) -> None:
        """Read what the page needs at once into `found`; every part's reads run in one
        call in the thread pool, before the socket is accepted."""

    async def part_open(self, found: dict[str, Any]) -> None:
        """Send what the page needs at once, from `found` (after the socket is accepted)."""

    async def part_resync(self) -> None:
        """Send afresh what may have been missed (realtime.consumer's check_groups)."""

    async def part_close(self) -> None:
        """Undo what the part did for this socket beyond its groups."""

    async def part_receive(self, data: dict[str, Any]) -> bool:
        """Answer a message from the page; False when no part takes its type."""
        return False
