"""A site to PinchTab's scrape report (schema 1.0): discover pages over HTTP (sitemaps, else links),
sample them by URL pattern, extract each over HTTP, and render in the browser only the pages whose
HTTP extraction came back thin, blocked or failed. Every page says where its content came from
(``source``: http or browser) and why it was routed (``browserReasons``)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urlsplit

from pinchtab.models.scrape import ScrapeRequest
from pinchtab.scrape.crawl import ROBOTS_DISALLOWED, Fetched, Fetcher
from pinchtab.scrape.extract import extract

SCHEMA_VERSION = "1.0"
MIN_CONTENT_CHARS = 500  # less markdown than this over HTTP: a probable JavaScript shell
SNIPPET_CHARS = 200
BLOCKED_STATUSES = {401, 403, 407, 429, 503}

# The browser half: a URL to its rendered HTML (raises on failure).
Renderer = Callable[[str], Awaitable[str]]


def url_pattern(url: str) -> str:
    """The page-tree group of a URL: its path with the last segment as ``*`` (``/blog/*``)."""
    path = urlsplit(url).path or "/"
    head = path.rsplit("/", 1)[0] if "/" in path.strip("/") else ""
    return f"{head}/*"


def needs_browser(page: dict[str, Any]) -> list[str]:
    """PinchTab's routing verdict: why the browser should render this page ([] when it need not)."""
    status = page.get("statusCode", 0)
    if status in (404, 410) or page.get("error") == ROBOTS_DISALLOWED:  # nor does robots.txt bend for a browser
        return []
    reasons = []
    if page.get("error"):
        reasons.append("fetch-error")
    if status in BLOCKED_STATUSES:
        reasons.append(f"blocked-status:{status}")
    if not reasons and len(page.get("markdown", "").strip()) < MIN_CONTENT_CHARS:
        reasons.append("thin-content")
    return reasons


def _page(url: str, got: Fetched | None, html: str | None = None) -> dict[str, Any]:
    page: dict[str, Any] = {"url": url, "source": "http"}
    if got is not None:
        page["statusCode"], page["contentType"] = got.status, got.content_type
        if got.error:
            page["error"] = got.error
        elif got.status >= 400:
            page["error"] = f"HTTP {got.status}"
    ex = extract(html if html is not None else (got.html if got else ""), url)
    page.update({"title": ex.title, "markdown": ex.markdown, "internalLinks": ex.internal_links,
                 "externalLinks": ex.external_links})
    if ex.meta:
        page["meta"] = ex.meta
    if ex.schema:
        page["schema"] = ex.schema
    return page


def _sample(urls: list[str], req: ScrapeRequest) -> tuple[list[dict[str, Any]], list[str]]:
    groups: dict[str, list[str]] = {}
    for url in urls:
        groups.setdefault(url_pattern(url), []).append(url)
    sampled: list[str] = []
    page_groups = []
    for pattern, members in groups.items():
        room = max(0, min(req.max_per_pattern, req.max_pages - len(sampled)))
        chosen = members[:room]
        sampled.extend(chosen)
        page_groups.append({"pattern": pattern, "total": len(members), "sampled": len(chosen), "urls": chosen})
    return page_groups, sampled


async def run(req: ScrapeRequest, check: Callable[[str], None], render: Renderer | None) -> dict[str, Any]:
    """The report; ``check`` refuses URLs off the allow-list, ``render`` is the browser (None:
    never render). Failing pages are report data; only a site with no page at all raises."""
    include = [re.compile(p) for p in req.include_patterns]
    exclude = [re.compile(p) for p in req.exclude_patterns]

    def wanted(url: str) -> bool:
        return (not include or any(p.search(url) for p in include)) and not any(p.search(url) for p in exclude)

    fetcher = Fetcher(req.timeout_seconds, check)
    try:
        fetched: dict[str, Fetched] = {}
        sitemap_found = False
        if req.only:
            urls = list(dict.fromkeys(req.only))
        else:
            check(req.url)
            urls = [u for u in await fetcher.sitemap_urls(req.url) if wanted(u)]
            sitemap_found = bool(urls)
            if not urls:
                urls, fetched = await fetcher.link_crawl(req.url, req.max_pages, wanted)
        page_groups, sampled = (_sample(urls, req) if not req.only
                                else ([{"pattern": "only", "total": len(urls), "sampled": len(urls), "urls": urls}], urls))
        missing = [u for u in sampled if u not in fetched]
        for got in await asyncio.gather(*(fetcher.fetch(u) for u in missing)):
            fetched[got.url] = got
    finally:
        await fetcher.aclose()
    if not sampled:
        raise ValueError(f"no pages discovered at {req.url}")
    pages = [_page(url, fetched.get(url)) for url in sampled]
    for page in pages:
        reasons = needs_browser(page)
        if reasons:
            page["browserRecommended"], page["browserReasons"] = True, reasons
    if render is not None and not req.no_browser and not req.preview:
        await _enrich(pages, req, render)
    if req.preview:
        for page in pages:
            text = page.pop("markdown", "")
            page["charCount"], page["snippet"] = len(text), text[:SNIPPET_CHARS]
    return _report(req, pages, page_groups, sitemap_found, len(urls))


async def _enrich(pages: list[dict[str, Any]], req: ScrapeRequest, render: Renderer) -> None:
    slots = asyncio.Semaphore(req.concurrency)

    async def one(i: int) -> None:
        page = pages[i]
        async with slots:
            try:
                html = await render(page["url"])
            except Exception as exc:
                page["browserError"] = getattr(exc, "message", None) or str(exc) or type(exc).__name__
                return
        rendered = _page(page["url"], None, html)
        if rendered["markdown"]:
            keep = {k: page[k] for k in ("statusCode", "contentType", "browserRecommended", "browserReasons") if k in page}
            pages[i] = {**rendered, **keep, "source": "browser"}

    todo = [i for i, p in enumerate(pages) if p.get("statusCode") not in (404, 410)
            and p.get("error") != ROBOTS_DISALLOWED and (req.enrich_all or p.get("browserRecommended"))]
    await asyncio.gather(*(one(i) for i in todo))


def _report(req: ScrapeRequest, pages: list[dict[str, Any]], groups: list[dict[str, Any]], sitemap: bool,
            discovered: int) -> dict[str, Any]:
    kinds: dict[str, int] = {}
    for p in pages:
        kind = (p.get("contentType") or "").split(";")[0].strip()
        if kind:
            kinds[kind] = kinds.get(kind, 0) + 1
    failed = [p for p in pages if p.get("error") and p["source"] == "http"]
    routed = [p for p in pages if p.get("browserRecommended") and p["source"] == "http"]
    recommendations = []
    if routed and (req.no_browser or req.preview):
        recommendations.append(f"{len(routed)} page(s) need the browser: scrape them without noBrowser/preview "
                               "(or with only=<their URLs>)")
    input_: dict[str, Any] = {"url": req.url, "maxPages": req.max_pages, "maxPerPattern": req.max_per_pattern}
    if req.include_patterns:
        input_["includePatterns"] = req.include_patterns
    if req.exclude_patterns:
        input_["excludePatterns"] = req.exclude_patterns
    home = next((p for p in pages if urlsplit(p["url"]).path in ("", "/", "/index.html")), pages[0])
    return {
        "schemaVersion": SCHEMA_VERSION,
        "generatedAt": datetime.now(timezone.utc).isoformat().replace("+00:00", "Z"),
        "input": input_,
        "site": {"baseUrl": req.url, "title": home.get("title", ""), "sitemapFound": sitemap,
                 "totalDiscovered": discovered, "sampledPages": len(pages)},
        "pageGroups": groups,
        "pages": pages,
        "summary": {"contentTypes": kinds, "httpPages": sum(p["source"] == "http" for p in pages),
                    "browserPages": sum(p["source"] == "browser" for p in pages), "failedPages": len(failed),
                    "recommendations": recommendations},
    }
