"""``find`` on a tab: match a description against the tab's snapshot and remember the intent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.browser import snapshot

if TYPE_CHECKING:
    from pinchtab.browser.tab import Tab


async def current_snapshot(tab: "Tab") -> snapshot.Snapshot:
    """The last whole-page snapshot, or a fresh one when there is none or the page has navigated."""
    snap = tab.refs.full
    if snap is None or snap.document != tab.document:
        snap = await snapshot.capture(tab)
        tab.refs.replace(snap)
    return snap


async def find_in_tab(tab: "Tab", query: str, **options: Any) -> dict[str, Any]:
    await current_snapshot(tab)
    index = tab.refs.index
    result = index.find(query, **options)
    tab.intents.record_result(tab.id, query, result, index)
    return result
