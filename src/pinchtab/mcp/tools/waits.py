"""Waiting: a fixed time, or a condition of POST /wait."""

from __future__ import annotations

import asyncio
from typing import Any

from pinchtab import models
from pinchtab.client import AsyncClient
from pinchtab.mcp.tools.common import DEFAULT_WAIT_FOR_SELECTOR_MS, MAX_WAIT_MS, TAB, as_int, wait_timeout
from pinchtab.mcp.tools.registry import ToolDef, ToolOutput, define, field

tool = define("waits")
# Tools that make no HTTP call.
LOCAL_TOOLS = frozenset({"pinchtab_wait"})

TIMEOUT = field(models.WaitRequest, "timeout", type=float, required=False,
                description=f"Timeout in milliseconds. Default {DEFAULT_WAIT_FOR_SELECTOR_MS}, "
                f"maximum {MAX_WAIT_MS} (longer timeouts are capped).")


async def _wait(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    ms = min(a["ms"], MAX_WAIT_MS)
    await asyncio.sleep(ms / 1000)
    return {"waitedMs": as_int(ms)}


async def _wait_for_selector(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    res = await c.wait(selector=a["selector"], timeout=wait_timeout(a["timeout"]), tab_id=a["tabId"])
    return {"present": bool(res["present"])}


def _wait_for(name: str, attr: str, description: str) -> ToolDef:
    """A wait on one condition of POST /wait; answers the wait's JSON (waited, elapsed, match or error)."""
    arg = field(models.WaitRequest, attr, required=True)

    async def run(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
        return await c.wait(**{attr: a[arg.name]}, timeout=wait_timeout(a["timeout"]), tab_id=a["tabId"])

    return tool(name=name, description=description, args=(arg, TIMEOUT, TAB), run=run, read_only=True)


TOOLS = (
    tool(
        name="pinchtab_wait",
        description="Wait for a fixed duration. Use sparingly: prefer pinchtab_wait_for_selector when possible.",
        args=(field(models.WaitRequest, "ms", type=float, required=True,
                    description=f"Milliseconds to wait. Maximum {MAX_WAIT_MS} (longer waits are capped)."),),
        run=_wait,
        read_only=True,
    ),
    tool(
        name="pinchtab_wait_for_selector",
        description="Wait for a CSS selector to appear on the page (polls every 250 ms). "
        "Returns {\"present\": true} when found, {\"present\": false} on timeout.",
        args=(field(models.WaitRequest, "selector", required=True), TIMEOUT, TAB),
        run=_wait_for_selector,
        read_only=True,
        core=True,
    ),
    _wait_for("pinchtab_wait_for_text", "text", "Wait until the page's text contains this text. "
              "Returns {waited, elapsed, match} or {waited: false, error} on timeout."),
    _wait_for("pinchtab_wait_for_url", "url", "Wait until the tab's URL matches a glob (** any, * any but /, ? one)."),
    _wait_for("pinchtab_wait_for_load", "load", "Wait for a load state: ready-state (readyState complete), "
              "content-loaded (interactive or complete) or network-idle (no request for 500 ms)."),
    _wait_for("pinchtab_wait_for_function", "fn", "Wait until a JavaScript expression is truthy "
              "(needs security.allowEvaluate)."),
)
