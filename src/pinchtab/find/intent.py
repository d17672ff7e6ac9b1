"""Intent cache: what each tab's successful finds were looking for.

After ``/find`` returns a ref, the bridge records (tab, ref) -> the query, the matched
element's descriptor and the score/confidence. If a later action on that ref fails
because the page re-rendered (stale ref), recovery looks the ref up here and re-matches
the recorded intent against a fresh snapshot (see :mod:`pinchtab.find.recovery`).

The cache is bounded in size (least-recently-used entries are evicted first, globally and
per tab) and in age (entries older than ``ttl`` seconds are treated as absent and purged).
Thread-safe.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .index.descriptors import ElementDescriptor

__all__ = ["IntentRecord", "IntentCache"]

DEFAULT_MAX_ENTRIES = 1024
DEFAULT_MAX_PER_TAB = 128
DEFAULT_TTL = 600.0


@dataclass(frozen=True, slots=True)
class IntentRecord:
    """One successful find: enough to find the same element again after a re-render."""

    tab_id: str
    ref: str
    query: str
    descriptor: ElementDescriptor
    score: float
    confidence: str
    recorded_at: float


class IntentCache:
    """Per-tab LRU + TTL store of :class:`IntentRecord`, keyed by (tab id, ref)."""

    def __init__(
        self,
        max_entries: int = DEFAULT_MAX_ENTRIES,
        ttl: float = DEFAULT_TTL,
        *,
        max_per_tab: int = DEFAULT_MAX_PER_TAB,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_entries < 1 or max_per_tab < 1:
            raise ValueError("cache sizes must be >= 1")
        if ttl <= 0:
            raise ValueError("ttl must be > 0")
        self.max_entries = max_entries
        self.max_per_tab = max_per_tab
        self.ttl = float(ttl)
        self._clock = clock
        self._entries: OrderedDict[tuple[str, str], IntentRecord] = OrderedDict()
        self._per_tab: dict[str, int] = {}
        self._lock = threading.Lock()

    # -- writing ------------------------------------------------------------------------
    def record(
        self,
        tab_id: str,
        ref: str,
        query: str,
        descriptor: ElementDescriptor,
        score: float,
        confidence: str,
    ) -> IntentRecord:
        rec = IntentRecord(str(tab_id), str(ref), query, descriptor, float(score), confidence, self._clock())
        key = (rec.tab_id, rec.ref)
        with self._lock:
            if key in self._entries:
                del self._entries[key]
            else:
                self._per_tab[rec.tab_id] = self._per_tab.get(rec.tab_id, 0) + 1
            self._entries[key] = rec
            if self._per_tab[rec.tab_id] > self.max_per_tab:
                for k in self._entries:
                    if k[0] == rec.tab_id:
                        self._drop(k)
                        break
            while len(self._entries) > self.max_entries:
                self._drop(next(iter(self._entries)))
        return rec

    def record_result(self, tab_id: str, query: str, result: Mapping[str, Any], index: Any) -> IntentRecord | None:
        """Record a ``find`` result (the dict) if it has a best ref; ``index`` is its ElementIndex."""
        ref = result.get("best_ref") or ""
        if not ref:
            return None
        desc = index.get(ref)
        if desc is None:
            return None
        return self.record(tab_id, ref, query, desc, float(result.get("score", 0.0)), str(result.get("confidence", "")))

    # -- reading ------------------------------------------------------------------------
    def lookup(self, tab_id: str, ref: str) -> IntentRecord | None:
        """The intent recorded for (tab, ref), or None if absent or expired."""
        key = (str(tab_id), str(ref))
        with self._lock:
            rec = self._entries.get(key)
            if rec is None:
                return None
            if self._clock() - rec.recorded_at > self.ttl:
                self._drop(key)
                return None
            self._entries.move_to_end(key)
            return rec

    def for_tab(self, tab_id: str) -> list[IntentRecord]:
        """Live records of a tab, most recently used last."""
        now = self._clock()
        with self._lock:
            return [r for (t, _), r in self._entries.items() if t == str(tab_id) and now - r.recorded_at <= self.ttl]

    # -- housekeeping -------------------------------------------------------------------
    def forget(self, tab_id: str, ref: str | None = None) -> int:
        """Drop one (tab, ref) or, with ``ref=None``, everything of a tab. Returns count dropped."""
        tab_id = str(tab_id)
        with self._lock:
            if ref is not None:
                key = (tab_id, str(ref))
                if key in self._entries:
                    self._drop(key)
                    return 1
                return 0
            keys = [k for k in self._entries if k[0] == tab_id]
            for k in keys:
                self._drop(k)
            return len(keys)

    def purge(self) -> int:
        """Remove expired entries now; returns how many."""
        now = self._clock()
        with self._lock:
            dead = [k for k, r in self._entries.items() if now - r.recorded_at > self.ttl]
            for k in dead:
                self._drop(k)
            return len(dead)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._per_tab.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, tuple) or len(key) != 2:
            return False
        return self.lookup(*key) is not None

    def _drop(self, key: tuple[str, str]) -> None:
        rec = self._entries.pop(key, None)
        if rec is not None:
            c = self._per_tab.get(rec.tab_id, 0) - 1
            if c <= 0:
                self._per_tab.pop(rec.tab_id, None)
            else:
                self._per_tab[rec.tab_id] = c
