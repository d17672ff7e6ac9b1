"""Service methods of ``api/routes/inspect.py``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.models import inspect as r
from pinchtab.browser.content import capture as captures
from pinchtab.browser.page import element_query
from pinchtab.browser.content import page_metrics
from pinchtab.browser.core.state_files import state_folder
from pinchtab.models import TabScoped

if TYPE_CHECKING:
    from pinchtab.browser.core.browser import Browser
    from pinchtab.config import Config


class InspectOps:
    browser: "Browser"
    config: "Config"

    async def capture(self, req: r.CaptureQuery) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            return await captures.capture(
                tab, captures_dir=state_folder(self.config, "captures"), selector=req.selector,
                interactive=req.filter == "interactive", depth=None if req.depth in (None, -1) else req.depth,
                fmt=req.format, quality=req.quality, output=req.output, require_pair=req.require_pair,
                scale=req.scale, wait=req.wait, with_bounds=req.with_bounds, beyond_viewport=req.beyond_viewport)

    async def timing(self, req: TabScoped) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            return {"tabId": tab.id, **await page_metrics.timing(tab)}

    async def tab_metrics(self, req: r.TabRef) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            return {"tabId": tab.id, **await page_metrics.performance_metrics(tab)}

    async def tab_state(self, req: r.TabRef) -> dict[str, Any]:
        # No tab lock: a probe must answer while an action holds the tab.
        tab = await self.browser.tab(req.tab_id)
        return await page_metrics.tab_state(tab)

    async def _ask(self, req: r.ElementQuery, op: str, arg: str | None = None) -> Any:
        async with self.browser.use_tab(req.tab_id) as tab:
            return await element_query.ask(tab, req.ref, op, arg)

    async def count(self, req: r.CountQuery) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            return {"selector": req.selector, "count": await element_query.ask(tab, req.selector, "count")}

    async def value(self, req: r.ElementQuery) -> dict[str, Any]:
        return {"ref": req.ref, "value": await self._ask(req, "value")}

    async def attr(self, req: r.AttrQuery) -> dict[str, Any]:
        return {"ref": req.ref, "name": req.name, "value": await self._ask(req, "attr", req.name)}

    async def box(self, req: r.ElementQuery) -> dict[str, Any]:
        return {"ref": req.ref, "box": await self._ask(req, "box")}

    async def visible(self, req: r.ElementQuery) -> dict[str, Any]:
        return {"ref": req.ref, "visible": await self._ask(req, "visible")}

    async def enabled(self, req: r.ElementQuery) -> dict[str, Any]:
        return {"ref": req.ref, "enabled": await self._ask(req, "enabled")}

    async def checked(self, req: r.ElementQuery) -> dict[str, Any]:
        return {"ref": req.ref, "checked": await self._ask(req, "checked")}
