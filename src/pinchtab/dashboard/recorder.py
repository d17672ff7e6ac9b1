"""Records every API request into the activity log (pure ASGI, in front of the routing proxy): who
asked (``X-Agent-Id``), what (method, path, action kind, target), on which tab and instance, the
status and how long it took.

It reads no more than it must: a JSON request body and a small JSON answer are scanned for the
fields that name the tab, target and page (bodies over ``SCAN_LIMIT`` are not scanned), and the
bytes pass on unchanged. The dashboard's own page and API (``/``, ``/dashboard``, ``/api/*``) and
what the dashboard page reads (a same-origin GET) are not logged.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pinchtab.dashboard.activity import ActivityLog, now_iso
from pinchtab.web import SESSION_SCOPE

SCAN_LIMIT = 64 * 1024
AGENT_HEADER = b"x-agent-id"
MAX_TARGET_CHARS = 200
# Not activity: the dashboard itself, the API docs, health probes.
_QUIET_PREFIXES = ("/api/", "/dashboard", "/docs", "/redoc")
_QUIET_PATHS = frozenset({"/", "/health", "/openapi.json", "/help", "/favicon.ico", "/docs"})
_TARGET_FIELDS = ("ref", "selector", "url", "query", "key", "text", "value", "expression")
# Answers whose "url" is the page's (elsewhere it may be a logged request's, a link's, ...).
_PAGE_ANSWERS = frozenset({"navigate", "tab", "back", "forward", "reload", "snapshot", "text"})
_TAB_IN_ANSWER = re.compile(rb'"tabId"\s*:\s*"([^"\\]{1,200})"')
_URL_IN_ANSWER = re.compile(rb'"url"\s*:\s*"([^"\\]{1,2000})"')


def is_quiet(path: str) -> bool:
    return path in _QUIET_PATHS or path.startswith(_QUIET_PREFIXES)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1").strip()
    return None


def _json_object(data: bytes) -> dict[str, Any]:
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def describe(path: str, query: dict[str, list[str]], body: dict[str, Any]) -> dict[str, Any]:
    """The tab, action kind and target a request names (PinchTab's tabId, action, ref, url)."""
    out: dict[str, Any] = {}
    fields = {k: v[0] for k, v in query.items() if v}
    fields.update({k: v for k, v in body.items() if isinstance(v, (str, int, float))})
    tab = fields.get("tabId")
    if path.startswith("/tabs/"):
        tab = path.split("/")[2] or tab
    if tab:
        out["tabId"] = str(tab)
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if last == "action" and isinstance(body.get("kind"), str):
        out["action"] = body["kind"]
    elif last == "actions":
        out["action"] = "actions"
    for key in _TARGET_FIELDS:
        value = fields.get(key)
        if value not in (None, ""):
            out["target"] = str(value)[:MAX_TARGET_CHARS]
            break
    if "target" not in out and isinstance(fields.get("x"), (int, float)) and isinstance(fields.get("y"), (int, float)):
        out["target"] = f"({fields['x']:g}, {fields['y']:g})"
    if isinstance(fields.get("ref"), str):
        out["ref"] = fields["ref"]
    if isinstance(fields.get("url"), str):
        out["url"] = fields["url"][:2000]
    return out


class ActivityRecorder:
    """ASGI middleware: one activity-log entry per answered API request."""

    def __init__(self, app: ASGIApp, log: ActivityLog) -> None:
        self.app = app
        self.log = log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or is_quiet(scope["path"]):
            await self.app(scope, receive, send)
            return
        from_dashboard = _header(scope, b"sec-fetch-site") == "same-origin"
        if from_dashboard and scope["method"] in ("GET", "HEAD"):
            await self.app(scope, receive, send)  # the dashboard reading: thumbnails, logs
            return
        started = time.monotonic()
        request_body = bytearray()
        answer = bytearray()
        status = 0
        json_answer = False

        async def receiving() -> Message:
            message = await receive()
            if message["type"] == "http.request" and len(request_body) <= SCAN_LIMIT:
                request_body.extend(message.get("body", b""))
            return message

        async def sending(message: Message) -> None:
            nonlocal status, json_answer
            if message["type"] == "http.response.start":
                status = message["status"]
                json_answer = any(k == b"content-type" and v.startswith(b"application/json") for k, v in message["headers"])
            elif message["type"] == "http.response.body" and json_answer and len(answer) <= SCAN_LIMIT:
                answer.extend(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receiving, sending)
        finally:
            self._record(scope, started, status or 500, bytes(request_body), bytes(answer), from_dashboard)

    def _record(self, scope: Scope, started: float, status: int, body: bytes, answer: bytes, from_dashboard: bool) -> None:
        query = parse_qs(scope["query_string"].decode("latin-1")) if scope["query_string"] else {}
        parsed = _json_object(body) if body and len(body) <= SCAN_LIMIT else {}
        event: dict[str, Any] = {
            "timestamp": now_iso(), "source": "dashboard" if from_dashboard else "client",
            "requestId": self.log.new_id(), "method": scope["method"], "path": scope["path"], "status": status,
            "durationMs": round((time.monotonic() - started) * 1000),
        }
        session = scope.get(SESSION_SCOPE)
        agent = session["agentId"] if session else _header(scope, AGENT_HEADER)  # a session's agent wins
        if agent:
            event["agentId"] = agent[:200]
        if session:
            event["sessionId"] = session["id"]
        if (client := scope.get("client")) is not None:
            event["remoteAddr"] = f"{client[0]}:{client[1]}"
        if instance := scope.get("pinchtab.instance"):
            event["instanceId"] = instance
        event.update(describe(scope["path"], query, parsed))
        if answer and len(answer) <= SCAN_LIMIT:
            if "tabId" not in event and (tab := _TAB_IN_ANSWER.search(answer)):
                event["tabId"] = tab.group(1).decode("utf-8", "replace")
            page_answer = scope["path"].rstrip("/").rsplit("/", 1)[-1] in _PAGE_ANSWERS
            if status < 400 and page_answer and (url := _URL_IN_ANSWER.search(answer)):
                event["url"] = url.group(1).decode("utf-8", "replace")
        self.log.record(event)
