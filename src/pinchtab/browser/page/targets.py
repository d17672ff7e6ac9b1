"""Any unified selector (selectors.py) -> the element it names, as a ``Node`` that says where it
lives (its frame's scope), for actions and the frame scope."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pinchtab.browser.page.selectors import parse_selector, pick
from pinchtab.browser.page.tab_find import find_in_tab
from pinchtab.errors import NotFound

if TYPE_CHECKING:
    from pinchtab.browser.page.nodes import Node
    from pinchtab.browser.page.protocol import Page


async def resolve(tab: "Page", raw: str) -> "Node":
    """The element ``raw`` selects; 404 ``selector_not_found`` or 400 ``bad_selector`` else."""
    sel = parse_selector(raw)
    if sel.kind == "ref":
        return tab.refs.entry(sel.value, tab.generations()).node
    if sel.kind in ("locator", "find"):
        result = await find_in_tab(tab, sel.value)
        if not result.get("best_ref"):
            raise NotFound(f"no element matches selector {raw!r}", "selector_not_found")
        return tab.refs.entry(result["best_ref"], tab.generations()).node
    return tab.frames.node_in_scope(await pick(tab, sel, raw), raw)
