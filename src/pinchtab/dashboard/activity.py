"""The activity log: every request the server answered (bounded), the agents seen and the live feed
of their events, with subscribers (the dashboard's event streams). No HTTP here: the recorder
(``dashboard.recorder``) feeds it, the routes (``dashboard.service``) read it.

Event shapes are PinchTab's: a log entry is its ``activity.Event`` (``timestamp``, ``source``,
``agentId``, ``method``, ``path``, ``status``, ``durationMs``, ``tabId``, ``url``, ``action``,
``ref``, ...); a feed entry its ``ActivityEvent`` (``id``, ``agentId``, ``channel`` tool_call or
progress, ``type``, ``method``, ``path``, ``message``, ``timestamp``, ``details``).
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
from collections import OrderedDict, deque
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

ANONYMOUS = "anonymous"
SUBSCRIBER_BUFFER = 256  # events a slow subscriber may lag behind before it misses some
MAX_AGENTS = 1000  # agent summaries kept; the least recently active go first
# Feed types PinchTab's dashboard knows; the rest are "action" (an /action kind) or "other".
_KNOWN_TYPES = ("navigate", "snapshot", "screenshot", "text")


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_time(value: str) -> datetime:
    """An RFC 3339 time (``Z`` or an offset); naive times are UTC."""
    when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def agent_or_anonymous(agent_id: str | None) -> str:
    return (agent_id or "").strip() or ANONYMOUS


def feed_type(event: dict[str, Any]) -> str:
    action = event.get("action")
    if action:
        return action if action in _KNOWN_TYPES else "action"
    path = event.get("path", "")
    for kind in (*_KNOWN_TYPES, "action"):
        if f"/{kind}" in path:
            return kind
    return "other"


def matches_mode(mode: str, channel: str) -> bool:
    if mode == "both":
        return channel in ("tool_call", "progress")
    return channel == ("progress" if mode == "progress" else "tool_call")


_FILTER_KEYS = ("source", "requestId", "sessionId", "agentId", "instanceId", "tabId", "action")


class ActivityLog:
    """The last ``max_events`` requests, the agents' feed (tool calls and progress reports, also
    bounded) and the subscribers that want each feed event as it happens."""

    def __init__(self, max_events: int) -> None:
        self.events: deque[dict[str, Any]] = deque(maxlen=max_events)
        self.feed: deque[dict[str, Any]] = deque(maxlen=max_events)
        self.agents: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.subscribers: set[asyncio.Queue[tuple[str, Any]]] = set()
        self.listeners: list[Callable[[dict[str, Any]], None]] = []  # told of every logged request
        self._ids = itertools.count(1)
        self._prefix = secrets.token_hex(4)

    def new_id(self) -> str:
        return f"req_{self._prefix}{next(self._ids):06d}"

    # -- writing ---------------------------------------------------------------------------------

    def record(self, event: dict[str, Any]) -> None:
        """Log one answered request; a client's (an agent's) also goes to the feed."""
        self.events.append(event)
        for listener in self.listeners:
            listener(event)
        if event.get("source") != "client":
            return
        details = {k: event[k] for k in ("status", "durationMs", "source", "requestId", "sessionId", "instanceId",
                                         "tabId", "url", "ref", "selector", "action", "target") if event.get(k) is not None}
        self._add_to_feed({
            "id": event.get("requestId") or self.new_id(), "agentId": agent_or_anonymous(event.get("agentId")),
            "channel": "tool_call", "type": feed_type(event), "method": event["method"], "path": event["path"],
            "timestamp": event["timestamp"], "details": details,
        })

    def report(self, agent_id: str, message: str, progress: int | None = None, total: int | None = None,
               details: dict[str, Any] | None = None) -> dict[str, Any]:
        """An agent's own progress message (POST /api/agents/{id}/events)."""
        event: dict[str, Any] = {
            "id": self.new_id(), "agentId": agent_or_anonymous(agent_id), "channel": "progress", "type": "progress",
            "method": "", "path": "", "message": message, "timestamp": now_iso(),
        }
        if progress is not None:
            event["progress"] = progress
        if total is not None:
            event["total"] = total
        if details:
            event["details"] = details
        self._add_to_feed(event)
        return event

    def _add_to_feed(self, event: dict[str, Any]) -> None:
        self.feed.append(event)
        agent_id = event["agentId"]
        agent = self.agents.pop(agent_id, None)
        if agent is None:
            agent = {"id": agent_id, "name": agent_id, "connectedAt": event["timestamp"], "requestCount": 0}
            if len(self.agents) >= MAX_AGENTS:
                self.agents.popitem(last=False)
        agent["lastActivity"] = event["timestamp"]
        agent["requestCount"] += 1
        self.agents[agent_id] = agent  # most recently active last
        self.publish("progress" if event["channel"] == "progress" else "action", event)

    # -- subscribers -----------------------------------------------------------------------------

    def subscribe(self) -> asyncio.Queue[tuple[str, Any]]:
        queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue(SUBSCRIBER_BUFFER)
        self.subscribers.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[tuple[str, Any]]) -> None:
        self.subscribers.discard(queue)

    def publish(self, name: str, payload: Any) -> None:
        """Hand ``(name, payload)`` to every subscriber; one that lags a full buffer behind misses it
        rather than holding up the request that caused it."""
        for queue in self.subscribers:
            if not queue.full():
                queue.put_nowait((name, payload))

    # -- reading ---------------------------------------------------------------------------------

    def agent_list(self) -> list[dict[str, Any]]:
        return [dict(a) for a in reversed(self.agents.values())]

    def agent(self, agent_id: str) -> dict[str, Any] | None:
        found = self.agents.get(agent_or_anonymous(agent_id))
        return dict(found) if found else None

    def feed_for(self, agent_id: str | None, mode: str) -> list[dict[str, Any]]:
        wanted = agent_or_anonymous(agent_id) if agent_id else None
        return [e for e in self.feed if matches_mode(mode, e["channel"]) and (wanted is None or e["agentId"] == wanted)]

    def query(self, filters: dict[str, str], limit: int, since: datetime | None = None, until: datetime | None = None,
              path_prefix: str | None = None) -> list[dict[str, Any]]:
        """The last ``limit`` logged requests matching every filter, oldest first (PinchTab's order)."""
        wanted = {k: v for k, v in filters.items() if k in _FILTER_KEYS and v}
        out: deque[dict[str, Any]] = deque(maxlen=limit)
        for event in self.events:
            if any(event.get(k) != v for k, v in wanted.items()):
                continue
            if path_prefix and not event["path"].startswith(path_prefix):
                continue
            if since is not None or until is not None:
                when = parse_time(event["timestamp"])
                if (since is not None and when < since) or (until is not None and when >= until):
                    continue
            out.append(event)
        return list(out)
