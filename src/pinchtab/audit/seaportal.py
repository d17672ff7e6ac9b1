"""PinchTab's SeaPortal input of ``POST /audit`` (``seaportalResults``): the pages an HTTP crawler found,
each with its summary and whether it needs the browser. Those that do (or all, with ``enrichAll``) are
audited in the browser; the others are entries of their summary alone. Every entry carries the
summary under ``seaportal``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

FORMAT = "seaportal-results/v0"  # the interim format: a JSON array of SeaPortal Result objects


@dataclass(frozen=True)
class SeaportalPage:
    url: str
    title: str
    status_code: int
    browser_recommended: bool
    summary: dict[str, Any]


def pages(results: list[dict[str, Any]]) -> dict[str, SeaportalPage]:
    """URL -> its page, in input order; entries without a URL are dropped, a repeated URL keeps its first."""
    out: dict[str, SeaportalPage] = {}
    for r in results:
        url = r.get("url")
        if not isinstance(url, str) or not url or url in out:
            continue
        profile = r.get("profile") if isinstance(r.get("profile"), dict) else {}
        recommended = profile.get("browserRecommended") is True
        summary = {"title": r.get("title", ""), "description": r.get("description", ""),
                   "confidence": r.get("confidence", 0), "quality": r.get("quality", 0),
                   "decision": profile.get("decision", ""), "browserRecommended": recommended}
        status = r.get("statusCode")
        out[url] = SeaportalPage(url, str(r.get("title") or ""), status if isinstance(status, int) else 0,
                                 recommended, summary)
    return out


def only_entry(page: SeaportalPage) -> dict[str, Any]:
    """The report entry of a page not audited in the browser: its crawler summary."""
    entry: dict[str, Any] = {"url": page.url}
    if page.title:
        entry["title"] = page.title
    if page.status_code:
        entry["statusCode"] = page.status_code
    return {**entry, "seaportal": page.summary, "browser": {}}


def merged(entry: dict[str, Any], page: SeaportalPage) -> dict[str, Any]:
    """A browser-audited entry with the crawler's summary, and its title and status where the browser gave none."""
    out = {**entry, "seaportal": page.summary}
    if not out.get("title") and page.title:
        out["title"] = page.title
    if not out.get("statusCode") and page.status_code:
        out["statusCode"] = page.status_code
    return out
