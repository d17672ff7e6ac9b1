"""The HTTP half of a scrape: fetching politely (robots.txt obeyed, a bounded number of requests per
host at once and a minimum gap between them), and discovering a site's pages from its sitemaps or,
without one, by following its links."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit
from urllib.robotparser import RobotFileParser

import httpx

from pinchtab import __version__
from pinchtab.scrape.extract import extract

USER_AGENT = f"pinchtab-scrape/{__version__} (+https://github.com/pinchtab/pinchtab)"
PER_HOST = 4  # requests to one host at once
MIN_GAP_SEC = 0.05  # between two requests to one host (robots.txt's Crawl-delay may ask for more)
MAX_CRAWL_DELAY_SEC = 5.0
MAX_BODY_BYTES = 5 << 20
MAX_SITEMAPS = 10
ROBOTS_DISALLOWED = "disallowed by robots.txt"
_LOC = re.compile(r"<loc>\s*([^<\s]+)\s*</loc>", re.I)


@dataclass
class Fetched:
    url: str
    status: int = 0
    content_type: str = ""
    html: str = ""
    error: str = ""


class Fetcher:
    """One scrape's HTTP client: HTTP/2 when the server offers it, robots.txt per host, a
    semaphore and a pace per host. ``check(url)`` may refuse a URL (the allow-list) by raising."""

    def __init__(self, timeout: float, check: Callable[[str], None]) -> None:
        self.client = httpx.AsyncClient(http2=True, follow_redirects=True, timeout=timeout,
                                        headers={"User-Agent": USER_AGENT}, max_redirects=5)
        self.check = check
        self._robots: dict[str, RobotFileParser | None] = {}
        self._slots: dict[str, asyncio.Semaphore] = {}
        self._next: dict[str, float] = {}
        self._gap: dict[str, float] = {}

    async def aclose(self) -> None:
        await self.client.aclose()

    async def _get(self, url: str) -> httpx.Response:
        host = urlsplit(url).netloc
        slot = self._slots.setdefault(host, asyncio.Semaphore(PER_HOST))
        async with slot:
            now = time.monotonic()
            start = max(now, self._next.get(host, now))
            self._next[host] = start + self._gap.get(host, MIN_GAP_SEC)
            if start > now:
                await asyncio.sleep(start - now)
            return await self.client.get(url)

    async def robots(self, url: str) -> RobotFileParser | None:
        parts = urlsplit(url)
        root = f"{parts.scheme}://{parts.netloc}"
        if root not in self._robots:
            parser: RobotFileParser | None = None
            try:
                res = await self._get(root + "/robots.txt")
                if res.status_code == 200:
                    parser = RobotFileParser()
                    parser.parse(res.text.splitlines())
                    delay = parser.crawl_delay(USER_AGENT)
                    if delay:
                        self._gap[parts.netloc] = min(float(delay), MAX_CRAWL_DELAY_SEC)
            except httpx.HTTPError:
                parser = None
            self._robots[root] = parser
        return self._robots[root]

    async def allowed(self, url: str) -> bool:
        parser = await self.robots(url)
        return parser is None or parser.can_fetch(USER_AGENT, url)

    async def fetch(self, url: str) -> Fetched:
        out = Fetched(url)
        try:
            self.check(url)
            if not await self.allowed(url):
                out.error = ROBOTS_DISALLOWED
                return out
            res = await self._get(url)
            self.check(str(res.url))  # a redirect must not leave the allow-list either
        except httpx.HTTPError as exc:
            out.error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            return out
        except Exception as exc:  # the allow-list's refusal
            out.error = getattr(exc, "message", str(exc))
            return out
        out.status, out.content_type = res.status_code, res.headers.get("content-type", "")
        if "html" in out.content_type or not out.content_type:
            out.html = res.content[:MAX_BODY_BYTES].decode(res.encoding or "utf-8", errors="replace")
        return out

    async def sitemap_urls(self, base: str) -> list[str]:
        """Page URLs of the site's sitemaps (robots.txt's Sitemap lines, else /sitemap.xml; an
        index is followed one level)."""
        parts = urlsplit(base)
        root = f"{parts.scheme}://{parts.netloc}"
        parser = await self.robots(base)
        queue = list((parser.site_maps() if parser else None) or [root + "/sitemap.xml"])
        pages: list[str] = []
        read = 0
        while queue and read < MAX_SITEMAPS:
            sitemap = queue.pop(0)
            read += 1
            try:
                self.check(sitemap)
                res = await self._get(sitemap)
            except Exception:
                continue
            if res.status_code != 200 or "<loc>" not in res.text:
                continue
            locs = [urljoin(sitemap, loc) for loc in _LOC.findall(res.text)]
            if "<sitemapindex" in res.text:
                queue.extend(locs)
            else:
                pages.extend(loc for loc in locs if urlsplit(loc).netloc == parts.netloc)
        return list(dict.fromkeys(pages))

    async def link_crawl(self, base: str, limit: int, wanted: Callable[[str], bool]) -> tuple[list[str], dict[str, Fetched]]:
        """Same-host pages reachable by links from ``base``, breadth first, at most ``limit``
        discovered; the pages fetched on the way are kept (not fetched twice)."""
        host = urlsplit(base).netloc
        found: list[str] = [base]
        fetched: dict[str, Fetched] = {}
        frontier = [base]
        while frontier and len(found) < limit * 4:
            pages = await asyncio.gather(*(self.fetch(u) for u in frontier))
            frontier = []
            for page in pages:
                fetched[page.url] = page
                for link in extract(page.html, page.url).links if page.html else ():
                    if urlsplit(link).netloc == host and link not in found and wanted(link):
                        found.append(link)
                        frontier.append(link)
            frontier = frontier[: max(0, limit * 4 - len(fetched))]
        return found, fetched
