"""The frame scope routes (GET|POST /frame): see ``browser/page/scoping.py``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.browser.page import scoping

if TYPE_CHECKING:
    from pinchtab.models.tab_control import FrameRequest
    from pinchtab.browser.core.browser import Browser
    from pinchtab.browser.core.tab import Tab
    from pinchtab.models import TabScoped


async def text_source(tab: "Tab", frame_id: str | None) -> Any:
    """What /text reads: the frame ``frame_id``, else the tab's frame scope, else the page."""
    if frame_id:
        return tab.frames.view(await tab.frames.locate(frame_id), frame_id)
    cur = tab.frames.current
    return tab.frames.view(cur.scope, cur.frame_id) if cur is not None else tab


class FrameOps:
    browser: "Browser"

    async def frame(self, req: "TabScoped") -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            return scoping.describe(tab)

    async def set_frame(self, req: "FrameRequest") -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            return await scoping.set_scope(tab, req.target)
