"""Stale-ref recovery: re-find the element an earlier ``find`` matched, after a re-render.

Only refs that came from ``find`` have an intent to re-match; the new match must clear
``rematch``'s safety threshold, else the action fails rather than act on a guess.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.browser.page import snapshot
from pinchtab.browser.core.cpu import off_loop

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page


async def recover_ref(tab: "Page", ref: str) -> dict[str, Any] | None:
    """None when there is no intent for ``ref``; else the ``recovery`` object of the response."""
    intent = tab.intents.lookup(tab.id, ref)
    if intent is None:
        return None
    tab.refs.replace(await snapshot.capture(tab, whole=True))
    refs = tab.refs
    from pinchtab.find import rematch  # the matcher loads with the first find

    match = await off_loop(lambda: rematch(intent, refs.index), what="ref recovery")
    if match is None:
        return {"recovered": False, "original_ref": ref, "reason": f"no element safely matches {intent.query!r} any more"}
    tab.intents.record(tab.id, match.ref, intent.query, match.descriptor, match.score, match.confidence)
    return {
        "recovered": True,
        "original_ref": ref,
        "new_ref": match.ref,
        "score": match.score,
        "confidence": match.confidence,
    }
