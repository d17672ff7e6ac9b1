"""Tabs and the server: list, close, health, a tab's state."""

from __future__ import annotations

from typing import Any

from pinchtab import models
from pinchtab.client import AsyncClient
import pinchtab.mcp.tools.views as views
from pinchtab.mcp.tools.common import route_tool
from pinchtab.mcp.tools.registry import ToolOutput, define, field

tool = define("tabs")


async def _list_tabs(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    return [{"tabId": t["id"], "url": t["url"], "title": t["title"]} for t in await c.tabs()]


async def _close_tab(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    views.forget(c)  # the tab snap would diff against may be the one closed
    return await c.close_tab(a["tabId"])


TOOLS = (
    tool(
        name="pinchtab_list_tabs",
        description="List all open browser tabs: an array of {tabId, url, title}.",
        args=(),
        run=_list_tabs,
        read_only=True,
        core=True,
    ),
    tool(
        name="pinchtab_close_tab",
        description="Close a browser tab.",
        args=(field(models.TabScoped, "tab_id", description="Tab to close. Closes the current tab if omitted."),),
        run=_close_tab,
        destructive=True,
        core=True,
    ),
    tool(
        name="pinchtab_health",
        description="Check whether the PinchTab server is reachable and healthy. Returns {\"status\":\"ok\", ...}.",
        args=(),
        run=lambda c, a: c.health(),
        read_only=True,
    ),
    route_tool("tabs", "tab_state", "pinchtab_tab_state"),
)
