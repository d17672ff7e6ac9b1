"""What a tab's page logs: console messages and errors (uncaught exceptions, failed loads), each
in a bounded buffer that drops its oldest entries first.

Fed by CDP events (``Runtime.consoleAPICalled``, ``Runtime.exceptionThrown``, ``Log.entryAdded``);
knows nothing of HTTP. Entries are small slotted records turned into JSON only when asked for.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

# Runtime.consoleAPICalled types -> the level we report.
_LEVELS = {"warning": "warn", "assert": "error", "trace": "log", "dir": "log", "dirxml": "log", "table": "log",
           "count": "log", "timeEnd": "log", "startGroup": "log", "startGroupCollapsed": "log", "endGroup": "log"}


# Log.entryAdded's sources: messages of the browser itself (failed loads, violations), not console calls.
BROWSER_SOURCES = frozenset({"xml", "javascript", "network", "storage", "appcache", "rendering", "security",
                             "deprecation", "worker", "violation", "intervention", "recommendation", "other"})


def iso_time(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(slots=True)
class ConsoleEntry:
    at: float
    level: str
    message: str
    source: str

    def to_json(self) -> dict[str, Any]:
        out = {"timestamp": iso_time(self.at), "level": self.level, "message": self.message}
        if self.source:
            out["source"] = self.source
        return out


@dataclass(slots=True)
class ErrorEntry:
    at: float
    message: str
    type: str
    url: str
    line: int
    column: int
    stack: str

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"timestamp": iso_time(self.at), "message": self.message, "type": self.type}
        for key, value in (("url", self.url), ("line", self.line), ("column", self.column), ("stack", self.stack)):
            if value:
                out[key] = value
        return out


def _remote_text(arg: dict[str, Any]) -> str:
    """How a console argument reads: strings as they are, other values by their description."""
    if "value" in arg:
        value = arg["value"]
        if isinstance(value, str):
            return value
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)
    if "unserializableValue" in arg:
        return arg["unserializableValue"]
    if arg.get("type") == "undefined":
        return "undefined"
    preview = arg.get("preview")
    if preview and arg.get("type") == "object" and arg.get("subtype") not in ("error", "node"):
        props = ", ".join(f"{p.get('name')}: {p.get('value', '')}" for p in preview.get("properties", []))
        body = f"[{props}]" if preview.get("subtype") == "array" else f"{{{props}}}"
        return body + ("…" if preview.get("overflow") else "")
    return arg.get("description") or arg.get("className") or arg.get("type", "")


def _frame_source(trace: dict[str, Any] | None) -> str:
    frames = (trace or {}).get("callFrames") or []
    if not frames:
        return ""
    f = frames[0]
    return f"{f.get('url', '')}:{f.get('lineNumber', 0) + 1}:{f.get('columnNumber', 0) + 1}" if f.get("url") else ""


class ConsoleLog:
    """Console and error buffers of one tab."""

    def __init__(self, console_size: int, error_size: int, max_chars: int) -> None:
        self.console: deque[ConsoleEntry] = deque(maxlen=console_size)
        self.errors: deque[ErrorEntry] = deque(maxlen=error_size)
        self.max_chars = max_chars

    def _cut(self, text: str) -> str:
        return text if len(text) <= self.max_chars else text[: self.max_chars] + "…"

    # -- CDP events ------------------------------------------------------------------------------

    def on_console(self, params: dict[str, Any]) -> None:
        kind = params.get("type", "log")
        text = " ".join(_remote_text(a) for a in params.get("args", ()))
        self.console.append(ConsoleEntry(time.time(), _LEVELS.get(kind, kind), self._cut(text),
                                         _frame_source(params.get("stackTrace"))))

    def on_exception(self, params: dict[str, Any]) -> None:
        d = params.get("exceptionDetails") or {}
        exc = d.get("exception") or {}
        description = exc.get("description") or ""
        thrown = description.splitlines()[0] if description else _remote_text(exc) if exc else ""
        text = d.get("text") or "Uncaught"
        message = f"{text} {thrown}".strip() if thrown and thrown not in text else text
        stack = "\n".join(description.splitlines()[1:]).strip()
        self.errors.append(ErrorEntry(time.time(), self._cut(message), exc.get("className") or "Error",
                                      d.get("url") or "", (d.get("lineNumber") or 0) + 1 if d.get("url") else 0,
                                      (d.get("columnNumber") or 0) + 1 if d.get("url") else 0, self._cut(stack)))

    def on_log_entry(self, params: dict[str, Any]) -> None:
        """Messages of the browser itself: failed loads, violations, security warnings."""
        e = params.get("entry") or {}
        level = {"warning": "warn", "verbose": "debug"}.get(e.get("level", "info"), e.get("level", "info"))
        text = self._cut(e.get("text", ""))
        url = e.get("url") or ""
        self.console.append(ConsoleEntry(time.time(), level, text, e.get("source", "")))
        if level == "error" and e.get("source") == "network":
            self.errors.append(ErrorEntry(time.time(), text + (f" ({url})" if url else ""), "network", url,
                                          e.get("lineNumber") or 0, 0, ""))

    # -- reading -----------------------------------------------------------------------------------

    @staticmethod
    def _last(items: deque[Any], limit: int | None) -> list[dict[str, Any]]:
        chosen = list(items)[-limit:] if limit else list(items)
        return [e.to_json() for e in chosen]

    def console_entries(self, limit: int | None = None) -> list[dict[str, Any]]:
        return self._last(self.console, limit)

    def error_entries(self, limit: int | None = None) -> list[dict[str, Any]]:
        return self._last(self.errors, limit)
