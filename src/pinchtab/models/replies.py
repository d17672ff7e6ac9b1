"""The reply types a handler may return besides JSON and text."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Blob:
    """Binary content (a screenshot, a PDF) and what to say about it when sent as base64 JSON."""

    data: bytes
    media_type: str
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Reply:
    """A JSON answer with a status other than the route's own (a health check that is down)."""

    body: Any
    status: int


# One server-sent event: its name and its JSON data; None is a keep-alive comment.
Event = tuple[str, Any] | None


@dataclass(frozen=True)
class EventStream:
    """Server-sent events (text/event-stream), sent as they come until ``events`` ends or the caller
    leaves."""

    events: AsyncIterator[Event]
