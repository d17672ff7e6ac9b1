"""What many tools share: the tab argument, URL and wait checks, route-derived tools and the error text."""

from __future__ import annotations

import base64
from typing import Any

from pinchtab import models
from pinchtab.api import ROUTES_BY_NAME
from pinchtab.client import AsyncClient, PinchtabClientError
from pinchtab.mcp.tools.registry import Arg, Runner, ToolDef, ToolOutput, field

INVALID_URL = "invalid URL: must start with http:// or https://"
MAX_WAIT_MS = models.MAX_WAIT_MS
DEFAULT_WAIT_FOR_SELECTOR_MS = 10000

# Agents know tabs from these tools, not from GET /tabs: the one argument whose text is the MCP's own.
TAB = field(models.TabScoped, "tab_id",
            description="Tab ID from navigate or list_tabs; else the current tab.")


class ToolInputError(Exception):
    """Arguments the schema accepts but the tool refuses before any HTTP call (e.g. a file: URL)."""


def check_url(url: str) -> str:
    url = url.strip()
    if not url.lower().startswith(("http://", "https://")):
        raise ToolInputError(INVALID_URL)
    return url


def as_int(value: float | None) -> int | None:
    return None if value is None else int(round(value))


def wait_timeout(value: float | None) -> int:
    """A wait tool's timeout in ms: the default when absent, capped at the server's maximum."""
    return min(as_int(value) if value is not None else DEFAULT_WAIT_FOR_SELECTOR_MS, MAX_WAIT_MS)


def _plain(value: Any) -> Any:
    """A validated argument as JSON values (nested request models as their wire form)."""
    if isinstance(value, models.ApiModel):
        return value.model_dump(by_alias=True, exclude_unset=True, mode="json")
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def route_args(route_name: str) -> tuple[Arg, ...]:
    """Every field of the route's request model, ``tabId`` first as the model has it; not
    ``browser`` (every tab route takes it, and Chromium is the one engine here)."""
    model = ROUTES_BY_NAME[route_name].request
    if model is None:
        return ()
    return tuple(TAB if attr == "tab_id" else field(model, attr) for attr in model.model_fields if attr != "browser")


def call_route(route_name: str) -> Runner:
    """A run that sends the given arguments as the route's fields (bytes come back as base64)."""
    route = ROUTES_BY_NAME[route_name]

    async def run(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
        fields = {k: _plain(v) for k, v in a.items() if v is not None}
        tab = fields.pop("tabId", None) if route.tabbed else None
        out = await c.call(route.name, tab, **fields)
        return base64.b64encode(out).decode() if isinstance(out, bytes) else out

    return run


def route_tool(family: str, route_name: str, tool_name: str, description: str = "", *,
               destructive: bool = False) -> ToolDef:
    """A tool that is its route: the route's fields as arguments, its summary as description."""
    route = ROUTES_BY_NAME[route_name]
    return ToolDef(tool_name, family, description or route.summary + ".", route_args(route_name),
                   call_route(route_name), read_only=route.method == "GET", destructive=destructive)


def error_text(exc: PinchtabClientError) -> str:
    """The text of the tool error for a failed HTTP call: ``HTTP <status>: <message>`` with the
    server's real status (the code goes with it in the result's structured content, ``error_fields``).

    The spec's error table is binding on how the text goes on, so MCP clients and agents written
    against PinchTab recognise it: an unknown or stale ref reads ``ref not found (...)`` and an
    evaluate refused by config ``evaluate not allowed (...)``, the server's own message in
    parentheses. (The spec's ``HTTP 500`` for a ref is PinchTab's status; ours is 404, and an
    agent that branches on the status sees the one the HTTP API answered.)
    """
    if exc.code == "server_unreachable":
        return f"Connection refused: {exc.message}" if not exc.message.startswith("Connection refused") else exc.message
    if not exc.status:  # timeout or transport failure: no HTTP status to show
        return exc.message
    if exc.code in ("ref_not_found", "stale_ref"):
        return f"HTTP {exc.status}: ref not found ({exc.message})"
    if exc.code == "evaluate_disabled":
        return f"HTTP {exc.status}: evaluate not allowed ({exc.message})"
    return f"HTTP {exc.status}: {exc.message}"


def error_fields(exc: PinchtabClientError) -> dict[str, Any]:
    """The error as data, for the tool result's structured content: status (0: no HTTP answer),
    code and message, as the HTTP API's error body has them."""
    return {"status": exc.status, "code": exc.code, "error": exc.message}
