"""After Chromium dies, the new one reopens the tabs at their last URLs and the old tab ids keep
working: each maps to its new target, so an agent keeps its place (page state such as form input
is lost; the URL is not). A tab replaced because its page would not let go (``Browser.replace_tab``)
moves the same way. Listings and navigate answers name a moved tab by the id it was first known by."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from pinchtab.browser.core.ui_guard import is_browser_ui
from pinchtab.id_aliases import Aliases

log = logging.getLogger("pinchtab.browser")


class TabRestore:
    def __init__(self, max_tabs: int) -> None:
        self.max_tabs = max_tabs
        self.aliases = Aliases()  # old target id -> its replacement
        self._origin: dict[str, str] = {}  # replacement -> the id the tab was first known by
        self._lost: list[tuple[str, str]] = []
        self._lost_current: str | None = None

    def resolve(self, tab_id: str) -> str:
        return self.aliases.resolve(tab_id)

    def moved(self, old: str, new: str) -> None:
        self.aliases.add(old, new)
        self._origin[new] = self._origin.pop(old, old)

    def public(self, tab_id: str) -> str:
        """The id a moved tab was first known by (itself for any other tab)."""
        return self._origin.get(tab_id, tab_id)

    def closed(self, tab_id: str) -> None:
        self._origin.pop(tab_id, None)

    def remember(self, targets: dict[str, dict[str, Any]], tabs: dict[str, Any], current: str | None) -> None:
        """The browser just died: note its tabs and their URLs."""
        lost = []
        for tid, info in targets.items():
            tab = tabs.get(tid)
            url = (tab.url if tab is not None and tab.url else "") or info.get("url", "") or "about:blank"
            if url == "about:blank" and tab is not None and tab.requested_url:
                url = tab.requested_url  # it never finished loading: it reopens on its way there
            if not is_browser_ui(url):
                lost.append((tid, url))
        self._lost = lost[: self.max_tabs]
        self._lost_current = current

    def forget(self) -> None:
        """A deliberate restart: a fresh browser, nothing to reopen."""
        self._lost = []
        self._lost_current = None

    @property
    def pending(self) -> bool:
        return bool(self._lost)

    async def reopen(self, open_at: Callable[[str, str | None], Awaitable[str]], blank: list[str]) -> str | None:
        """Open the remembered tabs in the new browser: ``open_at(url, reuse)`` answers the new
        target id (``reuse``: one of the ``blank`` tabs the new browser opened by itself, so no
        extra blank tab is left); answers the new id of the current tab."""
        lost, self._lost = self._lost, []
        reuse = blank[: len(lost)] + [None] * (len(lost) - len(blank))
        results = await asyncio.gather(*(open_at(url, spare) for (_, url), spare in zip(lost, reuse)),
                                       return_exceptions=True)
        for (old, url), new in zip(lost, results):
            if isinstance(new, BaseException):  # one bad URL must not keep the others closed
                log.warning("could not reopen tab %s at %s: %s", old, url, new)
                continue
            self.moved(old, new)
        if lost:
            log.warning("reopened %d tab(s) after the browser restarted", len(lost))
        current = self._lost_current
        self._lost_current = None
        return self.resolve(current) if current else None
