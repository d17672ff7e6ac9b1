"""``find`` on a tab: match a description against the tab's snapshot and remember the intent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.browser import changes, snapshot

if TYPE_CHECKING:
    from pinchtab.browser.tab import Tab


async def current_snapshot(tab: "Tab") -> snapshot.Snapshot:
    """The last whole-page snapshot while the page is unchanged since, else a fresh one (elements
    that did not change keep their refs)."""
    snap = tab.refs.full
    if snap is None or await changes.changed_since(tab, snap):
        snap = await snapshot.capture(tab)
        tab.refs.replace(snap)
    return snap


async def find_in_tab(tab: "Tab", query: str, **options: Any) -> dict[str, Any]:
    await current_snapshot(tab)
    index = tab.refs.index
    result = index.find(query, **options)
    tab.intents.record_result(tab.id, query, result, index)
    return result
