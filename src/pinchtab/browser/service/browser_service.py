"""What the HTTP API can ask of one browser, as async methods over ``Browser``.

Each method is named after its route in ``pinchtab.api`` and takes that route's request model
(validated; ``tab_id`` already set from a ``/tabs/{id}/...`` path). Every tab operation runs under
that tab's lock (``Browser.use_tab``). Routes parse and shape; this module decides (defaults,
which tab), and knows nothing of HTTP. Security gates are checked before a method is called.
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any

from pinchtab import models as m
from pinchtab.models import Blob, Reply
from pinchtab.browser.content import capture, reading, downloads_policy
from pinchtab.browser.core import waits
from pinchtab.browser.core.browser import Browser
from pinchtab.browser.core.cpu import off_loop
from pinchtab.browser.core.popups import PopupWatch
from pinchtab.browser.core.tab import PageStuck
from pinchtab.browser.core.state_files import save_output
from pinchtab.browser.core.ui_guard import report_blocked_pages
from pinchtab.browser.core.urls import normalize_url, refuse_domain
from pinchtab.browser.input import perform
from pinchtab.browser.page import formatting, snapshot, snapshot_files, targets
from pinchtab.browser.page.selectors import parse_selector
from pinchtab.browser.service.audit import AuditOps
from pinchtab.browser.service.emulation import EmulationOps
from pinchtab.browser.service.frames import FrameOps, text_source
from pinchtab.browser.service.inspect import InspectOps
from pinchtab.browser.service.interaction import InteractionOps
from pinchtab.browser.service.markup import MarkupOps
from pinchtab.browser.service.media import MediaOps
from pinchtab.browser.service.observe import ObserveOps
from pinchtab.browser.service.scrape import ScrapeOps
from pinchtab.browser.service.state import StateOps
from pinchtab.browser.service.tab_control import TabControlOps
from pinchtab.config import Config
from pinchtab.errors import BadRequest, PinchtabError
from pinchtab.secrets import Secrets


class BrowserService(ObserveOps, EmulationOps, InspectOps, StateOps, TabControlOps, FrameOps, MarkupOps,
                     InteractionOps, AuditOps, MediaOps, ScrapeOps):
    def __init__(self, browser: Browser, config: Config) -> None:
        self.browser = browser
        self.config = config
        self.secrets = Secrets(config.security.secrets)

    @property
    def nav_timeout_ms(self) -> int:
        return self.config.browser.navigation_timeout_ms

    # -- health and tabs -------------------------------------------------------------------------

    async def health(self) -> Reply:
        b = self.browser
        out: dict[str, Any] = {"status": "ok" if b.alive else "down", "tabs": len(b.targets)}
        out["browser"] = b.version
        out["pid"] = os.getpid()  # lets a server tell its own bridge from another on the same port
        if b.restarts:
            out["restarts"] = b.restarts
        if b.last_death:
            out["lastDeath"] = b.last_death
        return Reply(out, 200 if out["status"] == "ok" else 503)

    async def tabs(self) -> dict[str, Any]:
        await self.browser.ensure_running()
        return {"tabs": self.browser.list_tabs()}

    async def tab(self, req: m.TabRequest) -> dict[str, Any]:
        if req.action == "new":
            return await self.new_tab(req.url)
        if not req.tab_id:
            raise BadRequest(f"tabId is required to {req.action} a tab", "missing_tab_id")
        if req.action == "focus":
            tab = await self.browser.focus_tab(req.tab_id)
            return {"tabId": tab.id, "focused": True}
        return await self.close_tab(m.CloseRequest(tab_id=req.tab_id))

    async def new_tab(self, url: str | None) -> dict[str, Any]:
        sec = self.config.security
        target = normalize_url(url, sec.allowed_schemes) if url else None
        if target is not None:
            refuse_domain(target, sec.allowed_domains, sec.idpi.strict_mode)  # before a tab is opened
        tab = await self.browser.new_tab()
        if target is None:
            return {"tabId": tab.id, "url": "about:blank", "title": ""}
        return await self.navigate(m.NavigateRequest(url=target, tab_id=tab.id))

    async def close_tab(self, req: m.CloseRequest) -> dict[str, Any]:
        closed = await self.browser.close_tab(req.tab_id)
        return {"closed": True, "tabId": closed}

    # -- navigation ------------------------------------------------------------------------------

    async def navigate(self, req: m.NavigateRequest) -> dict[str, Any]:
        sec = self.config.security
        target = normalize_url(req.url, sec.allowed_schemes)
        warning = refuse_domain(target, sec.allowed_domains, sec.idpi.strict_mode)
        # PinchTab's rule: without a tabId, a new tab (which becomes current); with one, that tab.
        # currentTab (the CLI's rule) loads it in the current tab instead.
        opens = req.new_tab or not (req.tab_id or req.current_tab)
        tab_id = (await self.browser.new_tab()).id if opens else req.tab_id
        async with contextlib.AsyncExitStack() as held:
            tab = await held.enter_async_context(self.browser.use_tab(tab_id, create=True, leaves=True))
            self.browser.current_id = tab.id
            self.browser.idle.cancel(tab.id)
            try:
                try:
                    out = await self._load(tab, target, req)
                except PageStuck:
                    # A dialog loop holds the page: a fresh tab takes its place (and its id) at the new URL.
                    tab = await self.browser.replace_tab(tab)
                    await held.enter_async_context(tab.lock)
                    out = await self._load(tab, target, req)
                out = downloads_policy.navigate_answer(out, self.config)
                if warning:
                    out["idpiWarning"] = warning
                if req.snap or req.snap_diff:
                    out["snapshot"] = await self._snapshot_after(tab, diff=req.snap_diff)
                return out
            except PinchtabError as exc:
                # The tab exists (it may even be new): say which, so it can be used or closed.
                exc.extra.setdefault("tabId", self.browser.restore.public(tab.id))
                raise

    def public_tab_id(self, out: Any) -> Any:
        """An answer naming a tab reopened under a new target id (after a crash, or replaced when
        its page would not let go) names it by the id the agent knows it by."""
        if isinstance(out, dict) and isinstance(out.get("tabId"), str):
            out["tabId"] = self.browser.restore.public(out["tabId"])
        return out

    async def _load(self, tab: Any, target: str, req: m.NavigateRequest) -> dict[str, Any]:
        return await tab.navigate(target, timeout_ms=req.timeout or self.nav_timeout_ms, wait_for=req.wait_for,
                                  wait_selector=req.wait_selector, block_images=req.block_images,
                                  block_media=req.block_media)

    async def back(self, req: m.TabScoped) -> dict[str, Any]:
        return await self._history(req.tab_id, -1)

    async def forward(self, req: m.TabScoped) -> dict[str, Any]:
        return await self._history(req.tab_id, 1)

    async def _history(self, tab_id: str | None, delta: int) -> dict[str, Any]:
        async with self.browser.use_tab(tab_id) as tab:
            return await tab.history(delta, timeout_ms=self.nav_timeout_ms)

    async def reload(self, req: m.TabScoped) -> dict[str, Any]:
        tab = await self.browser.tab(req.tab_id)
        async with tab.lock:  # a crashed tab may be reloaded, so no usability check here
            return await tab.reload(timeout_ms=self.nav_timeout_ms)

    # -- snapshot and find -----------------------------------------------------------------------

    async def snapshot(self, req: m.SnapshotQuery) -> dict[str, Any] | str:
        async with self.browser.use_tab(req.tab_id) as tab:
            element = None
            if req.selector is not None and parse_selector(req.selector).kind not in ("css", "xpath", "text"):
                element = await targets.resolve(tab, req.selector)  # a ref, role:, label:, find:, ...
            snap = await snapshot.capture(tab, interactive=req.interactive, selector=req.selector, depth=req.depth,
                                          element=element)
            previous = tab.refs.replace(snap)
            self.browser.idle.arm(tab.id)
        if req.diff:
            def shape() -> dict[str, Any] | str:
                changes = formatting.diff_snapshots(previous, snap)
                return formatting.render_diff(snap, changes, req.format, max_tokens=req.max_tokens)

            out = await off_loop(shape, what="snapshot diff")
        else:
            out = await off_loop(formatting.render, snap, req.format, max_tokens=req.max_tokens, what="snapshot")
        if req.output == "file":
            return snapshot_files.write(self.config, snap, out, req.format)
        return out

    async def _snapshot_after(self, tab: Any, *, diff: bool) -> str:
        """The interactive compact snapshot an action or navigation answers with (``snap``), or only
        what changed since the tab's previous snapshot (``snapDiff``): one round trip per step."""
        snap = await snapshot.capture(tab, interactive=True)
        previous = tab.refs.replace(snap)
        if diff:
            def shape() -> Any:
                return formatting.render_diff(snap, formatting.diff_snapshots(previous, snap), "compact")

            return await off_loop(shape, what="snapshot diff")
        return await off_loop(formatting.render, snap, "compact", what="snapshot")

    async def find(self, req: m.FindRequest) -> dict[str, Any]:
        from pinchtab.browser.page.tab_find import find_in_tab

        async with self.browser.use_tab(req.tab_id) as tab:
            return await find_in_tab(
                tab, req.query, threshold=req.threshold, top_k=req.top_k, lexical_weight=req.lexical_weight,
                embedding_weight=req.embedding_weight, explain=req.explain,
            )

    # -- actions ---------------------------------------------------------------------------------

    async def action(self, req: m.ActionRequest) -> dict[str, Any]:
        await self.check_actionable(req.tab_id)
        mark = self.browser.ui_guard.mark()
        async with self.browser.use_tab(req.tab_id) as tab:
            out = await self._perform(tab, req)
            self.browser.idle.arm(tab.id)
        return await report_blocked_pages(self.browser.ui_guard, mark, [req], out)

    async def _perform(self, tab: Any, req: m.ActionRequest) -> dict[str, Any]:
        """One action. A tab it opened (popups.py) is named in ``newTab``; when the action meant
        to open it (a link or form with a new-window target, ``window.open`` in the click's own
        handler) it becomes the current one, also named in ``result.switchedToTab`` (PinchTab's
        auto-switch); a tab the page opened on its own (on pointerdown, from a timer) stays
        open behind, ``"current": false``. With ``autoSwitch: false`` it is closed again and
        named in ``closedTab``."""
        if req.secret is not None:
            if "secret" not in m.ACTION_SPECS_BY_NAME[req.kind].fields:
                raise BadRequest(f"{req.kind} takes no secret (type, fill, keyboard-type and keyboard-inserttext do)",
                                 "invalid_field")
            req = req.model_copy(update={"text": self.secrets.value(req.secret), "value": None})
        watch = PopupWatch(self.browser, tab)
        await watch.arm()
        try:
            out = await perform(tab, req, timeout_ms=self.nav_timeout_ms)
        finally:
            watch.stop()
        opened = await watch.opened(self.nav_timeout_ms)
        meant = bool(opened and opened.pop("meant"))
        if opened and req.auto_switch:
            out["newTab"] = {**opened, "current": meant}
            if meant:
                self.browser.current_id = opened["tabId"]
                result = out.get("result")
                out["result"] = {**(result if isinstance(result, dict) else {}), "switchedToTab": opened["tabId"]}
        elif opened:
            with contextlib.suppress(PinchtabError):
                await self.browser.close_tab(opened["tabId"])
            out["closedTab"] = opened
        if req.snap or req.snap_diff:  # of the tab acted on; a tab the action opened is named in newTab
            out["snapshot"] = await self._snapshot_after(tab, diff=req.snap_diff)
        return out

    async def actions(self, req: m.ActionsRequest) -> dict[str, Any]:
        """Run in order; at the first failure raise it, carrying the results so far. With
        ``stopOnError`` given, PinchTab's batch: each outcome recorded, 200 (see the model)."""
        await self.check_actionable(req.tab_id)
        recorded = req.stop_on_error is not None
        results: list[dict[str, Any]] = []
        mark = self.browser.ui_guard.mark()
        async with self.browser.use_tab(req.tab_id) as tab:
            for i, action in enumerate(req.actions):
                try:
                    done = await self._perform(tab, action)
                except PinchtabError as exc:
                    if not recorded:
                        exc.extra = {"failedIndex": i, "results": results}
                        exc.message = f"action {i} ({action.kind}) failed: {exc.message}"
                        raise
                    results.append({"index": i, "success": False, "error": f"action {action.kind}: {exc.message}",
                                    "code": exc.code})
                    if req.stop_on_error:
                        break
                    continue
                results.append({"index": i, "success": True, "result": done} if recorded else done)
            page = await self._snapshot_after(tab, diff=req.snap_diff) if req.snap or req.snap_diff else None
            self.browser.idle.arm(tab.id)
        if recorded:
            ok = sum(r["success"] for r in results)
            out = {"results": results, "total": len(req.actions), "successful": ok, "failed": len(req.actions) - ok}
        else:
            out = {"success": True, "results": results}
        if page is not None:
            out["snapshot"] = page
        return await report_blocked_pages(self.browser.ui_guard, mark, req.actions, out)

    # -- content ---------------------------------------------------------------------------------

    async def text(self, req: m.TextQuery) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            out = await reading.readable_text(await text_source(tab, req.frame_id), raw=req.raw,
                                              max_chars=req.max_chars)
            self.browser.idle.arm(tab.id)
            return out

    async def screenshot(self, req: m.ScreenshotQuery) -> Blob | dict[str, Any]:
        if req.annotate:
            return await self.annotated_screenshot(req)
        async with self.browser.use_tab(req.tab_id) as tab:
            data, _, _ = await capture.take(tab, fmt=req.format, quality=req.quality, scale=req.scale,
                                            selector=req.selector, beyond_viewport=req.full_page or req.beyond_viewport)
        if req.output == "file":
            return save_output(self.config, "screenshots", req.path, data, "jpg" if req.format == "jpeg" else "png")
        return Blob(data, f"image/{req.format}", {"format": req.format})

    async def pdf(self, req: m.PdfRequest) -> Blob:
        async with self.browser.use_tab(req.tab_id) as tab:
            data = await reading.pdf(tab, landscape=req.landscape, scale=req.scale, page_ranges=req.page_ranges,
                                     print_background=req.print_background)
        if req.output == "file":
            return save_output(self.config, "pdfs", req.path, data, "pdf")
        return Blob(data, "application/pdf")

    async def evaluate(self, req: m.EvaluateRequest) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            # A dialog the script opens and the policy leaves open answers 409 dialog_blocking at once.
            result, _ = await tab.dialogs.guard(lambda: reading.evaluate(tab, req.expression))
            return {"result": result}

    async def cookies(self, req: m.CookiesQuery) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            return {"cookies": await reading.get_cookies(tab, req.url)}

    async def set_cookies(self, req: m.SetCookiesRequest) -> dict[str, Any]:
        cookies = [c.model_dump(by_alias=True, exclude_none=True) for c in req.cookies]
        async with self.browser.use_tab(req.tab_id) as tab:
            return {"set": await reading.set_cookies(tab, req.url, cookies)}

    async def wait(self, req: m.WaitRequest) -> dict[str, Any]:
        fixed = await waits.before_tab(req, allow_evaluate=self.config.security.allow_evaluate)
        if fixed is not None:
            return fixed
        async with self.browser.use_tab(req.tab_id) as tab:
            return await waits.wait(tab, selector=req.selector, state=req.state, text=req.text, not_text=req.not_text,
                                    url=req.url, load=req.load, fn=req.fn, idle_for_ms=req.idle_for,
                                    timeout_ms=req.timeout)

    async def browser_restart(self) -> dict[str, Any]:
        started = time.monotonic()
        await self.browser.restart()
        return {"restarted": True, "browser": self.browser.version, "ms": int((time.monotonic() - started) * 1000)}
