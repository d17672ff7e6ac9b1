"""Has the page changed since a snapshot? A cheap signal, so ``find`` matches the page as it is now.

The snapshot walker (``snapshot.js``) leaves a counter in pinchtab's isolated world that a
MutationObserver and input/change listeners on every document it walked keep bumping; the tab
counts frame navigations and detachments. A signal is (main document, world, counter, frame
events): one small call in the isolated world reads it (~0.3 ms), against a new snapshot's tens.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pinchtab.browser.page.nodes import Snapshot
    from pinchtab.browser.page.protocol import Page

# Records not yet delivered to the observer's callback count too.
COUNT_JS = r"""() => {
  const w = globalThis.__pinchtabChanges;
  if (!w) return -1;
  for (const o of w.obs) w.n += o.obs.takeRecords().length;
  return w.n;
}"""


def signal_of(tab: "Page", world: int | None, mutations: Any,
              foreign: Sequence[tuple[str, str, Any]] = ()) -> tuple[Any, ...]:
    """``foreign``: (scope, frame id, counter) of the frames walked in their own world."""
    return (tab.document, world, mutations, tab.frame_events, tuple(foreign))


async def current_signal(tab: "Page", foreign: tuple[tuple[str, str, Any], ...] = ()) -> tuple[Any, ...]:
    async def frame_count(scope: str, frame_id: str) -> Any:
        try:
            return (await tab.frames.call(scope, frame_id, COUNT_JS)).get("value")
        except Exception:
            return None  # the frame is gone: a change

    count, *counts = await asyncio.gather(tab.eval_in_world(COUNT_JS),
                                          *(frame_count(s, f) for s, f, _ in foreign))
    return signal_of(tab, tab.world_id, count, [(s, f, c) for (s, f, _), c in zip(foreign, counts)])


async def changed_since(tab: "Page", snap: "Snapshot") -> bool:
    """True when the page may differ from ``snap`` (a new document, a mutation, a frame event)."""
    if snap.signal is None or snap.document != tab.document or snap.signal[3] != tab.frame_events:
        return True
    return await current_signal(tab, snap.signal[4]) != snap.signal
