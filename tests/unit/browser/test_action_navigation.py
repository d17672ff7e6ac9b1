"""An action waits for a navigation it started (issue 24: its snap caught the page it left), and
only for one of this tab's main frame that begins at once."""

from __future__ import annotations

import asyncio
from typing import Any

from pinchtab.browser.core.action_navigation import ActionNavigation
from tests.unit.browser.test_frame_source import FakeSession


class FakeTab:
    """The renderer's channel: ``in_flight`` events arrive before the answer to a command sent
    after them (the round trip), ``later`` ones after it."""

    main_frame_id = "F"

    def __init__(self) -> None:
        self.session = FakeSession()
        self.loaded_loaders: list[str] = []
        self.in_flight: list[tuple[str, dict[str, Any]]] = []

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        await asyncio.sleep(0)
        for event in self.in_flight:
            self.session.emit(*event)
        return {}

    async def loaded(self, loader: str, deadline: float) -> bool:
        self.loaded_loaders.append(loader)
        return True


async def _settle_after(tab: FakeTab, *in_flight: tuple[str, dict[str, Any]],
                        later: tuple[tuple[str, dict[str, Any]], ...] = ()) -> bool:
    """Settle a watch whose input's events are ``in_flight`` when its dispatch returned."""
    tab.in_flight = list(in_flight)
    watch = ActionNavigation(tab)  # type: ignore[arg-type]
    settling = asyncio.ensure_future(watch.settle(5))
    for method, params in later:
        await asyncio.sleep(0)
        tab.session.emit(method, params)
    navigated = await settling
    assert not any(tab.session.handlers.values())  # it stops listening once it answered
    return navigated


async def test_a_submit_is_waited_for_until_its_document_loads() -> None:
    tab = FakeTab()
    # The request arrives after the dispatch returned; the commit after the server answered.
    assert await _settle_after(tab, ("Page.frameRequestedNavigation", {"frameId": "F", "disposition": "currentTab"}),
                               later=(("Page.frameStartedLoading", {"frameId": "F"}),
                                      ("Page.frameNavigated", {"frame": {"id": "F", "loaderId": "L2"}})))
    assert tab.loaded_loaders == ["L2"]


async def test_a_same_document_navigation_is_done_at_once() -> None:
    tab = FakeTab()
    assert await _settle_after(tab, ("Page.navigatedWithinDocument", {"frameId": "F", "url": "http://x/#a"}))
    assert tab.loaded_loaders == []


async def test_what_is_not_this_pages_navigation_is_not_waited_for() -> None:
    tab = FakeTab()
    # A new tab's (the popup rule's), a frame's, and a request that ends without a commit (a 204).
    assert not await _settle_after(tab, ("Page.frameRequestedNavigation", {"frameId": "F", "disposition": "newTab"}),
                                   ("Page.frameNavigated", {"frame": {"id": "C", "parentId": "F", "loaderId": "L3"}}))
    assert not await _settle_after(tab, ("Page.frameStartedLoading", {"frameId": "F"}),
                                   ("Page.frameStoppedLoading", {"frameId": "F"}))
    assert not await _settle_after(tab)
    assert tab.loaded_loaders == []


async def test_a_navigation_cancelled_before_loading_is_not_waited_for() -> None:
    # A beforeunload dialog dismissed: the scheduled navigation is cleared and never loads (the
    # action answers then, not when some later navigation of the page commits).
    tab = FakeTab()
    assert not await _settle_after(tab, ("Page.frameScheduledNavigation", {"frameId": "F"}),
                                   ("Page.frameRequestedNavigation", {"frameId": "F", "disposition": "currentTab"}),
                                   ("Page.frameClearedScheduledNavigation", {"frameId": "F"}),
                                   ("Page.frameNavigated", {"frame": {"id": "F", "loaderId": "L6"}}))
    assert tab.loaded_loaders == []
    # One that goes ahead is cleared too, once it began loading: that one is waited for.
    assert await _settle_after(tab, ("Page.frameRequestedNavigation", {"frameId": "F", "disposition": "currentTab"}),
                               later=(("Page.frameStartedLoading", {"frameId": "F"}),
                                      ("Page.frameClearedScheduledNavigation", {"frameId": "F"}),
                                      ("Page.frameNavigated", {"frame": {"id": "F", "loaderId": "L5"}})))
    assert tab.loaded_loaders == ["L5"]


async def test_a_browser_page_a_key_opened_is_not_waited_for() -> None:
    # Control+H shows chrome://history in the tab: the UI guard takes the tab back; waiting for
    # that page to load answered the press with tab_closed.
    tab = FakeTab()
    assert not await _settle_after(tab, ("Page.frameStartedLoading", {"frameId": "F"}),
                                   later=(("Page.frameNavigated",
                                           {"frame": {"id": "F", "loaderId": "L4", "url": "chrome://history/"}}),))
    assert tab.loaded_loaders == []
