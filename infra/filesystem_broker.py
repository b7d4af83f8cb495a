"""kombu's filesystem transport writing each message whole and renaming it into place: stock
kombu creates the file before writing it, and a worker that reads it empty stops for good
(kombu#1551; docs/decisions/kombu-transports.md).

A file that still cannot be read is moved to `unreadable_folder` and logged, and the worker
goes on. The folders are made on first use, so a read-only image never needs them.

Selected by `CELERY_BROKER_TRANSPORT` in config/settings.py, with `transport_options`.
"""

from __future__ import annotations

import logging
import os
import uuid
from contextlib import suppress
from pathlib import Path
from queue import Empty
from time import monotonic
from typing import Any, ClassVar

from kombu.exceptions import ChannelError
from kombu.transport import filesystem, virtual
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

# Readers only pick names of the form "<stamp>_<uuid>.<queue>.msg"; this prefix never
# matches that, so a half-written file is invisible to them.
TEMP_PREFIX = ".writing-"


def transport_options(broker_dir: Path) -> dict[str, object]:
    """The stock transport's options plus `unreadable_folder`, all under `broker_dir`."""
    return {
        "data_folder_in": str(broker_dir / "queue"),
        "data_folder_out": str(broker_dir / "queue"),
        "processed_folder": str(broker_dir / "processed"),
        "store_processed": False,
        "control_folder": str(broker_dir / "control"),
        "unreadable_folder": str(broker_dir / "unreadable"),
        # The transport polls the folder; at the default 1 s a clock check can start late.
        "polling_interval": 0.2,
    }


def write_atomically(folder: str | Path, name: str, data: bytes, *, replace: bool = True) -> bool:
    """Write `data` to folder/name so that no reader ever sees a partial file.

    With `replace=False` an existing file is left alone and False is returned.
    """
    temp = os.path.join(folder, f"{TEMP_PREFIX}{uuid.uuid4().hex}")
    target = os.path.join(folder, name)
    try:
        with open(temp, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        if replace:
            os.replace(temp, target)
            return True
        try:
            os.link(temp, target)  # fails if the target exists, unlike a rename
        except FileExistsError:
            return False
        return True
    finally:
        with suppress(FileNotFoundError):  # gone when it was renamed into place
            os.unlink(temp)


class Channel(filesystem.Channel):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for folder in (
            self.data_folder_in,
            self.data_folder_out,
            self.processed_folder,
            self.control_folder,
            self.unreadable_folder,
        ):
            Path(folder).mkdir(parents=True, exist_ok=True)

    @property
    def unreadable_folder(self) -> str:
        default = os.path.join(os.path.dirname(self.data_folder_in.rstrip("/")), "unreadable")
        return str(self.transport_options.get("unreadable_folder", default))

    # kombu's filesystem Channel, whose signatures these keep, differs from its own base.
    def _put(self, queue: str, payload: dict, **kwargs: Any) -> None:  # type: ignore[override]
        # Same name as stock kombu's, so the oldest message is still read first.
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        try:
            write_atomically(self.data_folder_out, name, str_to_bytes(dumps(payload)))
        except OSError as exc:
            raise ChannelError(f"Cannot add message {name!r} to {self.data_folder_out}") from exc

    def _get(self, queue: str) -> dict:  # type: ignore[override]
        wanted = f"{queue}.msg"
        for name in sorted(os.listdir(self.data_folder_in)):
            if name.partition(".")[2] != wanted:
                continue
            # A rename within one file system is atomic, so exactly one worker claims the
            # file (stock kombu's move to /tmp may be a copy).
            claimed = os.path.join(self.processed_folder, name)
            try:
                os.rename(os.path.join(self.data_folder_in, name), claimed)
            except OSError:
                continue  # another worker took it
            try:
                with open(claimed, "rb") as file:
                    message = loads(bytes_to_str(file.read()))
                if not isinstance(message, dict):
                    raise ValueError(f"a message is a JSON object, not {type(message).__name__}")
            except (OSError, ValueError) as exc:
                self._set_aside(claimed, exc)
                continue
            if not self.store_processed:
                os.remove(claimed)
            return message
        raise Empty()

    def _set_aside(self, path: str, error: Exception) -> None:
        target = os.path.join(self.unreadable_folder, os.path.basename(path))
        try:
            os.replace(path, target)
        except OSError:
            target = "(could not be moved; left in place)"
        logger.error(
            "Unreadable broker message set aside",
            extra={"broker_file": os.path.basename(path), "moved_to": target, "error": repr(error)},
        )

    def _queue_bind(self, exchange: str, routing_key: str, pattern: str, queue: str) -> None:
        # Created whole, since stock kombu truncates then writes it (a reader could find it
        # empty); the stock code then updates it only under its exclusive lock.
        table = self._exchange_file(exchange)
        if not table.exists():
            write_atomically(table.parent, table.name, b"[]", replace=False)
        super()._queue_bind(exchange, routing_key, pattern, queue)


class Transport(filesystem.Transport):
    Channel = Channel

    # One broker state per control folder, not per process: stock kombu skips a binding it
    # recorded for another folder, so a second folder's queue would never be bound.
    states: ClassVar[dict[str, virtual.BrokerState]] = {}

    def __init__(self, client: Any, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        folder = os.path.abspath(client.transport_options.get("control_folder", "control"))
        self.state = self.states.setdefault(folder, virtual.BrokerState())
