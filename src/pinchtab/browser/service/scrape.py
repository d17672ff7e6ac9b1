"""BrowserService method of POST /scrape: pinchtab.scrape does the HTTP crawl and extraction; the
browser renders, each in a tab of its own, only the pages that crawl routes to it."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from pinchtab.browser.core.urls import normalize_url, refuse_domain
from pinchtab.errors import BadRequest, PinchtabError
from pinchtab.models.scrape import ScrapeRequest

if TYPE_CHECKING:
    from pinchtab.browser.core.browser import Browser
    from pinchtab.config import Config

OUTER_HTML = "() => document.documentElement.outerHTML"


class ScrapeOps:
    browser: "Browser"
    config: "Config"

    async def scrape(self, req: ScrapeRequest) -> dict[str, Any]:
        # Loaded on first use: its HTML stack (lxml, readability, markdownify and bs4) is about a
        # tenth of a bridge's start-up imports, and most bridges never scrape.
        from pinchtab.scrape.run import run

        sec = self.config.security

        def check(url: str) -> None:
            # Every fetch, redirect hop and rendering obeys the navigation allow-list (strictly:
            # there is nobody to warn in the middle of a crawl).
            refuse_domain(normalize_url(url, ()), sec.allowed_domains, strict=True)

        for url in (req.url, *req.only):
            check(url)

        async def render(url: str) -> str:
            tab = await self.browser.new_tab()
            try:
                async with self.browser.use_tab(tab.id) as t:
                    await t.navigate(url, timeout_ms=self.config.browser.navigation_timeout_ms)
                    return str(await t.eval_in_world(OUTER_HTML))
            finally:
                with contextlib.suppress(PinchtabError):
                    await self.browser.close_tab(tab.id)

        try:
            return await run(req, check, None if req.no_browser or req.preview else render)
        except ValueError as exc:
            raise BadRequest(str(exc), "scrape_failed") from None
