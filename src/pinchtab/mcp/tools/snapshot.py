"""Seeing the page as refs: the snapshot and find."""

from __future__ import annotations

from typing import Any

from pinchtab import models
from pinchtab.client import AsyncClient
from pinchtab.mcp.tools.common import TAB
from pinchtab.mcp.tools.registry import ToolOutput, define, field, own

tool = define("snapshot")


async def _snapshot(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    return await c.snapshot(
        a["tabId"], interactive=bool(a["interactive"]), format="compact" if a["compact"] else "text",
        diff=bool(a["diff"]), selector=a["selector"],
    )


async def _frame(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    if a["target"] is None:
        return await c.frame(tab_id=a["tabId"])
    return await c.set_frame(a["target"], tab_id=a["tabId"])


TOOLS = (
    tool(
        name="pinchtab_snapshot",
        description="Get an accessibility tree snapshot of the current page: one line per element with its ref "
        "(e.g. e5), role and name. This is the primary way to understand page structure and discover "
        "the refs that interaction tools (click, type, fill, ...) take; a ref names the same element in every "
        "later snapshot and find result. Iframes of every origin appear as Iframe nodes (with the frame's URL) "
        "followed by their content, whose refs work like any other. Use interactive and compact to save tokens.",
        args=(
            TAB,
            field(models.SnapshotQuery, "interactive", description="Only return interactive elements (buttons, links, inputs)."),
            own("compact", bool, "Compact format: one line per element, fewest tokens."),
            field(models.SnapshotQuery, "diff"),
            field(models.SnapshotQuery, "selector"),
        ),
        run=_snapshot,
        read_only=True,
        core=True,
    ),
    tool(
        name="pinchtab_find",
        description="Find elements by a natural-language description (e.g. 'login button', 'email field') or their "
        "text, using semantic matching over the page's accessibility tree. Returns best_ref (pass it to "
        "click, type, fill, ...), its confidence and score, and the top matches with role and name.",
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
