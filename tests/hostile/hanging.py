"""A web server that accepts connections and never answers: a page that never finishes loading."""

from __future__ import annotations

import socket
import threading


class Hanging:
    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/never"
        self.asked = threading.Event()  # a browser connected: a navigation there is in flight
        self.connections: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections.append(conn)
            self.asked.set()

    def close(self) -> None:
        self.sock.close()
        for conn in self.connections:
            conn.close()
