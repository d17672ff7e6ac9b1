"""One page's HTML to PinchTab's page fields: title, meta description, JSON-LD, link counts, and
its main content as markdown (readability-lxml finds the main content, markdownify writes it)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

import lxml.html
from markdownify import markdownify
from readability import Document

_BLANK_LINES = re.compile(r"\n{3,}")


@dataclass
class Extracted:
    title: str = ""
    markdown: str = ""
    meta: dict[str, str] = field(default_factory=dict)
    schema: list[dict[str, Any]] = field(default_factory=list)
    links: list[str] = field(default_factory=list)  # absolute http(s) URLs, in page order
    internal_links: int = 0
    external_links: int = 0


def extract(html: str, url: str) -> Extracted:
    out = Extracted()
    if not html.strip():
        return out
    try:
        tree = lxml.html.fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return out
    out.title = (tree.findtext(".//title") or "").strip()
    for meta in tree.iter("meta"):
        name = (meta.get("name") or meta.get("property") or "").lower()
        if name in ("description", "og:description", "keywords") and meta.get("content"):
            out.meta[name] = meta.get("content", "").strip()
    for script in tree.xpath('//script[@type="application/ld+json"]'):
        try:
            data = json.loads(script.text or "")
        except ValueError:
            continue
        out.schema.extend(d for d in (data if isinstance(data, list) else [data]) if isinstance(d, dict))
    host = urlsplit(url).hostname
    seen: set[str] = set()
    for a in tree.iter("a"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:")):
            continue
        target = urljoin(url, href).split("#", 1)[0]
        if urlsplit(target).scheme not in ("http", "https") or target in seen:
            continue
        seen.add(target)
        out.links.append(target)
        if urlsplit(target).hostname == host:
            out.internal_links += 1
        else:
            out.external_links += 1
    try:
        doc = Document(html, url=url)
        main = doc.summary(html_partial=True)
        out.title = out.title or doc.short_title()
    except Exception:  # readability raises its own Unparseable and lxml errors on odd markup
        main = ""
    text = markdownify(main, heading_style="ATX", strip=["img"]) if main else ""
    out.markdown = _BLANK_LINES.sub("\n\n", text).strip()
    return out
