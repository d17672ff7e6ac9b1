"""Seeing the page as refs: the snapshot and find."""

from __future__ import annotations

from typing import Any, Literal

from pinchtab import models
from pinchtab.client import AsyncClient
import pinchtab.mcp.tools.views as views
from pinchtab.mcp.tools.common import TAB
from pinchtab.mcp.tools.registry import ToolOutput, define, field, own

tool = define("snapshot")


async def _snapshot(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    # outline by default: the whole page in about half the characters of a tree (formatting.py)
    fmt = a["format"] or ("compact" if a["compact"] else "outline")
    page = await c.snapshot(a["tabId"], interactive=bool(a["interactive"]), format=fmt, diff=bool(a["diff"]),
                            selector=a["selector"])
    # the whole page as the outline is a view snap can answer what changed since (views.py)
    if fmt == "outline" and not (a["interactive"] or a["diff"] or a["selector"]):
        views.remember(c, a["tabId"], page)
    elif a["diff"]:
        views.forget(c)
    return page


async def _frame(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    if a["target"] is None:
        return await c.frame(tab_id=a["tabId"])
    return await c.set_frame(a["target"], tab_id=a["tabId"])


TOOLS = (
    tool(
        name="pinchtab_snapshot",
        description="The page as lines of ref (e.g. e5), role and name: the refs click, fill, ... take (a ref "
        "keeps naming its element). An Iframe's content follows it. The default outline draws repeated items "
        "(rows, list items, cards) one line each, parts joined by '|'.",
        args=(
            TAB,
            field(models.SnapshotQuery, "interactive", description="Only return interactive elements (buttons, links, inputs)."),
            own("compact", bool, "Same as format=compact."),
            own("format", Literal["outline", "compact", "text"], "outline (default), compact (flat) or text (a tree)."),
            field(models.SnapshotQuery, "diff"),
            field(models.SnapshotQuery, "selector", description="Only this element's subtree (CSS, XPath or text:)."),
        ),
        run=_snapshot,
        read_only=True,
        core=True,
    ),
    tool(
        name="pinchtab_find",
        description="Find elements by a description ('login button', 'email field') or their text. Returns "
        "best_ref (for click, fill, ...), its confidence and the top matches with role and name.",
        args=(field(models.FindRequest, "query", description="Description or text content of the element, e.g. 'login button'."),
              TAB),
        run=lambda c, a: c.find(a["query"], tab_id=a["tabId"]),
        read_only=True,
        core=True,
    ),
    tool(
        name="pinchtab_frame",
        description="Get (no target) or set the tab's frame scope: selector-based actions, pinchtab_snapshot and "
        "pinchtab_get_text then work inside that iframe; target main resets it.",
        args=(TAB, field(models.FrameRequest, "target", required=False,
                         description="main, a snapshot ref or selector of an iframe, or a frame name or URL.")),
        run=_frame,
    ),
)
