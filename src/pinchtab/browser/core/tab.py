"""One browser tab: its CDP session, navigation, the isolated world pinchtab's scripts run in,
and the lock that serialises work on it (different tabs run in parallel)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from pinchtab.browser.core.dialogs import DialogTracker
from pinchtab.browser.page.frames import FrameHub
from pinchtab.browser.observe.observer import TabObserver
from pinchtab.browser.page.refs import DEFAULT_MAX_NODES, DEFAULT_MAX_REFS, RefCache
from pinchtab.browser.core.script_errors import raise_script_error as _raise_script_error
from pinchtab.cdp import CDPError, Session
from pinchtab.config import ObserveConfig
from pinchtab.errors import BrowserError, Timeout
from pinchtab.find import IntentCache

log = logging.getLogger("pinchtab.tab")

WORLD_NAME = "pinchtab"

# What each waitFor value waits for, as Chromium lifecycle event names.
LIFECYCLE = {"load": "load", "dom": "DOMContentLoaded", "networkidle": "networkIdle"}

# How long a navigation away from a page that keeps opening dialogs may take to commit before the
# page counts as stuck (its renderer runs the dialog loop and never takes the new document).
LEAVE_COMMIT_S = 2.0
# Dialogs opened one after another while the tab reads its page that make it stop waiting.
LOOP_DIALOGS = 3

# How long an action with waitNav waits for a navigation to begin before deciding there is none.
NAV_START_GRACE = 1.5

_BLOCK_IMAGES = ("Image",)
_BLOCK_MEDIA = ("Media", "Font")


class PageStuck(BrowserError):
    """The page did not let go: a navigation away did not commit while it kept opening dialogs."""

    default_code = "page_stuck"


class Tab:
    def __init__(self, target_id: str, session: Session, intents: IntentCache,
                 observe: ObserveConfig | None = None, *, max_refs: int = DEFAULT_MAX_REFS,
                 max_nodes: int = DEFAULT_MAX_NODES) -> None:
        self.id = target_id
        self.session = session
        self.lock = asyncio.Lock()
        self.refs = RefCache(max_refs, max_nodes)
        self.url = ""
        self.title = ""
        # Where the last navigation asked for was going (a page that never loads stays at about:blank;
        # a restore after a crash reopens it here).
        self.requested_url = ""
        self.main_frame_id = target_id  # a page's main frame id is its target id
        self.crashed = False
        self.closed = False
        self.dialogs = DialogTracker(self)
        self.actionability_wait_s = 1.0  # browser.actionabilityWaitMs (input/point.py)
        self._world_id: int | None = None
        # The isolated world asked for as the main frame's document commits, so a read after the
        # load (a navigation's location, a snapshot) does not wait for a round trip queued behind
        # the page's load work: (document generation, its createIsolatedWorld).
        self._early_world: tuple[int, asyncio.Future[int]] | None = None
        self._lifecycle: dict[str, set[str]] = {}
        self._waiters: list[tuple[str | None, str, asyncio.Future[str]]] = []
        # Console, errors, network log, and the Fetch domain (blocking and routes).
        self.observer = TabObserver(session, observe)
        self._offs: list[Callable[[], None]] = []
        # Counts main-frame documents, so a cached snapshot knows it belongs to an older page.
        self.document = 0
        # Counts child frames navigating or going away (part of changes.py's change signal).
        self.frame_events = 0
        # find's intent cache (shared by the browser's tabs, keyed by tab id).
        self.intents = intents
        self.frames = FrameHub(self)

    def generations(self) -> dict[str, int]:
        """Document generation of each frame session ("" = the tab's own): see ``RefCache``."""
        return {"": self.document, **self.frames.generations()}

    # -- set-up -----------------------------------------------------------------------------

    async def init(self) -> None:
        s = self.session
        self._offs += [
            s.on("Page.lifecycleEvent", self._on_lifecycle),
            s.on("Page.frameNavigated", self._on_frame_navigated),
            s.on("Page.frameDetached", self._on_frame_detached),
            s.on("Page.javascriptDialogOpening", self.dialogs.on_opening),
            s.on("Page.javascriptDialogClosed", self.dialogs.on_closed),
            s.on("Inspector.targetCrashed", self._on_crash),
        ] + self.observer.subscribe()
        await asyncio.gather(
            s.send("Page.enable"),
            s.send("Page.setLifecycleEventsEnabled", {"enabled": True}),
            # computedRole/computedName are fast only while the accessibility tree is kept.
            s.send("Accessibility.enable"),
            s.send("Inspector.enable"),
            self.observer.enable(),
            self.frames.start(),
        )

    def detach(self, gone: BrowserError | None = None) -> None:
        """The tab is closed; ``gone``: because the browser died (what a load in progress answers)."""
        self.closed = True
        self._forget_world()
        for off in self._offs:
            off()
        self._offs.clear()
        self.frames.close()
        for _, _, fut in self._waiters:
            if not fut.done():
                fut.set_exception(gone or BrowserError(f"tab {self.id} was closed", "tab_closed"))
        self._waiters.clear()

    # -- events -----------------------------------------------------------------------------

    def _on_lifecycle(self, params: dict[str, Any]) -> None:
        if params.get("frameId") != self.main_frame_id:
            return
        loader, name = params.get("loaderId", ""), params.get("name", "")
        if name == "init":
            self._lifecycle = {loader: set()}
        self._lifecycle.setdefault(loader, set()).add(name)
        for waiter in list(self._waiters):
            want_loader, want_name, fut = waiter
            if (want_loader in (None, loader)) and want_name == name and not fut.done():
                fut.set_result(loader)
                self._waiters.remove(waiter)

    def _on_frame_navigated(self, params: dict[str, Any]) -> None:
        frame = params.get("frame", {})
        if frame.get("parentId"):
            self.frame_events += 1
            return
        self.main_frame_id = frame.get("id", self.main_frame_id)
        self.dialogs.left()
        self.url = frame.get("url", self.url)
        self._forget_world()
        self.document += 1
        self._ask_world_early()

    def _on_frame_detached(self, params: dict[str, Any]) -> None:
        self.frame_events += 1

    def _on_crash(self, params: dict[str, Any]) -> None:
        self.crashed = True
        self._forget_world()

    # -- checks -----------------------------------------------------------------------------

    def check_usable(self, *, dialogs: bool = True) -> None:
        """Raise when the tab cannot be worked on; ``dialogs=False``: an open dialog does not
        count (a navigation leaves it behind)."""
        if self.crashed:
            raise BrowserError(
                f"tab {self.id} crashed; reload it (POST /reload) or close it", "tab_crashed"
            )
        if self.closed:
            raise BrowserError(f"tab {self.id} is closed", "tab_closed")
        if dialogs:
            self.dialogs.check()

    async def send(self, method: str, params: dict[str, Any] | None = None, *, timeout: float | None = None) -> dict[str, Any]:
        return await self.session.send(method, params, timeout=timeout)

    # -- scripts ----------------------------------------------------------------------------

    @property
    def world_id(self) -> int | None:
        return self._world_id

    async def world(self) -> int:
        """The execution context of pinchtab's isolated world in the main frame."""
        if self._world_id is None:
            early, self._early_world = self._early_world, None
            world_id = None
            if early is not None and early[0] == self.document:
                # Whatever went wrong with it (the page went on meanwhile) is asked again below.
                with contextlib.suppress(Exception):
                    world_id = await asyncio.shield(early[1])
            self._world_id = world_id if world_id is not None else await self._create_world()
        return self._world_id

    async def _create_world(self) -> int:
        res = await self.send(
            "Page.createIsolatedWorld",
            {"frameId": self.main_frame_id, "worldName": WORLD_NAME, "grantUniveralAccess": True},
        )
        return res["executionContextId"]

    def _ask_world_early(self) -> None:
        pending = asyncio.ensure_future(self._create_world())
        pending.add_done_callback(_retrieved)
        self._early_world = (self.document, pending)

    def _forget_world(self) -> None:
        """The world belongs to a document that is gone (or to a crashed renderer)."""
        self._world_id = None
        self._early_world = None

    async def call_in_world(
        self,
        function: str,
        *args: Any,
        serialization: dict[str, Any] | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """Call ``function(*args)`` in the isolated world; answers the CDP result object."""
        params: dict[str, Any] = {
            "functionDeclaration": function,
            "arguments": [{"value": a} for a in args],
            "awaitPromise": True,
        }
        if serialization:
            params["serializationOptions"] = serialization
        else:
            params["returnByValue"] = True
        for attempt in (1, 2):
            params["executionContextId"] = await self.world()
            try:
                res = await self.send("Runtime.callFunctionOn", params, timeout=timeout)
            except CDPError as exc:
                # The document changed under us (navigation): make a new world once.
                if attempt == 1 and ("context" in exc.cdp_message.lower()):
                    self._forget_world()
                    continue
                raise
            _raise_script_error(res)
            return res["result"]
        raise AssertionError("unreachable")

    async def eval_in_world(self, function: str, *args: Any, timeout: float | None = None) -> Any:
        """Like ``call_in_world`` but answers the JSON value."""
        result = await self.call_in_world(function, *args, timeout=timeout)
        return result.get("value")

    async def call_on_node(self, backend_id: int, function: str, *args: Any, scope: str = "",
                           frame_id: str | None = None) -> Any:
        """Call ``function`` with ``this`` = the DOM node; answers its JSON value. A node of a
        frame walked in its own context names its ``scope`` (frames.py) and ``frame_id``."""
        if scope or frame_id:
            session = self.frames.session(scope)
            object_id = await self.frames.resolve(scope, frame_id, backend_id)
        else:
            session = self.session
            object_id = await self.resolve_node(backend_id)
        try:
            res = await session.send(
                "Runtime.callFunctionOn",
                {
                    "objectId": object_id,
                    "functionDeclaration": function,
                    "arguments": [{"value": a} for a in args],
                    "returnByValue": True,
                    "awaitPromise": True,
                },
            )
        finally:
            asyncio.ensure_future(_release(session, object_id))
        _raise_script_error(res)
        return res["result"].get("value")

    async def resolve_node(self, backend_id: int) -> str:
        """A handle on the node in pinchtab's isolated world (page scripts that patch focus or
        scrollIntoView cannot interfere); nodes of iframes live in their frame's main world."""
        params: dict[str, Any] = {"backendNodeId": backend_id, "objectGroup": WORLD_NAME}
        try:
            res = await self.send("DOM.resolveNode", {**params, "executionContextId": await self.world()})
        except CDPError:
            res = await self.send("DOM.resolveNode", params)
        return res["object"]["objectId"]


    async def location(self) -> tuple[str, str]:
        value = await self.eval_in_world("() => [location.href, document.title]")
        self.url, self.title = value[0], value[1]
        return self.url, self.title

    # -- navigation ---------------------------------------------------------------------------

    async def set_blocking(self, images: bool, media: bool) -> None:
        types = (_BLOCK_IMAGES if images else ()) + (_BLOCK_MEDIA if media else ())
        await self.observer.interceptor.set_blocked_types(types)

    def _lifecycle_waiter(self, loader: str | None, name: str) -> asyncio.Future[str]:
        fut: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        if loader is not None and name in self._lifecycle.get(loader, ()):
            fut.set_result(loader)
        else:
            self._waiters.append((loader, name, fut))
        return fut

    def _drop_waiter(self, fut: asyncio.Future[str]) -> None:
        self._waiters = [w for w in self._waiters if w[2] is not fut]

    async def navigate(
        self,
        url: str,
        *,
        timeout_ms: int,
        wait_for: str = "load",
        wait_selector: str | None = None,
        block_images: bool = False,
        block_media: bool = False,
    ) -> dict[str, Any]:
        """Load ``url`` (already normalised) and answer once ``wait_for`` is reached. Dialogs of the
        page being left are dismissed; ``PageStuck`` when it keeps opening them and the navigation
        does not commit (the caller replaces the tab)."""
        self.check_usable(dialogs=False)
        deadline = time.monotonic() + timeout_ms / 1000
        dialogs_before = self.dialogs.opened - (self.dialogs.pending is not None)
        self.dialogs.leave()
        try:
            return await self._navigate(url, deadline, timeout_ms, dialogs_before, wait_for, wait_selector,
                                        block_images, block_media)
        finally:
            self.dialogs.left()

    async def _navigate(self, url: str, deadline: float, timeout_ms: int, dialogs_before: int, wait_for: str,
                        wait_selector: str | None, block_images: bool, block_media: bool) -> dict[str, Any]:
        await self.set_blocking(block_images, block_media)
        self.requested_url = url
        try:
            res = await self.send("Page.navigate", {"url": url}, timeout=timeout_ms / 1000)
        except Timeout:
            raise Timeout(f"navigation to {url} did not start within {timeout_ms} ms", "navigation_timeout") from None
        if res.get("isDownload"):  # no page will load: say so now, not after the timeout
            url_now, title = await self.location()
            return {"tabId": self.id, "url": url_now, "title": title, "download": {"url": url}}
        error = res.get("errorText")
        if error == "net::ERR_ABORTED":
            # Nothing will load (a redirect to javascript: or view-source:, a 204): say so now.
            url_now, _ = await self.location()
            raise BrowserError(f"navigation to {url} was aborted by the browser (a redirect to a URL it does not "
                               f"load, such as javascript: or view-source:, or an answer with no content); the tab "
                               f"stays at {url_now}", "navigation_aborted")
        if error:
            raise BrowserError(f"navigation to {url} failed: {error}", "navigation_failed")
        loader = res.get("loaderId")
        if loader and self.dialogs.opened > dialogs_before:
            await self._commit_or_stuck(loader, deadline, url)
        if loader and wait_for != "none":
            await self.dialogs.unless_blocked(self._wait_lifecycle(loader, LIFECYCLE[wait_for], deadline, url))
        if wait_selector:
            await self.wait_for_selector(wait_selector, deadline, url)
        url_now, title = await self._location_unless_dialogs()
        return {"tabId": self.id, "url": url_now, "title": title}

    async def _location_unless_dialogs(self) -> tuple[str, str]:
        """``location()``; when the new page holds its thread in dialogs (one left open, or one
        after another), what the browser last said of the page instead of a 30 s timeout."""
        reading = asyncio.ensure_future(self.location())
        for _ in range(LOOP_DIALOGS):
            if self.dialogs.pending is not None:
                break
            opening = self.dialogs.next_opening()
            await asyncio.wait({reading, opening}, return_when=asyncio.FIRST_COMPLETED)
            opening.cancel()
            if reading.done():
                return reading.result()
        reading.cancel()
        return self.url, self.title

    async def _commit_or_stuck(self, loader: str, deadline: float, url: str) -> None:
        """The page being left opens dialogs: its new document must commit soon, or it is stuck."""
        committed = self._lifecycle_waiter(loader, "init")
        try:
            await asyncio.wait_for(committed, max(min(LEAVE_COMMIT_S, deadline - time.monotonic()), 0.001))
        except asyncio.TimeoutError:
            self._drop_waiter(committed)
            raise PageStuck(f"tab {self.id} did not leave its page for {url}: the page keeps opening dialogs "
                            f"and its new document did not commit within {LEAVE_COMMIT_S:g} s") from None

    async def _wait_lifecycle(self, loader: str | None, name: str, deadline: float, what: str) -> None:
        fut = self._lifecycle_waiter(loader, name)
        remaining = max(deadline - time.monotonic(), 0.001)
        try:
            await asyncio.wait_for(fut, remaining)
        except asyncio.TimeoutError:
            self._drop_waiter(fut)
            raise Timeout(
                f"{what} did not finish loading ({name}) within the timeout; raise timeout or use waitFor=none",
                "navigation_timeout",
            ) from None

    async def loaded(self, loader: str, deadline: float) -> bool:
        """Wait until the document of ``loader`` has loaded, at most until ``deadline``."""
        try:
            await self._wait_lifecycle(loader, "load", deadline, "page")
        except Timeout:
            return False
        return True

    async def wait_for_selector(self, selector: str, deadline: float, what: str = "page") -> None:
        from pinchtab.browser.content.reading import wait_until

        found = await wait_until(self, selector=selector, text=None, deadline=deadline)
        if not found:
            raise Timeout(f"selector {selector!r} did not appear on {what} within the timeout", "wait_timeout")

    async def history(self, delta: int, *, timeout_ms: int) -> dict[str, str]:
        """Go back (-1) or forward (+1) in this tab's history."""
        self.check_usable()
        hist = await self.send("Page.getNavigationHistory")
        index = hist["currentIndex"] + delta
        entries = hist["entries"]
        # No entry there (or only the blank page a new tab starts on): stay put, as PinchTab does.
        if not 0 <= index < len(entries) or (index == 0 and entries[0].get("url") == "about:blank"):
            url, title = await self.location()
            return {"tabId": self.id, "url": url, "title": title}
        deadline = time.monotonic() + timeout_ms / 1000
        navigated = self._next_navigation()
        await self.send("Page.navigateToHistoryEntry", {"entryId": entries[index]["id"]})
        await self._settle(navigated, deadline, entries[index].get("url", "history entry"))
        url, title = await self.location()
        return {"tabId": self.id, "url": url, "title": title}

    async def reload(self, *, timeout_ms: int) -> dict[str, str]:
        deadline = time.monotonic() + timeout_ms / 1000
        self.crashed = False
        navigated = self._next_navigation()
        await self.send("Page.reload", {"ignoreCache": False})
        await self._settle(navigated, deadline, self.url or "page")
        url, title = await self.location()
        return {"tabId": self.id, "url": url, "title": title}

    def _next_navigation(self) -> asyncio.Future[str | None]:
        """Resolves with the new document's loader id, or None for a same-document navigation."""
        fut: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        offs: list[Callable[[], None]] = []

        def done(value: str | None) -> None:
            if not fut.done():
                fut.set_result(value)
            for off in offs:
                off()

        def on_nav(params: dict[str, Any]) -> None:
            frame = params.get("frame", {})
            if not frame.get("parentId"):
                done(frame.get("loaderId"))

        def on_same_doc(params: dict[str, Any]) -> None:
            if params.get("frameId") == self.main_frame_id:
                done(None)

        offs.append(self.session.on("Page.frameNavigated", on_nav))
        offs.append(self.session.on("Page.navigatedWithinDocument", on_same_doc))
        fut.add_done_callback(lambda _: [off() for off in offs])
        return fut

    async def _settle(self, navigated: asyncio.Future[str | None], deadline: float, what: str) -> None:
        try:
            loader = await asyncio.wait_for(navigated, max(deadline - time.monotonic(), 0.001))
        except asyncio.TimeoutError:
            navigated.cancel()
            raise Timeout(f"{what} did not load within the timeout", "navigation_timeout") from None
        if loader:
            await self._wait_lifecycle(loader, "load", deadline, what)

    async def wait_for_navigation(self, *, timeout_ms: int, started: asyncio.Future[str | None]) -> bool:
        """After an action with waitNav: wait for the navigation it started, if one starts soon."""
        deadline = time.monotonic() + timeout_ms / 1000
        try:
            await asyncio.wait_for(asyncio.shield(started), min(NAV_START_GRACE, timeout_ms / 1000))
        except asyncio.TimeoutError:
            started.cancel()
            return False
        await self._settle(started, deadline, "the navigation the action started")
        return True

    def next_navigation(self) -> asyncio.Future[str | None]:
        return self._next_navigation()


def _retrieved(fut: asyncio.Future[Any]) -> None:
    """An early world's error is the next ``world()`` call's to find (or nobody's: the page went on)."""
    if not fut.cancelled():
        fut.exception()


async def _release(session: Session, object_id: str) -> None:
    with contextlib.suppress(Exception):
        await session.send("Runtime.releaseObject", {"objectId": object_id})
