"""Service methods of ``api/routes/audit.py``: audits of one page, of many (a URL list or a sitemap,
sampled by URL template) and of the current page's accessibility.

Each audited page gets a tab of its own, closed afterwards; a page that fails to load is an entry with
``error``, never a failed run. The entry page is audited first, then the rest ``concurrency`` at a time;
the report lists pages in planned order whatever order they finished in.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from pinchtab.audit import report, sample, seaportal, sitemap
from pinchtab.browser.content import audit_page
from pinchtab.browser.core.cpu import off_loop
from pinchtab.browser.core.urls import normalize_url
from pinchtab.errors import BadRequest, PinchtabError, Timeout
from pinchtab.models import TabScoped
from pinchtab.models import audit as r

if TYPE_CHECKING:
    from pinchtab.browser.core.browser import Browser
    from pinchtab.config import Config

COLLECT_TIMEOUT_S = 60.0  # collectors of one loaded page


class AuditOps:
    browser: "Browser"
    config: "Config"
    nav_timeout_ms: int

    async def a11y_audit(self, req: TabScoped) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            return {"tabId": tab.id, **await audit_page.run_axe(tab)}

    async def audit_page(self, req: r.AuditPageRequest) -> dict[str, Any]:
        enabled = (req.options or r.AuditCollectors()).enabled()
        try:
            return await asyncio.wait_for(self._audit_url(req.url.strip(), enabled), r.AUDIT_PAGE_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise Timeout(f"the audit of {req.url} took longer than {r.AUDIT_PAGE_TIMEOUT_S:g} s",
                          "audit_timeout") from None

    async def audit(self, req: r.AuditRequest) -> dict[str, Any]:
        if not req.urls and not req.sitemap_url and not req.seaportal_results:
            raise BadRequest("urls, sitemapUrl or seaportalResults required", "missing_urls")
        crawled = seaportal.pages(req.seaportal_results or [])
        urls = list(crawled) if req.seaportal_results else list(req.urls or [])
        if not urls and not req.seaportal_results:
            try:
                urls = await sitemap.discover(req.sitemap_url or "", parse=self._parse_sitemap)
            except sitemap.SitemapError as exc:
                raise BadRequest(f"sitemap discovery: {exc}", "sitemap_failed") from None
        plan = sample.plan(urls, req.sample_size or 0)
        if not plan:
            raise BadRequest("no URLs to audit", "no_urls")
        if len(plan) > r.MAX_AUDIT_URLS:
            raise BadRequest(f"{len(plan)} pages to audit, more than {r.MAX_AUDIT_URLS}: set sampleSize to audit "
                             "fewer pages of each URL template, or pass urls", "too_many_urls")
        concurrency = min(req.concurrency or r.DEFAULT_AUDIT_CONCURRENCY, r.MAX_AUDIT_CONCURRENCY)
        enabled = (req.options or r.AuditCollectors()).enabled()
        # The crawler's pages it does not send to the browser are entries of their summary alone.
        browserless = {u for u in plan if u in crawled and not (crawled[u].browser_recommended or req.enrich_all)}
        in_browser = [u for u in plan if u not in browserless]
        try:
            audited = iter(await asyncio.wait_for(self._audit_all(in_browser, enabled, concurrency),
                                                  r.AUDIT_RUN_TIMEOUT_S) if in_browser else ())
        except asyncio.TimeoutError:
            raise Timeout(f"the audit of {len(plan)} pages took longer than {r.AUDIT_RUN_TIMEOUT_S:g} s; audit fewer "
                          "pages (sampleSize) or more at once (concurrency)", "audit_timeout") from None
        pages = []
        for url in plan:
            if url in browserless:
                pages.append(seaportal.only_entry(crawled[url]))
            else:
                entry = next(audited)
                pages.append(seaportal.merged(entry, crawled[url]) if url in crawled else entry)
        source: dict[str, Any] = {"urls": req.urls} if req.urls else {"sitemapUrl": req.sitemap_url}
        if req.seaportal_results:
            source = {"seaportalFile": req.seaportal_file} if req.seaportal_file else {}
            source["seaportalFormat"] = seaportal.FORMAT
        options = {"sampleSize": req.sample_size, "screenshot": "screenshot" in enabled,
                   "networkMonitor": "network" in enabled, "concurrency": concurrency}
        return report.build(pages, input=source, options=options)

    async def _parse_sitemap(self, xml: bytes) -> tuple[list[str], list[str]]:
        return await off_loop(sitemap.parse, xml, what="sitemap parsing")

    async def _audit_all(self, plan: list[str], enabled: frozenset[str], concurrency: int) -> list[dict[str, Any]]:
        first = await self._audit_url(plan[0], enabled)
        gate = asyncio.Semaphore(concurrency)

        async def one(url: str) -> dict[str, Any]:
            async with gate:
                return await self._audit_url(url, enabled)

        rest = await asyncio.gather(*(one(u) for u in plan[1:]))
        return [report.page_result(p) for p in (first, *rest)]

    async def _audit_url(self, url: str, enabled: frozenset[str]) -> dict[str, Any]:
        """The page's audit, in a new tab (never the current one) closed afterwards."""
        try:
            target = normalize_url(url, self.config.security.allowed_schemes)
        except PinchtabError as exc:
            return report.page_error(url, exc.message)
        try:
            tab = await self.browser.new_tab(current=False)
        except PinchtabError as exc:
            return report.page_error(url, f"new tab: {exc.message}")
        try:
            async with self.browser.use_tab(tab.id) as tab:
                await tab.navigate(target, timeout_ms=self.nav_timeout_ms)
                collected = await asyncio.wait_for(self._collect(tab, url, enabled), COLLECT_TIMEOUT_S)
            return report.page_audit(collected)
        except asyncio.TimeoutError:
            return report.page_error(url, f"collecting took longer than {COLLECT_TIMEOUT_S:g} s")
        except PinchtabError as exc:  # the load failed, or the tab did (crashed, closed, a dialog)
            return report.page_error(url, exc.message)
        finally:
            with contextlib.suppress(PinchtabError):
                await self.browser.close_tab(tab.id)

    async def _collect(self, tab: Any, url: str, enabled: frozenset[str]) -> Any:
        await audit_page.settle(tab, self.config.browser.audit_quiet_ms / 1000)
        return await audit_page.collect(tab, url, enabled)
