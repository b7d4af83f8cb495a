"""A TCP proxy that a test can cut: a database outage for the platform's processes only.

Stopping the real PostgreSQL would also stop every other test process on the machine;
pointing the platform at this proxy and cutting it looks the same to the platform
(connections reset, new ones refused) and touches nobody else.
"""

from __future__ import annotations

import socket
import threading
from contextlib import suppress


class TcpProxy:
    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.up = threading.Event()
        self.up.set()
        self.sockets: set[socket.socket] = set()
        self.lock = threading.Lock()
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up.is_set():
                client.close()  # refused while the outage lasts
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                self.sockets.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            with self.lock:
                self.sockets.discard(source)
                self.sockets.discard(sink)

    def cut(self) -> None:
        """Drop every connection and refuse new ones, as a stopped server would."""
        self.up.clear()
        with self.lock:
            sockets = list(self.sockets)
        for sock in sockets:
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def restore(self) -> None:
        self.up.set()

    def close(self) -> None:
        self.closed = True
        self.cut()
        self.listener.close()
