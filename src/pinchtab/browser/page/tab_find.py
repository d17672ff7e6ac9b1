"""``find`` on a tab: match a description against the tab's snapshot and remember the intent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.browser.page import changes, snapshot
from pinchtab.browser.page.nodes import Snapshot
from pinchtab.find.locators import match, parse_locator
from pinchtab.browser.core.cpu import off_loop

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page


async def current_snapshot(tab: "Page") -> Snapshot:
    """The last whole-page snapshot while the page is unchanged since, else a fresh one (elements
    that did not change keep their refs)."""
    snap = tab.refs.full
    if snap is None or await changes.changed_since(tab, snap):
        snap = await snapshot.capture(tab, whole=True)
        tab.refs.replace(snap)
    return snap


async def find_in_tab(tab: "Page", query: str, **options: Any) -> dict[str, Any]:
    snap = await current_snapshot(tab)
    locator = parse_locator(query)
    if locator is not None:  # role:button Save, label:Email, first:role:link ... match exactly
        threshold, top_k = options.get("threshold"), options.get("top_k")
        result = match(locator, [n.to_element() for n in snap.nodes], threshold=0.3 if threshold is None else threshold,
                       top_k=3 if top_k is None else top_k)
    else:
        refs = tab.refs

        def run() -> tuple[dict[str, Any], Any]:
            index = refs.index  # built on first use: part of the work
            return index.find(query, **options), index

        result, index = await off_loop(run, what="find")
        tab.intents.record_result(tab.id, query, result, index)
    if snap.capped:  # matched among the page's first nodes only (browser.maxSnapshotNodes)
        result["truncated"] = True
        result["nodeLimit"] = snap.capped
    return result
