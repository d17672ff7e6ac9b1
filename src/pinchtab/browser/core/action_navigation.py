"""A navigation an action started: the action answers, and its ``snap`` is taken, once the new
page is there, not while the page it left is still shown (issue 24: ``snap`` after a "Place
order" submit caught the old page in one run of four).

The renderer tells of a navigation of the main frame as it asks for one, within the input's own
handling: ``Page.frameRequestedNavigation`` (a link, a form submit, ``location.href = ...``),
then ``Page.frameScheduledNavigation`` / ``Page.frameStartedLoading``. That event travels on the
renderer's DevTools channel, the reply to ``Input.dispatch*`` on the browser's, so it may arrive
after the dispatch returned (measured: 4 submits in 20 under load, 3.5-32 ms after). A reply the
renderer itself sends travels behind it, though: so once the input is dispatched, one
``Runtime.evaluate`` round trip (a millisecond or so; no timer) tells whether the input asked for
a navigation. None: the action answers as it always did. One: it is waited for until its document
commits and loads (``load``), bounded by the action's timeout; the action succeeded either way, so
a navigation still loading at the bound is no error. A same-document one (``pushState``, a hash)
is done at once; one that ends without a commit (a 204, a download) too, and one cancelled before
it began loading (a beforeunload dialog dismissed: ``Page.frameClearedScheduledNavigation`` with
no ``Page.frameStartedLoading`` before it; waited for, it held the action 30 s). A navigation the page
starts later on its own (a timer) is not the action's; one into a new tab is the popup rule's
(popups.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pinchtab.browser.core.ui_guard import is_browser_ui

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab

# The round trip's bound: a page that holds its thread (a long handler, a dialog) is not waited on.
ROUND_TRIP_CAP_S = 0.5


class ActionNavigation:
    """Watches ``tab``'s main frame from before an action's input until ``settle`` answers."""

    def __init__(self, tab: "Tab") -> None:
        self.tab = tab
        loop = asyncio.get_running_loop()
        self.started: asyncio.Future[None] = loop.create_future()
        # The new document's loader id; None: same document; "": it ended without a commit.
        self.ended: asyncio.Future[str | None] = loop.create_future()
        self.loading = False  # the main frame began loading the new document
        session = tab.session
        self._offs: list[Callable[[], None]] = [
            session.on("Page.frameRequestedNavigation", self._on_requested),
            session.on("Page.frameScheduledNavigation", self._on_main(self._start)),
            session.on("Page.frameStartedLoading", self._on_main(self._loading)),
            session.on("Page.frameClearedScheduledNavigation", self._on_main(self._cleared)),
            session.on("Page.navigatedWithinDocument", self._on_main(lambda: self._end(None))),
            session.on("Page.frameNavigated", self._on_navigated),
            session.on("Page.frameStoppedLoading", self._on_main(self._stopped)),
        ]

    def _on_main(self, then: Callable[[], None]) -> Callable[[dict[str, Any]], None]:
        def handler(params: dict[str, Any]) -> None:
            if params.get("frameId") == self.tab.main_frame_id:
                then()
        return handler

    def _on_requested(self, params: dict[str, Any]) -> None:
        # A link or form that opens a new tab or window is the popup rule's.
        if params.get("frameId") == self.tab.main_frame_id and params.get("disposition", "currentTab") == "currentTab":
            self._start()

    def _on_navigated(self, params: dict[str, Any]) -> None:
        frame = params.get("frame", {})
        if not frame.get("parentId"):
            # A browser page (Control+H's history) is the UI guard's to take back: no new page to wait for.
            self._end("" if is_browser_ui(frame.get("url")) else frame.get("loaderId") or "")

    def _start(self) -> None:
        if not self.started.done():
            self.started.set_result(None)

    def _loading(self) -> None:
        self.loading = True
        self._start()

    def _cleared(self) -> None:
        # Also sent once a navigation that goes ahead has begun loading: only one that never did ended.
        if self.started.done() and not self.loading:
            self._end("")

    def _stopped(self) -> None:
        if self.started.done():
            self._end("")

    def _end(self, loader: str | None) -> None:
        self._start()
        if not self.ended.done():
            self.ended.set_result(loader)

    def stop(self) -> None:
        for off in self._offs:
            off()
        self._offs.clear()
        for fut in (self.started, self.ended):
            if not fut.done():
                fut.cancel()

    async def _round_trip(self) -> None:
        """Until the renderer answered a command sent after the input (or a navigation began)."""
        answer = asyncio.ensure_future(self.tab.send("Runtime.evaluate", {"expression": "0"}))
        await asyncio.wait({answer, self.started}, timeout=ROUND_TRIP_CAP_S, return_when=asyncio.FIRST_COMPLETED)
        if answer.done():
            answer.exception()  # a page gone or navigating answers an error: retrieved, not raised
        else:
            answer.cancel()

    async def settle(self, timeout_s: float) -> bool:
        """Wait for a navigation the input started; True when the tab is on a new page or URL."""
        deadline = time.monotonic() + timeout_s
        try:
            if not self.started.done():
                await self._round_trip()
            if not self.started.done():
                return False
            loader = await asyncio.wait_for(asyncio.shield(self.ended), max(deadline - time.monotonic(), 0.001))
        except asyncio.TimeoutError:
            return False
        finally:
            self.stop()
        if loader:
            await self.tab.loaded(loader, deadline)
        return loader != ""
