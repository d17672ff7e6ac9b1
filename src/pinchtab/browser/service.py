"""What the HTTP API can ask of one browser, as plain async functions over ``Browser``.

Every tab operation runs under that tab's lock (``Browser.use_tab``). Routes parse and shape;
this module decides (security policy, defaults, which tab), and knows nothing of HTTP.
"""

from __future__ import annotations

import os
import time
from typing import Any

from pinchtab.browser import actions, content, formatting, snapshot
from pinchtab.browser.actions import ActionSpec
from pinchtab.browser.browser import Browser
from pinchtab.browser.urls import normalize_url
from pinchtab.config import Config
from pinchtab.errors import BadRequest, Forbidden, PinchtabError


class BrowserService:
    def __init__(self, browser: Browser, config: Config) -> None:
        self.browser = browser
        self.config = config

    @property
    def nav_timeout_ms(self) -> int:
        return self.config.browser.navigation_timeout_ms

    # -- health and tabs -------------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        b = self.browser
        out: dict[str, Any] = {"status": "ok" if b.alive else "down", "tabs": len(b.targets)}
        out["browser"] = b.version
        out["pid"] = os.getpid()  # lets a server tell its own bridge from another on the same port
        if b.restarts:
            out["restarts"] = b.restarts
        if b.last_death:
            out["lastDeath"] = b.last_death
        return out

    async def tabs(self) -> list[dict[str, str]]:
        await self.browser.ensure_running()
        return self.browser.list_tabs()

    async def new_tab(self, url: str | None) -> dict[str, str]:
        target = normalize_url(url, self.config.security.allowed_schemes) if url else None
        tab = await self.browser.new_tab()
        if target is None:
            return {"tabId": tab.id, "url": "about:blank", "title": ""}
        return await self.navigate(target, tab_id=tab.id)

    async def focus_tab(self, tab_id: str | None) -> dict[str, Any]:
        if not tab_id:
            raise BadRequest("tabId is required to focus a tab", "missing_tab_id")
        tab = await self.browser.focus_tab(tab_id)
        return {"tabId": tab.id, "focused": True}

    async def close_tab(self, tab_id: str | None) -> dict[str, Any]:
        closed = await self.browser.close_tab(tab_id)
        return {"closed": True, "tabId": closed}

    # -- navigation ------------------------------------------------------------------------------

    async def navigate(
        self,
        url: str,
        *,
        tab_id: str | None = None,
        new_tab: bool = False,
        timeout: int | None = None,
        wait_for: str = "load",
        wait_selector: str | None = None,
        block_images: bool = False,
        block_media: bool = False,
    ) -> dict[str, str]:
        target = normalize_url(url, self.config.security.allowed_schemes)
        if new_tab:
            tab_id = (await self.browser.new_tab()).id
        async with self.browser.use_tab(tab_id, create=True) as tab:
            self.browser.current_id = tab.id
            try:
                return await tab.navigate(
                    target,
                    timeout_ms=timeout or self.nav_timeout_ms,
                    wait_for=wait_for,
                    wait_selector=wait_selector,
                    block_images=block_images,
                    block_media=block_media,
                )
            except PinchtabError as exc:
                # The tab exists (it may even be new): say which, so it can be used or closed.
                exc.extra.setdefault("tabId", tab.id)
                raise

    async def history(self, tab_id: str | None, delta: int) -> dict[str, str]:
        async with self.browser.use_tab(tab_id) as tab:
            return await tab.history(delta, timeout_ms=self.nav_timeout_ms)

    async def reload(self, tab_id: str | None) -> dict[str, str]:
        tab = await self.browser.tab(tab_id)
        async with tab.lock:  # a crashed tab may be reloaded, so no usability check here
            return await tab.reload(timeout_ms=self.nav_timeout_ms)

    # -- snapshot and find -----------------------------------------------------------------------

    async def snapshot(
        self,
        tab_id: str | None = None,
        *,
        interactive: bool = False,
        fmt: str = "json",
        diff: bool = False,
        selector: str | None = None,
        depth: int | None = None,
        max_tokens: int | None = None,
    ) -> dict[str, Any] | str:
        async with self.browser.use_tab(tab_id) as tab:
            snap = await snapshot.capture(tab, interactive=interactive, selector=selector, depth=depth)
            previous = tab.refs.replace(snap)
        if diff:
            changes = formatting.diff_snapshots(previous, snap)
            return formatting.render_diff(snap, changes, fmt, max_tokens=max_tokens)
        return formatting.render(snap, fmt, max_tokens=max_tokens)

    async def find(self, query: str, tab_id: str | None = None, **options: Any) -> dict[str, Any]:
        from pinchtab.browser.finding import find_in_tab

        async with self.browser.use_tab(tab_id) as tab:
            return await find_in_tab(tab, query, **options)

    # -- actions ---------------------------------------------------------------------------------

    async def action(self, spec: ActionSpec, tab_id: str | None = None) -> dict[str, Any]:
        async with self.browser.use_tab(tab_id) as tab:
            return await actions.perform(tab, spec, timeout_ms=self.nav_timeout_ms)

    async def actions(self, specs: list[ActionSpec], tab_id: str | None = None) -> dict[str, Any]:
        """Run in order; at the first failure raise it, carrying the results so far."""
        results: list[dict[str, Any]] = []
        async with self.browser.use_tab(tab_id) as tab:
            for i, spec in enumerate(specs):
                try:
                    results.append(await actions.perform(tab, spec, timeout_ms=self.nav_timeout_ms))
                except PinchtabError as exc:
                    exc.extra = {"failedIndex": i, "results": results}
                    exc.message = f"action {i} ({spec.kind}) failed: {exc.message}"
                    raise
        return {"success": True, "results": results}

    # -- content ---------------------------------------------------------------------------------

    async def text(self, tab_id: str | None = None, *, raw: bool = False, max_chars: int | None = None) -> dict[str, Any]:
        async with self.browser.use_tab(tab_id) as tab:
            return await content.readable_text(tab, raw=raw, max_chars=max_chars)

    async def screenshot(self, tab_id: str | None = None, **options: Any) -> bytes:
        async with self.browser.use_tab(tab_id) as tab:
            return await content.screenshot(tab, **options)

    async def pdf(self, tab_id: str | None = None, **options: Any) -> bytes:
        async with self.browser.use_tab(tab_id) as tab:
            return await content.pdf(tab, **options)

    async def evaluate(self, expression: str, tab_id: str | None = None) -> Any:
        if not self.config.security.allow_evaluate:
            raise Forbidden(
                "evaluate is disabled: set security.allowEvaluate to true in the config "
                "(or PINCHTAB_ALLOW_EVALUATE=1)",
                "evaluate_disabled",
            )
        async with self.browser.use_tab(tab_id) as tab:
            return await content.evaluate(tab, expression)

    def _check_cookies(self) -> None:
        if not self.config.security.allow_cookies:
            raise Forbidden(
                "cookie access is disabled: set security.allowCookies to true in the config "
                "(or PINCHTAB_ALLOW_COOKIES=1)",
                "cookies_disabled",
            )

    async def cookies(self, tab_id: str | None = None, url: str | None = None) -> list[dict[str, Any]]:
        self._check_cookies()
        async with self.browser.use_tab(tab_id) as tab:
            return await content.get_cookies(tab, url)

    async def set_cookies(self, cookies: list[dict[str, Any]], tab_id: str | None = None, url: str | None = None) -> int:
        self._check_cookies()
        async with self.browser.use_tab(tab_id) as tab:
            return await content.set_cookies(tab, url, cookies)

    async def wait(self, tab_id: str | None = None, *, selector: str | None, text: str | None, timeout_ms: int) -> dict[str, Any]:
        async with self.browser.use_tab(tab_id) as tab:
            return await content.wait(tab, selector=selector, text=text, timeout_ms=timeout_ms)

    async def restart(self) -> dict[str, Any]:
        started = time.monotonic()
        await self.browser.restart()
        return {"restarted": True, "browser": self.browser.version, "ms": int((time.monotonic() - started) * 1000)}
