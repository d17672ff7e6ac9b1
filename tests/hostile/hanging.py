"""A web server whose page never finishes loading: it accepts connections and never answers, or
(``commits``) sends the headers and the start of a page, then nothing more."""

from __future__ import annotations

import socket
import threading


class Hanging:
    def __init__(self, *, commits: bool = False) -> None:
        self.commits = commits
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
            if self.commits:
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><p>loading")
            self.asked.set()

    def close(self) -> None:
        self.sock.close()
        for conn in self.connections:
            conn.close()
