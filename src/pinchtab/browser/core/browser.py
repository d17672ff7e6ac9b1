"""The browser: one Chromium (launched over a pipe, or attached over a websocket), its tabs, and
what happens when it dies (reported to the next request, restarted when configured)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from pinchtab.browser.core.page_downloads import PageDownloads
from pinchtab.browser.core.tab import Tab
from pinchtab.browser.core.tab_lifecycle import IdleCloser
from pinchtab.browser.core.tab_restore import TabRestore
from pinchtab.cdp import prelaunch
from pinchtab.browser.core.ui_guard import UiGuard, is_browser_ui
from pinchtab.cdp import BrowserGone, CDPError, ChromeProcess, Connection, PipeTransport, Session, WebSocketTransport, browser_binary
from pinchtab.config import Config
from pinchtab.errors import BrowserError, Forbidden, NotFound, NotReady, TooMany
from pinchtab.find import IntentCache

log = logging.getLogger("pinchtab.browser")

# Seconds before each new try when the automatic start after a crash fails (a Chromium that exits
# during start-up on a loaded machine): without them nothing started a browser until a request
# came, and a server watching /health showed the instance down for good.
RESTART_RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)


class Browser:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.process: ChromeProcess | None = None
        self.connection: Connection | None = None
        self.root: Session | None = None
        self.version = ""
        self.targets: dict[str, dict[str, Any]] = {}
        self.tabs: dict[str, Tab] = {}
        # tab id -> when a request last worked on it (time.monotonic), for tab eviction
        self.last_used: dict[str, float] = {}
        self.current_id: str | None = None
        self.started_at = 0.0
        self.restarts = 0
        self.last_death: str | None = None
        # A death nobody has been told about yet: the next request hears of it.
        self._unreported_death: str | None = None
        self._attaching: dict[str, asyncio.Future[Tab]] = {}
        self._start_lock = asyncio.Lock()
        self._restart_task: asyncio.Task[None] | None = None
        self._stopping = False
        self.intents = IntentCache()
        self.ui_guard = UiGuard(self._root_send, self._tab_send)
        self.restore = TabRestore(config.browser.max_tabs)
        self._deliberate = False  # a requested restart: not a crash
        # Browser contexts of pinchtab's own scratch pages (the clipboard's): not tabs.
        self.hidden_contexts: set[str] = set()
        self.page_downloads = PageDownloads()
        self._reloads: set[asyncio.Future[None]] = set()  # reopened tabs loading after a crash
        self.idle = IdleCloser(config.instance_defaults.tab_policy, self.close_tab,
                               lambda tid: tid in self.tabs and self.tabs[tid].lock.locked())

    # -- lifecycle ----------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self.connection is not None and not self.connection.is_closed

    @property
    def command_timeout(self) -> float:
        return self.config.browser.command_timeout_ms / 1000

    async def start(self) -> None:
        async with self._start_lock:
            if self.alive:
                return
            await self._start()

    async def _start(self) -> None:
        cfg = self.config.browser
        self._stopping = False
        if cfg.cdp_url:
            transport: Any = WebSocketTransport(await _browser_ws_url(cfg.cdp_url))
            await transport.start()
        else:
            binary = browser_binary(cfg)
            launch = {"headless": cfg.headless, "user_data_dir": cfg.profile_dir, "extra_args": cfg.extra_args}
            self.process = prelaunch.take(binary, **launch) or await ChromeProcess.launch(binary, **launch)
            transport = PipeTransport(self.process.write_fd, self.process.read_fd)
            await transport.start()
        conn = Connection(transport, default_timeout=self.command_timeout)
        conn.start()
        self.connection = conn
        self.root = Session(conn)
        try:
            version = await self.root.send("Browser.getVersion", timeout=15)
        except Exception as exc:
            reason = str(exc)
            if isinstance(exc, BrowserGone):
                reason = "it exited during start-up"
                if self.process is not None:  # the pipe closes just before the exit is reaped
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(self.process.exited.wait(), 1)
                    if self.process.returncode is not None:
                        reason += f" with code {self.process.returncode}"
            detail = self.process.stderr_tail() if self.process else ""
            await self._teardown()
            raise BrowserError(f"Chromium did not start: {reason} {detail}".strip(), "chrome_start_failed") from exc
        self.version = version.get("product", "")
        self.targets.clear()
        self.tabs.clear()
        self.current_id = None
        self.root.on("Target.targetCreated", self._on_target_created)
        self.root.on("Target.targetInfoChanged", self._on_target_changed)
        self.root.on("Target.targetDestroyed", self._on_target_destroyed)
        self.root.on("Target.detachedFromTarget", self._on_detached)
        conn.on_close(self._on_connection_closed)
        await self.root.send("Target.setDiscoverTargets", {"discover": True})
        await self.page_downloads.setup(self.root, self.config)
        infos = await self.root.send("Target.getTargets")
        for info in infos.get("targetInfos", []):
            self._on_target_created({"targetInfo": info})
        pages = [t for t in self.targets if self.targets[t].get("type") == "page"]
        self.current_id = pages[0] if pages else None
        self.started_at = time.time()
        log.info("browser started: %s", self.version)

    async def stop(self) -> None:
        self._stopping = True
        self.idle.cancel_all()
        if self._restart_task and not self._restart_task.done():
            self._restart_task.cancel()
        await self._teardown()

    async def _teardown(self) -> None:
        for loading in list(self._reloads):
            loading.cancel()
        for tab in self.tabs.values():
            tab.detach()
        self.tabs.clear()
        self.targets.clear()
        self.current_id = None
        if self.connection is not None:
            if self.process is not None and self.alive:
                with contextlib.suppress(Exception):
                    await self.connection.send("Browser.close", timeout=2)
            await self.connection.close()
        if self.process is not None:
            await self.process.stop()
            self.process = None
        self.connection = None

    async def restart(self) -> None:
        async with self._start_lock:
            self._deliberate = True
            try:
                await self._teardown()
            finally:
                self._deliberate = False
            self.restarts += 1
            self._unreported_death = None
            self.restore.forget()
            await self._start()

    def _on_connection_closed(self) -> None:
        if self._stopping or self._deliberate:
            return
        code = self.process.returncode if self.process else None
        tail = self.process.stderr_tail(2) if self.process else ""
        reason = "Chromium exited" + (f" with code {code}" if code is not None else "")
        if tail:
            reason += f" ({tail[:300]})"
        self.last_death = reason
        self._unreported_death = reason
        log.error("%s", reason)
        if self.config.browser.restore_tabs and self.config.browser.auto_restart:
            self.restore.remember(self.targets, self.tabs, self.current_id)
        for tab in self.tabs.values():
            tab.detach(BrowserGone(reason))  # a load in progress answers 503 browser_gone, not tab_closed
        self.tabs.clear()
        self.targets.clear()
        self.current_id = None
        if self.config.browser.auto_restart:
            self._restart_task = asyncio.ensure_future(self._auto_restart())

    async def _auto_restart(self) -> None:
        counted = False
        for delay in (0.0, *RESTART_RETRY_DELAYS):
            await asyncio.sleep(delay)
            try:
                async with self._start_lock:
                    if self.alive or self._stopping:
                        return
                    await self._teardown()
                    if not counted:
                        self.restarts += 1
                        counted = True
                    await self._start()
                    if self.restore.pending:
                        blank = [t for t, info in self.targets.items() if info.get("url") == "about:blank"]
                        current = await self.restore.reopen(self._reopen_at, blank)
                        if current in self.targets:
                            self.current_id = current
                return
            except Exception as exc:  # the last failure is reported through ensure_running
                log.error("automatic browser restart failed: %s", exc)

    async def _reopen_at(self, url: str, reuse: str | None) -> str:
        """A tab (``reuse``, or a new one) on its way to ``url``, answered at once: it loads under
        its lock, so a request for it waits for the load (as it would have waited for the
        navigation) while the restore, and the other tabs, go on."""
        assert self.root is not None
        if reuse is None:
            res = await self.root.send("Target.createTarget", {"url": "about:blank"})
            reuse = res["targetId"]
            self.targets.setdefault(reuse, {"targetId": reuse, "type": "page", "url": "about:blank", "title": ""})
        if url != "about:blank":
            tab = await self._attach(reuse)
            await tab.lock.acquire()
            loading = asyncio.ensure_future(self._load_reopened(tab, url))
            self._reloads.add(loading)
            loading.add_done_callback(self._reloads.discard)
        return reuse

    async def _load_reopened(self, tab: Tab, url: str) -> None:
        try:
            with contextlib.suppress(Exception):
                await tab.navigate(url, timeout_ms=min(self.config.browser.navigation_timeout_ms, 15000))
        finally:
            tab.lock.release()

    def _gone(self, reason: str) -> NotReady:
        follow = (
            "a new browser is starting and reopens the tabs at their last URLs (same tab ids), so retry"
            if self.config.browser.auto_restart and self.config.browser.restore_tabs
            else "a new browser is starting, so retry; earlier tabs are gone"
            if self.config.browser.auto_restart
            else "start a new one with POST /browser/restart"
        )
        return NotReady(f"{reason}; {follow}", "browser_gone")

    async def ensure_running(self) -> None:
        """Raise if there is no usable browser; tell the first caller after a crash about it."""
        if self._unreported_death:
            reason, self._unreported_death = self._unreported_death, None
            raise self._gone(reason)
        if self._restart_task and not self._restart_task.done():
            # Up, but maybe still reopening the old tabs: their ids would answer 404 meanwhile.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._restart_task), 30)
        if self.alive:
            return
        if self.config.browser.auto_restart and not self._stopping:
            try:
                await self.start()
                return
            except BrowserError as exc:
                raise NotReady(f"the browser is not running and could not be started: {exc.message}", "browser_not_ready") from exc
        raise NotReady("the browser is not running; start it with POST /browser/restart", "browser_not_ready")

    # -- targets ------------------------------------------------------------------------------

    async def _root_send(self, method: str, params: dict[str, Any]) -> Any:
        assert self.root is not None
        return await self.root.send(method, params)

    @contextlib.asynccontextmanager
    async def _tab_send(self, tid: str) -> AsyncIterator[Any]:
        """A short-lived session of its own on target ``tid`` (the tab's may be detaching)."""
        assert self.root is not None and self.connection is not None
        res = await self.root.send("Target.attachToTarget", {"targetId": tid, "flatten": True})
        session = Session(self.connection, res["sessionId"])
        try:
            yield session.send
        finally:
            with contextlib.suppress(Exception):
                await self.root.send("Target.detachFromTarget", {"sessionId": session.session_id})
            self.connection.drop_session(session.session_id)

    def _on_target_created(self, params: dict[str, Any]) -> None:
        info = params.get("targetInfo", {})
        if (info.get("type") != "page" or info.get("browserContextId") in self.hidden_contexts
                or self.ui_guard.check(info, known=False)):
            return
        self.targets[info["targetId"]] = info

    def _on_target_changed(self, params: dict[str, Any]) -> None:
        info = params.get("targetInfo", {})
        tid = info.get("targetId")
        if tid in self.targets and self.ui_guard.check(info, known=True):
            self.targets[tid] = info  # our tab, being taken back; hidden meanwhile
            return
        if tid in self.targets:
            self.targets[tid] = info
            tab = self.tabs.get(tid)
            if tab is not None:
                tab.url, tab.title = info.get("url", tab.url), info.get("title", tab.title)

    def _on_target_destroyed(self, params: dict[str, Any]) -> None:
        tid = params.get("targetId")
        self.targets.pop(tid, None)
        self.last_used.pop(tid, None)
        tab = self.tabs.pop(tid, None)
        if tid:
            self.intents.forget(tid)
            self.idle.cancel(tid)
            self.restore.closed(tid)
        if tab is not None:
            tab.detach()
            if self.connection is not None:
                self.connection.drop_session(tab.session.session_id)
        if self.current_id == tid:
            pages = list(self.targets)
            self.current_id = pages[-1] if pages else None

    def _on_detached(self, params: dict[str, Any]) -> None:
        tid = params.get("targetId")
        tab = self.tabs.pop(tid, None) if tid else None
        if tab is not None:
            tab.detach()

    # -- tabs ---------------------------------------------------------------------------------

    def list_tabs(self) -> list[dict[str, str]]:
        out = []
        for tid, info in self.targets.items():
            if is_browser_ui(info.get("url")):
                continue
            tab = self.tabs.get(tid)
            # An attached tab read its own location after loading, which can be newer than the
            # target info Chromium last sent.
            url = tab.url if tab is not None and tab.url else info.get("url", "")
            title = tab.title if tab is not None and tab.url else info.get("title", "")
            out.append({"id": self.restore.public(tid), "url": url, "title": _document_title(title, url), "type": "page"})
        return out

    async def tab(self, tab_id: str | None) -> Tab:
        """The attached tab ``tab_id`` (None: the current tab)."""
        await self.ensure_running()
        tid = self.restore.resolve(tab_id) if tab_id else self.current_id
        if not tid:
            raise NotFound("no current tab: open one with POST /tab {\"action\":\"new\"} or POST /navigate", "no_tab")
        if tid not in self.targets:
            raise NotFound(f"tab {tid} not found; GET /tabs lists the open tabs", "tab_not_found")
        self.refuse_browser_ui(tid)
        tab = self.tabs.get(tid)
        if tab is not None:
            return tab
        pending = self._attaching.get(tid)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Tab] = asyncio.get_running_loop().create_future()
        self._attaching[tid] = fut
        try:
            tab = await self._attach(tid)
            fut.set_result(tab)
            return tab
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: no "never retrieved" warning when nobody else waits
            raise
        finally:
            self._attaching.pop(tid, None)

    def refuse_browser_ui(self, tid: str) -> None:
        url = self.targets.get(tid, {}).get("url")
        if is_browser_ui(url):
            raise Forbidden(f"tab {tid} shows a browser page ({url}), which pinchtab does not expose; "
                            "it is being closed or taken back", "browser_page_blocked")

    async def _attach(self, tid: str) -> Tab:
        assert self.root is not None and self.connection is not None
        try:
            res = await self.root.send("Target.attachToTarget", {"targetId": tid, "flatten": True})
        except CDPError as exc:
            raise NotFound(f"tab {tid} not found ({exc.cdp_message})", "tab_not_found") from exc
        tab = Tab(tid, Session(self.connection, res["sessionId"]), self.intents, self.config.observe,
                  max_refs=self.config.browser.max_refs, max_nodes=self.config.browser.max_snapshot_nodes)
        tab.dialogs.policy = self.config.browser.dialogs
        tab.actionability_wait_s = self.config.browser.actionability_wait_ms / 1000
        tab.observer.interceptor.real_hosts = self.config.security.allowed_domains
        info = self.targets.get(tid, {})
        tab.url, tab.title = info.get("url", ""), info.get("title", "")
        await tab.init()
        self.tabs[tid] = tab
        return tab

    async def new_tab(self, *, current: bool = True) -> Tab:
        """A new blank tab; ``current=False`` leaves the current tab as it is (an audit's own tabs)."""
        await self.ensure_running()
        assert self.root is not None
        await self._make_room()
        res = await self.root.send("Target.createTarget", {"url": "about:blank"})
        tid = res["targetId"]
        self.targets.setdefault(tid, {"targetId": tid, "type": "page", "url": "about:blank", "title": ""})
        tab = await self.tab(tid)
        if current:
            self.current_id = tid
        return tab

    async def _make_room(self) -> None:
        """At browser.maxTabs, close one idle tab as browser.tabEviction says, or refuse."""
        cap, policy = self.config.browser.max_tabs, self.config.browser.tab_eviction
        pages = [t for t, info in self.targets.items() if info.get("type", "page") == "page"]
        if len(pages) < cap:
            return
        idle = [t for t in pages if t not in self.tabs or not self.tabs[t].lock.locked()]
        if policy == "reject" or not idle:
            raise TooMany(f"{len(pages)} tabs are open, the cap (browser.maxTabs = {cap}); close one with "
                          "POST /close, raise the cap or set browser.tabEviction", "tab_limit")
        # targets keeps the order tabs appeared in; last_used the order they were last worked on
        victim = idle[0] if policy == "close_oldest" else min(idle, key=lambda t: self.last_used.get(t, 0.0))
        log.info("tab cap %d reached: closing tab %s (%s)", cap, victim, policy)
        await self.close_tab(victim)

    async def close_tab(self, tab_id: str | None) -> str:
        tab = await self.tab(tab_id)
        assert self.root is not None
        try:
            await self.root.send("Target.closeTarget", {"targetId": tab.id})
        except CDPError as exc:
            raise NotFound(f"tab {tab.id} not found ({exc.cdp_message})", "tab_not_found") from exc
        self._on_target_destroyed({"targetId": tab.id})
        return tab.id

    async def replace_tab(self, tab: Tab) -> Tab:
        """A fresh blank tab in place of ``tab``, whose page will not let go (a dialog loop keeps its
        renderer busy, so no navigation commits): ``tab`` is closed and its id names the new tab."""
        assert self.root is not None
        res = await self.root.send("Target.createTarget", {"url": "about:blank"})
        tid = res["targetId"]
        self.targets.setdefault(tid, {"targetId": tid, "type": "page", "url": "about:blank", "title": ""})
        fresh = await self.tab(tid)
        was_current = self.current_id == tab.id
        self.restore.moved(tab.id, tid)
        with contextlib.suppress(CDPError):  # already gone
            await self.root.send("Target.closeTarget", {"targetId": tab.id})
        self._on_target_destroyed({"targetId": tab.id})
        if was_current:
            self.current_id = tid
        log.warning("tab %s kept opening dialogs and would not leave its page: replaced by target %s",
                    self.restore.public(tid), tid)
        return fresh

    async def focus_tab(self, tab_id: str) -> Tab:
        tab = await self.tab(tab_id)
        assert self.root is not None
        await self.root.send("Target.activateTarget", {"targetId": tab.id})
        self.current_id = tab.id
        return tab

    @contextlib.asynccontextmanager
    async def use_tab(self, tab_id: str | None, *, create: bool = False,
                      leaves: bool = False) -> AsyncIterator[Tab]:
        """The tab, locked for the caller: work on one tab is serialised, tabs run in parallel.

        With ``create``, a missing current tab is created (POST /navigate without a tab); with
        ``leaves`` (a navigation), an open dialog does not refuse the request: it is left behind."""
        if create and not tab_id:
            await self.ensure_running()
            if not self.current_id or self.current_id not in self.targets:
                await self.new_tab()
        tab = await self.tab(tab_id)
        async with tab.lock:
            self.last_used[tab.id] = time.monotonic()
            tab.check_usable(dialogs=not leaves)
            self.refuse_browser_ui(tab.id)
            try:
                yield tab
            except BrowserGone as exc:
                # Chromium died mid-request: this caller is the one told, with what to do next.
                reason, self._unreported_death = self._unreported_death or exc.message, None
                raise self._gone(reason) from exc
            except CDPError as exc:
                # The tab went away under the request: say so, not "Session with given id not found".
                if tab.closed and tab.id not in self.targets:
                    raise NotFound(f"tab {tab.id} was closed during this request; GET /tabs lists the open tabs",
                                   "tab_closed") from exc
                if tab.crashed:
                    tab.check_usable()
                raise


def _document_title(title: str, url: str) -> str:
    """Chromium gives an untitled page its URL as target title ("about:blank", or the URL without
    its scheme); the API's title is document.title, so that is ""."""
    if title and (title == url or url.partition("://")[2] == title):
        return ""
    return title


async def _browser_ws_url(cdp_url: str) -> str:
    """ws://... as given; http://host:port -> its browser websocket from /json/version."""
    if cdp_url.startswith(("ws://", "wss://")):
        return cdp_url
    import httpx

    base = cdp_url.rstrip("/")
    try:
        async with httpx.AsyncClient(timeout=5) as client:
            res = await client.get(f"{base}/json/version")
            res.raise_for_status()
            return res.json()["webSocketDebuggerUrl"]
    except Exception as exc:
        raise BrowserError(f"cannot reach Chrome's DevTools at {cdp_url}: {exc}", "browser_connect_failed") from exc


__all__ = ["Browser", "BrowserGone"]
