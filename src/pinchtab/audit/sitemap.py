"""Pages from a sitemap: ``<urlset>`` lists them, a ``<sitemapindex>`` lists more sitemaps (followed a few
levels deep). Plain HTTP; the pages themselves are loaded by the browser."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Awaitable, Callable

Parse = Callable[[bytes], Awaitable[tuple[list[str], list[str]]]]

MAX_SITEMAP_BYTES = 10 * 1024 * 1024
MAX_DEPTH = 3
MAX_SITEMAPS = 50
TIMEOUT_S = 15.0


class SitemapError(Exception):
    pass


def parse(xml: bytes) -> tuple[list[str], list[str]]:
    """``(pages, child sitemaps)`` of one sitemap document, in document order."""
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as exc:
        raise SitemapError(f"not a sitemap: {exc}") from None
    kind = root.tag.rsplit("}", 1)[-1]
    locs = [el.text.strip() for el in root.iter() if el.tag.rsplit("}", 1)[-1] == "loc" and el.text and el.text.strip()]
    if kind == "sitemapindex":
        return [], locs
    if kind != "urlset":
        raise SitemapError(f"not a sitemap: the root element is <{kind}>, not <urlset> or <sitemapindex>")
    return locs, []


async def discover(url: str, *, parse: Parse) -> list[str]:
    """Every page the sitemap at ``url`` lists, through its sitemap indexes; ``parse`` runs ``parse()``
    (the caller keeps it off the event loop)."""
    import httpx  # on first use: a bridge loads this module at start and needs no HTTP client of its own

    pages: list[str] = []
    queue, seen = [(url, 0)], {url}
    async with httpx.AsyncClient(follow_redirects=True, timeout=TIMEOUT_S) as client:
        while queue:
            current, depth = queue.pop(0)
            try:
                res = await client.get(current)
            except httpx.HTTPError as exc:
                raise SitemapError(f"could not fetch {current}: {exc}") from None
            if res.status_code >= 400:
                raise SitemapError(f"{current} answered HTTP {res.status_code}")
            if len(res.content) > MAX_SITEMAP_BYTES:
                raise SitemapError(f"{current} is larger than {MAX_SITEMAP_BYTES // 1048576} MB")
            found, children = await parse(res.content)
            pages += found
            for child in children:
                if depth + 1 <= MAX_DEPTH and child not in seen and len(seen) < MAX_SITEMAPS:
                    seen.add(child)
                    queue.append((child, depth + 1))
    return pages
