"""A click that opens a tab (``target=_blank``, ``window.open``): the action answers once the new
tab is listed with its URL, and says which tab it is (``newTab``).

Chromium announces the window on the opener's session (``Page.windowOpen``) while the action runs,
and its target on the browser session (``Target.targetCreated`` with ``openerId``); its URL
follows in ``Target.targetInfoChanged``, which ``Browser.targets`` keeps.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pinchtab.browser.core.browser import Browser
    from pinchtab.browser.core.tab import Tab

POLL = 0.02


class PopupWatch:
    def __init__(self, browser: "Browser", tab: "Tab") -> None:
        self.browser, self.tab = browser, tab
        self.before = set(browser.targets)
        self.urls: list[str] = []
        self._off = tab.session.on("Page.windowOpen", lambda p: self.urls.append(p.get("url", "")))

    def stop(self) -> None:
        self._off()

    async def opened(self, timeout_ms: int) -> dict[str, Any] | None:
        """The tab the action opened, once listed with its URL; None when it opened none."""
        self.stop()
        if not self.urls:
            return None
        deadline = time.monotonic() + timeout_ms / 1000
        found: dict[str, Any] | None = None
        while True:
            for tid, info in self.browser.targets.items():
                if tid not in self.before and info.get("openerId") == self.tab.id:
                    found = {"tabId": tid, "url": info.get("url", "")}
                    if found["url"] not in ("", "about:blank"):
                        return found
            if time.monotonic() > deadline:
                return found
            await asyncio.sleep(POLL)
