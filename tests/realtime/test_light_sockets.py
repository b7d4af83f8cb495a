"""What each open socket holds, made light (docs/decisions/built-once.md, "Memory"): the
channel layer's mailbox, Daphne's input queue, and one keeper of every socket's groups."""

from __future__ import annotations

import asyncio

import pytest

from infra.mailbox import Mailbox
from realtime import consumer as realtime_consumer
from realtime.consumer import GroupsKeeper


@pytest.mark.parametrize("make", [lambda: Mailbox(10), Mailbox])
async def test_messages_come_out_in_order_and_a_cancelled_get_takes_none(make) -> None:
    queue = make()
    waiting = asyncio.ensure_future(queue.get())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    queue.put_nowait({"n": 1})
    queue.put_nowait({"n": 2})

    assert await queue.get() == {"n": 1}
    assert await queue.get() == {"n": 2}


async def test_a_get_waiting_is_woken_by_the_next_message() -> None:
    mailbox = Mailbox(10)
    waiting = asyncio.ensure_future(mailbox.get())
    await asyncio.sleep(0)
    mailbox.put_nowait({"n": 1})

    assert await waiting == {"n": 1}
    assert mailbox.empty()


def test_a_full_mailbox_drops_its_oldest_message() -> None:
    mailbox = Mailbox(2)
    for n in range(3):
        mailbox.put_nowait({"n": n})

    assert mailbox.messages == [{"n": 1}, {"n": 2}]


class Socket:
    """What GroupsKeeper asks of a socket: `check_groups`."""

    def __init__(self, blocks: bool = False) -> None:
        self.checked = asyncio.Event()
        self.cancelled = False
        self.blocks = blocks

    async def check_groups(self) -> None:
        self.checked.set()
        if self.blocks:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                self.cancelled = True
                raise


async def test_the_keeper_checks_every_socket_it_keeps(monkeypatch) -> None:
    monkeypatch.setattr(realtime_consumer, "GROUPS_CHECK_SECONDS", 0.05)
    keeper = GroupsKeeper()
    sockets = [Socket() for _ in range(3)]
    for socket in sockets:
        keeper.keep(socket)  # type: ignore[arg-type]

    await asyncio.wait_for(asyncio.gather(*(s.checked.wait() for s in sockets)), 10)
    for socket in sockets:
        await keeper.drop(socket)  # type: ignore[arg-type]
    await asyncio.wait_for(keeper.task, 10)  # nothing left to keep: the task ends


async def test_dropping_a_socket_cancels_its_check_underway(monkeypatch) -> None:
    monkeypatch.setattr(realtime_consumer, "GROUPS_CHECK_SECONDS", 0.05)
    keeper = GroupsKeeper()
    socket = Socket(blocks=True)
    keeper.keep(socket)  # type: ignore[arg-type]
    await asyncio.wait_for(socket.checked.wait(), 10)

    await keeper.drop(socket)  # type: ignore[arg-type]

    assert socket.cancelled
    assert not keeper.checking
    await asyncio.wait_for(keeper.task, 10)
