"""Port allocation for instances: the first port from ``instancePortStart`` that no instance holds
and nothing else listens on."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterable

from pinchtab.errors import NotReady

SEARCH_SPAN = 1000


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """Can we bind ``host:port`` right now? (Same check as the bridge's uvicorn will make.)"""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


class PortAllocator:
    def __init__(
        self,
        start: int,
        *,
        is_free: Callable[[int], bool] = port_is_free,
        avoid: Iterable[int] = (),
        span: int = SEARCH_SPAN,
    ) -> None:
        self.start = start
        self.span = span
        self.is_free = is_free
        self.avoid = set(avoid)
        self.taken: set[int] = set()

    def allocate(self, *, skip: Iterable[int] = ()) -> int:
        skipped = set(skip)
        for port in range(self.start, min(self.start + self.span, 65536)):
            if port in self.taken or port in self.avoid or port in skipped:
                continue
            if self.is_free(port):
                self.taken.add(port)
                return port
        raise NotReady(
            f"no free port in {self.start}-{min(self.start + self.span, 65536) - 1} for a new instance; "
            "stop an instance or set server.instancePortStart",
            "no_free_port",
        )

    def release(self, port: int | None) -> None:
        if port is not None:
            self.taken.discard(port)
