"""Navigation: open a URL (in the session's tab)."""

from __future__ import annotations

import weakref
from typing import Any

from pinchtab import models
from pinchtab.client import AsyncClient, PinchtabClientError
import pinchtab.mcp.tools.views as views
from pinchtab.mcp.tools.actions import ARG_WORDS, with_page
from pinchtab.mcp.tools.common import TAB, check_url
from pinchtab.mcp.tools.registry import ToolOutput, define, field

tool = define("navigation")

# The tab each MCP session (its client) last navigated: pinchtab_navigate without tabId reuses it
# ("uses current tab if omitted"), and opens a tab only when the session has none (or it closed).
_SESSION_TAB: "weakref.WeakKeyDictionary[AsyncClient, str]" = weakref.WeakKeyDictionary()


async def _navigate(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    url = check_url(a["url"])
    tab = a["tabId"] or _SESSION_TAB.get(c)
    try:
        res = await c.navigate(url, tab_id=tab)
    except PinchtabClientError as exc:
        if a["tabId"] or not tab or exc.status != 404:
            raise
        res = await c.navigate(url)  # the session's tab was closed: a new one
    _SESSION_TAB[c] = res["tabId"]
    answer = {k: res[k] for k in ("tabId", "url", "title")}
    if (a.get("snap") or a.get("snapDiff")) and res["tabId"] in (a["tabId"], tab):
        del answer["tabId"]  # with the page after it, the tab is said only when it is a new one
    out = await with_page(c, answer, res["tabId"], a)
    # the page's header names the URL only when it is not the one asked for (a redirect)
    return views.without_url(out, res["url"]) if isinstance(out, str) and res["url"] == url else out


TOOLS = (
    tool(
        name="pinchtab_navigate",
        description="Navigate the browser to a URL and wait until the page has loaded. Returns {tabId, url, title}. "
        "Then pinchtab_snapshot (or snap=true) gives the refs to act on.",
        args=(field(models.NavigateRequest, "url", description="Full URL including scheme (http:// or https://)."),
              field(models.NavigateRequest, "snap", description=ARG_WORDS["snap"]),
              field(models.NavigateRequest, "snap_diff", description=ARG_WORDS["snap_diff"]), TAB),
        run=_navigate,
        core=True,
    ),
)
