"""A tab's network log: one entry per request from CDP ``Network.*`` events, in a bounded buffer
that drops its oldest entries first, plus the count of requests in flight (for network-idle).

Headers that carry credentials (Cookie, Authorization, Set-Cookie, ...) are kept as sent and
redacted when read unless the caller asks for them (``redact=False``). HAR export lives here too.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from pinchtab.browser.observe.console_log import iso_time

REDACTED = "[REDACTED]"
SECRET_HEADERS = frozenset({"cookie", "set-cookie", "authorization", "proxy-authorization"})


def redact_headers(headers: dict[str, str] | None, redact: bool = True) -> dict[str, str]:
    if not headers:
        return {}
    if not redact:
        return dict(headers)
    return {k: (REDACTED if k.lower() in SECRET_HEADERS else v) for k, v in headers.items()}


def status_matches(status: int, pattern: str) -> bool:
    """``200`` exact, ``4xx`` a class; anything else matches everything (as PinchTab does)."""
    p = pattern.strip().lower()
    if len(p) == 3 and p.isdigit():
        return status == int(p)
    if len(p) == 3 and p[0].isdigit() and "x" in p[1:]:
        return status // 100 == int(p[0])
    return True


def type_matches(entry_type: str, wanted: str) -> bool:
    a, b = entry_type.lower(), wanted.lower()
    # fetch() and XMLHttpRequest are both "script requests" to a caller asking for either.
    return a == b or {a, b} == {"xhr", "fetch"}


@dataclass(slots=True)
class NetworkEntry:
    request_id: str
    url: str
    method: str
    resource_type: str
    started: float  # wall clock, seconds
    mono: float  # CDP monotonic timestamp of the request
    request_headers: dict[str, str] = field(default_factory=dict)
    post_data: str | None = None
    status: int = 0
    status_text: str = ""
    response_headers: dict[str, str] | None = None
    mime_type: str = ""
    protocol: str = ""
    duration_ms: float = 0.0
    size: int = 0
    error: str = ""
    finished: bool = False
    failed: bool = False
    from_cache: bool = False
    body: "RetainedBody | None" = None  # observe.retainBodies: the body, kept when the request finished

    def to_json(self, redact: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "requestId": self.request_id, "url": self.url, "method": self.method, "resourceType": self.resource_type,
            "startTime": iso_time(self.started), "finished": self.finished, "failed": self.failed,
        }
        if self.status:
            out["status"] = self.status
            if self.status_text:
                out["statusText"] = self.status_text
        if self.request_headers:
            out["requestHeaders"] = redact_headers(self.request_headers, redact)
        if self.response_headers:
            out["responseHeaders"] = redact_headers(self.response_headers, redact)
        if self.post_data:
            out["postData"] = self.post_data
        if self.mime_type:
            out["mimeType"] = self.mime_type
        if self.finished or self.failed:
            out["endTime"] = iso_time(self.started + self.duration_ms / 1000)
            out["duration"] = round(self.duration_ms, 1)
        if self.size:
            out["size"] = self.size
        if self.error:
            out["error"] = self.error
        if self.body is not None:
            out.update(self.body.flags())
        return out


@dataclass(slots=True)
class RetainedBody:
    """A response body kept in the log (PinchTab's retained bodies): pending while it is being read,
    then kept (``text``), skipped (with the reason) or failed (``error``)."""

    pending: bool = True
    text: str | None = None
    base64: bool = False
    truncated: bool = False
    skip_reason: str = ""
    error: str = ""

    def flags(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.text is not None:
            out["bodyRetained"] = True
        if self.pending:
            out["bodyPending"] = True
        if self.skip_reason:
            out |= {"bodySkipped": True, "bodySkipReason": self.skip_reason}
        if self.truncated:
            out["bodyTruncated"] = True
        return out

    def answer(self) -> dict[str, Any]:
        """What a detail request with body=true answers from it."""
        out = self.flags()
        if self.text is not None:
            out |= {"responseBody": self.text, "bodySource": "retained"}
            if self.base64:
                out["base64Encoded"] = True
        if self.error:
            out["bodyError"] = self.error
        return out


class NetworkLog:
    """Requests of one tab, oldest first, at most ``size`` of them."""

    MAX_POST_DATA = 64 * 1024

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[str, NetworkEntry] = OrderedDict()
        self.inflight: set[str] = set()
        self.last_activity = time.monotonic()
        self.retained_bytes = 0
        # Called with each entry that changed (added, answered, finished, failed): /network/stream.
        self.listeners: set[Callable[[NetworkEntry], None]] = set()

    def clear(self) -> None:
        self.entries.clear()
        self.retained_bytes = 0

    def _changed(self, entry: NetworkEntry) -> None:
        for listener in list(self.listeners):
            listener(entry)

    def get(self, request_id: str) -> NetworkEntry | None:
        return self.entries.get(request_id)

    def _touch(self) -> None:
        self.last_activity = time.monotonic()

    # -- CDP events ------------------------------------------------------------------------------

    def on_request(self, p: dict[str, Any]) -> None:
        rid = p.get("requestId", "")
        req = p.get("request") or {}
        redirect = p.get("redirectResponse")
        old = self.entries.pop(rid, None)
        if old is not None and redirect:
            # The same id goes on to the redirect target: keep the hop under its own id.
            old.status, old.status_text = redirect.get("status", 0), redirect.get("statusText", "")
            old.response_headers = redirect.get("headers") or {}
            old.finished = True
            old.duration_ms = max(0.0, (p.get("timestamp", old.mono) - old.mono) * 1000)
            old.request_id = f"{rid}.redirect{sum(1 for k in self.entries if k.startswith(rid + '.redirect')) + 1}"
            self._add(old)
        post = req.get("postData")
        entry = NetworkEntry(rid, req.get("url", ""), req.get("method", "GET"), p.get("type", "Other"),
                             p.get("wallTime") or time.time(), p.get("timestamp", 0.0), req.get("headers") or {},
                             post[: self.MAX_POST_DATA] if post else None)
        self._add(entry)
        self.inflight.add(rid)
        self._touch()

    def _add(self, entry: NetworkEntry) -> None:
        self.entries[entry.request_id] = entry
        while len(self.entries) > self.size:
            old_id, old = self.entries.popitem(last=False)
            self.inflight.discard(old_id)
            if old.body is not None and old.body.text is not None:
                self.retained_bytes -= len(old.body.text)
        self._changed(entry)

    def on_response(self, p: dict[str, Any]) -> None:
        entry = self.entries.get(p.get("requestId", ""))
        if entry is None:
            return
        res = p.get("response") or {}
        entry.status, entry.status_text = res.get("status", 0), res.get("statusText", "")
        entry.response_headers = res.get("headers") or {}
        entry.mime_type = res.get("mimeType", "")
        entry.protocol = res.get("protocol", "")
        entry.from_cache = bool(res.get("fromDiskCache") or res.get("fromServiceWorker"))
        if p.get("type"):
            entry.resource_type = p["type"]
        self._touch()
        self._changed(entry)

    def on_finished(self, p: dict[str, Any]) -> NetworkEntry | None:
        rid = p.get("requestId", "")
        self.inflight.discard(rid)
        self._touch()
        entry = self.entries.get(rid)
        if entry is None:
            return None
        entry.finished = True
        entry.size = int(p.get("encodedDataLength") or 0)
        entry.duration_ms = max(0.0, (p.get("timestamp", entry.mono) - entry.mono) * 1000)
        self._changed(entry)
        return entry

    def on_failed(self, p: dict[str, Any]) -> NetworkEntry | None:
        rid = p.get("requestId", "")
        self.inflight.discard(rid)
        self._touch()
        entry = self.entries.get(rid)
        if entry is None:
            return None
        entry.failed = True
        entry.error = p.get("errorText", "") + (" (blocked)" if p.get("blockedReason") else "")
        entry.duration_ms = max(0.0, (p.get("timestamp", entry.mono) - entry.mono) * 1000)
        self._changed(entry)
        return entry

    # -- reading -----------------------------------------------------------------------------------

    def select(self, *, filter: str | None = None, method: str | None = None, status: str | None = None,
               type: str | None = None, limit: int | None = None) -> list[NetworkEntry]:
        out = []
        needle = filter.lower() if filter else None
        for e in self.entries.values():
            if needle and needle not in e.url.lower():
                continue
            if method and e.method.upper() != method.upper():
                continue
            if type and not type_matches(e.resource_type, type):
                continue
            if status and not status_matches(e.status, status):
                continue
            out.append(e)
        return out[-limit:] if limit else out


def broken_assets(entries: list[NetworkEntry]) -> list[dict[str, Any]]:
    """PinchTab's broken assets: requests answered 400 or more, or failed; not those in flight."""
    out = []
    for e in entries:
        if e.status >= 400 or e.failed:
            item: dict[str, Any] = {"url": e.url, "resourceType": e.resource_type.lower(), "statusCode": e.status}
            if e.error:
                item["error"] = e.error
            out.append(item)
    return out


# -- HAR 1.2 -----------------------------------------------------------------------------------------


def _pairs(headers: dict[str, str]) -> list[dict[str, str]]:
    return [{"name": k, "value": v} for k, v in headers.items()]


def har_entry(e: NetworkEntry, *, redact: bool = True, body: dict[str, Any] | None = None) -> dict[str, Any]:
    req_headers = redact_headers(e.request_headers, redact)
    res_headers = redact_headers(e.response_headers, redact)
    query = [{"name": k, "value": v} for k, v in parse_qsl(urlsplit(e.url).query, keep_blank_values=True)]
    request: dict[str, Any] = {
        "method": e.method, "url": e.url, "httpVersion": e.protocol or "HTTP/1.1", "cookies": [],
        "headers": _pairs(req_headers), "queryString": query, "headersSize": -1,
        "bodySize": len(e.post_data.encode()) if e.post_data else 0,
    }
    if e.post_data:
        mime = next((v for k, v in e.request_headers.items() if k.lower() == "content-type"), "")
        request["postData"] = {"mimeType": mime, "text": e.post_data}
    content: dict[str, Any] = {"size": e.size, "mimeType": e.mime_type or "x-unknown"}
    if body is not None and "error" in body:
        content["_bodyError"] = body["error"]  # asked for and not there: say why rather than leave it out
    elif body is not None:
        content["text"] = body.get("body", "")
        if body.get("base64Encoded"):
            content["encoding"] = "base64"
    location = next((v for k, v in (e.response_headers or {}).items() if k.lower() == "location"), "")
    response = {
        "status": e.status, "statusText": e.status_text, "httpVersion": e.protocol or "HTTP/1.1", "cookies": [],
        "headers": _pairs(res_headers), "content": content, "redirectURL": location, "headersSize": -1,
        "bodySize": e.size if e.finished else -1,
    }
    if e.error:
        response["_error"] = e.error
    total = round(e.duration_ms, 3)
    return {
        "startedDateTime": iso_time(e.started), "time": total, "request": request, "response": response,
        "cache": {}, "timings": {"send": 0, "wait": total, "receive": 0}, "_resourceType": e.resource_type.lower(),
        "_requestId": e.request_id,
    }


def har_log(entries: list[dict[str, Any]], version: str) -> dict[str, Any]:
    return {"log": {"version": "1.2", "creator": {"name": "pinchtab", "version": version}, "pages": [],
                    "entries": entries}}
