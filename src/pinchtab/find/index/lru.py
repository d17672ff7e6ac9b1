"""A small thread-safe LRU map (per-index caches of query plans and term postings)."""

from __future__ import annotations

import threading
from collections import OrderedDict

__all__ = ["LRU"]


class LRU:
    __slots__ = ("_d", "_max", "_lock")

    def __init__(self, maxsize: int) -> None:
        self._d: OrderedDict = OrderedDict()
        self._max = maxsize
        self._lock = threading.Lock()

    def get(self, k):
        with self._lock:
            v = self._d.get(k)
            if v is not None:
                self._d.move_to_end(k)
            return v

    def put(self, k, v) -> None:
        with self._lock:
            self._d[k] = v
            self._d.move_to_end(k)
            while len(self._d) > self._max:
                self._d.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._d.clear()

    def __len__(self) -> int:
        return len(self._d)
