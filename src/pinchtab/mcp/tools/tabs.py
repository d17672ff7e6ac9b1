"""Tabs and the server: list, close, health, a tab's state."""

from __future__ import annotations

from typing import Any

from pinchtab import models
from pinchtab.client import AsyncClient
import pinchtab.mcp.tools.views as views
from pinchtab.mcp.tools.common import route_tool
from pinchtab.mcp.tools.registry import ToolOutput, define, field, own

tool = define("tabs")


async def _list_tabs(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    return [{"tabId": t["id"], "url": t["url"], "title": t["title"]} for t in await c.tabs()]


async def _connect_profile(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    """PinchTab's answer: the profile's instance status, with its URL and a sentence for the agent."""
    status = await c.call("profile_instance", None, profile_id=a["profile"])
    out = {"profile": status["name"], "running": status["running"], "status": status["status"],
           "id": status.get("id", ""), "port": status.get("port", "")}
    if status["running"] and status.get("url"):
        out["url"] = status["url"]
        out["message"] = f"Profile {status['name']!r} runs at {status['url']} (the PinchTab HTTP API of its instance)."
    elif status["status"] == "starting":
        out["message"] = f"Profile {status['name']!r} is starting; no connect URL is available yet."
    else:
        out["message"] = (f"Profile {status['name']!r} does not have a running instance "
                          "(POST /instances/start with its name starts one).")
    return out


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
    tool(
        name="pinchtab_connect_profile",
        description="The connect URL and instance status of a profile: {profile, running, status, id, port, url, message}.",
        args=(own("profile", str, "Profile name or profile ID.", required=True),),
        run=_connect_profile,
        read_only=True,
    ),
)
