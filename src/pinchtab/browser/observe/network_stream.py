"""A tab's network log as it happens (PinchTab's ``/network/stream`` and ``/network/export/stream``):
each change of an entry (sent, answered, finished, failed) goes to the listeners of its log; a
stream is a listener with a bounded queue, ending after ``maxEvents`` events, ``durationMs``, or
when its caller leaves. The export stream also writes each finished entry to a file under
``<stateDir>/exports`` (``<path>.tmp``, renamed when the stream ends)."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from pinchtab.browser.observe.network_log import NetworkEntry, NetworkLog, har_entry, status_matches, type_matches
from pinchtab.models import Event
from pinchtab.models.observe import MAX_STREAM_SEC, NetworkFilters, NetworkStreamQuery

KEEPALIVE_SEC = 15.0
QUEUE_SIZE = 1000  # changes a slow reader may fall behind by; later ones are dropped


def matches(entry: NetworkEntry, q: NetworkFilters) -> bool:
    if q.filter and q.filter.lower() not in entry.url.lower():
        return False
    if q.method and entry.method.upper() != q.method.upper():
        return False
    if q.type and not type_matches(entry.resource_type, q.type):
        return False
    return not q.status or status_matches(entry.status, q.status)


async def changes(log: NetworkLog, q: NetworkStreamQuery) -> AsyncIterator[NetworkEntry | None]:
    """Each matching entry as it changes; None when nothing came for KEEPALIVE_SEC (a keep-alive)."""
    queue: asyncio.Queue[NetworkEntry] = asyncio.Queue(QUEUE_SIZE)

    def listener(entry: NetworkEntry) -> None:
        if not queue.full():
            queue.put_nowait(entry)

    log.listeners.add(listener)
    end = time.monotonic() + (q.duration_ms / 1000 if q.duration_ms else MAX_STREAM_SEC)
    try:
        while (left := end - time.monotonic()) > 0:
            try:
                entry = await asyncio.wait_for(queue.get(), min(left, KEEPALIVE_SEC))
            except asyncio.TimeoutError:
                if end - time.monotonic() > 0:
                    yield None
                continue
            if matches(entry, q):
                yield entry
    finally:
        log.listeners.discard(listener)


async def network_events(log: NetworkLog, q: NetworkStreamQuery) -> AsyncIterator[Event]:
    sent = 0
    async for entry in changes(log, q):
        if entry is None:
            yield None
            continue
        yield "network", entry.to_json(q.redact)
        sent += 1
        if q.max_events and sent >= q.max_events:
            return


class ExportFile:
    """HAR or NDJSON written entry by entry to ``<path>.tmp``, renamed to ``path`` when closed with
    entries in it (removed when empty, unless ``keep_empty``)."""

    def __init__(self, path: Path, fmt: str, version: str) -> None:
        self.path, self.fmt, self.count = path, fmt, 0
        self.tmp = path.with_name(path.name + ".tmp")
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._file = os.fdopen(os.open(self.tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8")
        if fmt == "har":
            creator = json.dumps({"name": "pinchtab", "version": version})
            self._file.write(f'{{"log":{{"version":"1.2","creator":{creator},"pages":[],"entries":[')

    def add(self, entry: dict[str, Any]) -> None:
        text = json.dumps(entry, ensure_ascii=False)
        if self.fmt == "har":
            self._file.write(("," if self.count else "") + text)
        else:
            self._file.write(text + "\n")
        self._file.flush()
        self.count += 1

    def close(self, keep_empty: bool = False) -> str | None:
        if self.fmt == "har":
            self._file.write("]}}")
        self._file.close()
        if self.count or keep_empty:
            os.replace(self.tmp, self.path)
            return str(self.path)
        self.tmp.unlink(missing_ok=True)
        return None


BodyReader = Callable[[NetworkEntry], Awaitable[dict[str, Any] | None]]


def export_events(log: NetworkLog, q: Any, out: ExportFile, body: BodyReader | None) -> AsyncIterator[Event]:
    """Each matching request sent after the stream began, appended to ``out`` when it finished or
    failed (``export`` events: ``{entries, url}``), then ``done`` (``{entries, path}``) when the
    stream ends."""
    # As in PinchTab, a request already in the log is not the stream's, even if it finishes later:
    # one of a page navigated away from since has no body left to read. Taken now, not when the
    # events are first read (after the answer's headers are sent), so no new request is left out.
    return _export_events(log, q, out, body, set(log.entries))


async def _export_events(log: NetworkLog, q: Any, out: ExportFile, body: BodyReader | None,
                         exported: set[str]) -> AsyncIterator[Event]:
    try:
        async for entry in changes(log, q):
            if entry is None:
                yield None
                continue
            if not (entry.finished or entry.failed) or entry.request_id in exported:
                continue
            exported.add(entry.request_id)
            content = await body(entry) if body is not None and entry.finished and not entry.failed else None
            out.add(har_entry(entry, redact=q.redact, body=content))
            yield "export", {"entries": out.count, "url": entry.url[:200]}
            if q.max_events and out.count >= q.max_events:
                break
    finally:
        path = out.close()
    yield "done", {"entries": out.count, **({"path": path} if path else {})}
