"""Service methods of ``api/routes/tab_control.py``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.models import tab_control as r
from pinchtab.browser.core.tab_control import TabControl

if TYPE_CHECKING:
    from pinchtab.browser.core.browser import Browser


class TabControlOps:
    browser: "Browser"

    @property
    def control(self) -> TabControl:
        ctl = self.__dict__.get("_control")
        if ctl is None:
            ctl = self.__dict__["_control"] = TabControl()
        ctl.forget(set(self.browser.targets))
        return ctl

    async def lock_tab(self, req: r.LockRequest) -> dict[str, Any]:
        tab = await self.browser.tab(req.tab_id)
        return self.control.lock(tab.id, req.owner, req.timeout_sec or req.ttl)

    async def unlock_tab(self, req: r.UnlockRequest) -> dict[str, Any]:
        tab = await self.browser.tab(req.tab_id)
        return self.control.unlock(tab.id, req.owner)

    async def handoff(self, req: r.HandoffRequest) -> dict[str, Any]:
        tab = await self.browser.tab(req.tab_id)
        return self.control.pause(tab.id, req.reason, req.timeout_ms)

    async def handoff_status(self, req: r.HandoffStatus) -> dict[str, Any]:
        tab = await self.browser.tab(req.tab_id)
        return self.control.status(tab.id)

    async def resume(self, req: r.ResumeRequest) -> dict[str, Any]:
        tab = await self.browser.tab(req.tab_id)
        return self.control.resume(tab.id, req.status, req.resolved_data)

    async def check_lease(self, tab_id: str | None, owner: str | None) -> None:
        """Before a leased route (api Route.leased): a tab locked by another owner answers 423."""
        if self.__dict__.get("_control") is not None and self.control.locks:
            tab = await self.browser.tab(tab_id)
            self.control.check_lease(tab.id, owner)

    async def check_actionable(self, tab_id: str | None) -> None:
        """Before an action: a tab paused for a human answers 409 tab_paused_handoff."""
        if self.__dict__.get("_control") is not None:
            tab = await self.browser.tab(tab_id)
            self.control.check_actionable(tab.id)
