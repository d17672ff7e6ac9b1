"""The browser's own pages stay shut: chrome://, devtools://, view-source:, chrome-extension://.

A keyboard shortcut (Control+H history, Control+U view-source, Control+T new tab, ...) or a page
can open one. They show the persistent profile's history, settings and downloads, so they are
never listed, snapshotted or acted on: a new target showing one is closed as it appears, and a tab
of ours that turns into one is taken back to where it was. The caller of the action that caused
it hears about it (``since``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

log = logging.getLogger("pinchtab.browser")

UI_SCHEMES = ("chrome:", "chrome-untrusted:", "chrome-extension:", "chrome-search:", "devtools:", "view-source:")
# about: pages other than these are aliases of chrome:// pages (about:history, about:settings).
ABOUT_ALLOWED = ("about:blank", "about:srcdoc")
# How long an action that may have opened a browser page waits for Chromium to say so: a shortcut
# that opens one (history, downloads) up to OPENS_UI_S, any other modified key
# SETTLE_S; either wait ends as soon as a page is shut. Under load Chromium reports the history
# page later than 0.2 s, and an answer without the warning hides what the key did.
SETTLE_S = 0.2
OPENS_UI_S = 1.5
OPENS_UI_KEYS = {"h", "j"}  # history, downloads: a page cannot keep them, so waiting longer costs nothing
KEEP = 32


def is_browser_ui(url: str | None) -> bool:
    if not url:
        return False
    low = url.strip().lower()
    if low.startswith("about:"):
        return low.split("#", 1)[0].split("?", 1)[0] not in ABOUT_ALLOWED
    return low.startswith(UI_SCHEMES)


class UiGuard:
    """Watches page targets; ``send(method, params)`` is the browser-level CDP call, ``session_of``
    an async context giving a send on one target."""

    def __init__(self, send: Callable[..., Any], session_of: Callable[[str], Any]) -> None:
        self._send = send
        self._session_of = session_of
        self.blocked: deque[tuple[int, float, str]] = deque(maxlen=KEEP)
        self.count = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._shut_event = asyncio.Event()

    def mark(self) -> int:
        return self.count

    def since(self, mark: int) -> list[str]:
        return [url for n, _, url in self.blocked if n > mark]

    def check(self, info: dict[str, Any], *, known: bool) -> bool:
        """True when the target shows a browser page (and is being closed or taken back)."""
        url = info.get("url", "")
        if info.get("type") != "page" or not is_browser_ui(url):
            return False
        self.count += 1
        self.blocked.append((self.count, time.time(), url))
        self._shut_event.set()
        log.warning("closing browser page %s (target %s): browser pages are not exposed", url, info.get("targetId"))
        task = asyncio.ensure_future(self._shut(info["targetId"], known))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return True

    async def _shut(self, target_id: str, known: bool) -> None:
        if known:  # a tab the agent knows: keep it, at its last page
            try:
                async with self._session_of(target_id) as send:
                    await self._take_back(send)
                return
            except Exception as exc:
                log.warning("could not take tab %s back from a browser page (%s); closing it", target_id, exc)
        with contextlib.suppress(Exception):
            await self._send("Target.closeTarget", {"targetId": target_id})

    async def _take_back(self, send: Callable[..., Any]) -> None:
        """Our tab was turned into a browser page: back to the last entry that is not one."""
        hist = await send("Page.getNavigationHistory")
        entries = hist.get("entries", [])
        for entry in reversed(entries[: hist.get("currentIndex", 0)]):
            if not is_browser_ui(entry.get("url")):
                await send("Page.navigateToHistoryEntry", {"entryId": entry["id"]})
                return
        await send("Page.navigate", {"url": "about:blank"})

    async def wait_for_shut(self, mark: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self.since(mark) and (left := deadline - time.monotonic()) > 0:
            self._shut_event.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._shut_event.wait(), left)

    def opens_ui(self, key: str | None) -> bool:
        """A modified key whose shortcut opens a browser page (Control+H history, Control+J downloads)."""
        return bool(key) and key.split("+")[-1].strip().lower() in OPENS_UI_KEYS  # type: ignore[union-attr]

    def may_open_ui(self, kind: str, key: str | None) -> bool:
        """Could this action have opened a browser page (a shortcut with Control, Alt or Meta)?"""
        if kind != "press" or not key or "+" not in key.strip("+"):
            return False
        mods = {m.strip().lower() for m in key.split("+")[:-1]}
        return bool(mods & {"control", "ctrl", "alt", "meta", "cmd", "command", "option"})


async def report_blocked_pages(guard: UiGuard, mark: int, specs: list[Any], out: dict[str, Any]) -> dict[str, Any]:
    """Add to an action's answer the browser pages its keys tried to open (and that were shut)."""
    keys = [s.key or s.text for s in specs if guard.may_open_ui(s.kind, s.key or s.text)]
    if keys and not guard.since(mark):  # Chromium opens the page a few ms after the key, or later
        await guard.wait_for_shut(mark, OPENS_UI_S if any(guard.opens_ui(k) for k in keys) else SETTLE_S)
    blocked = guard.since(mark)
    if blocked:
        out["blockedBrowserPages"] = blocked
        out["warning"] = (f"the keys tried to open {', '.join(blocked)}; browser pages are not exposed, "
                          "so pinchtab closed it (or took the tab back)")
    return out
