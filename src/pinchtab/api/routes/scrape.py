"""PinchTab's site scrape: a whole site to a page tree of markdown, HTTP first, the browser only
for pages whose plain fetch came back thin, blocked or failed."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models.scrape import ScrapeRequest

ROUTES: tuple[Route, ...] = (
    Route("scrape", ("POST",), "/scrape", ScrapeRequest,
          "Scrape a site to a report of markdown pages (schemaVersion 1.0): pages, pageGroups, summary; "
          "each page's source is http or browser", tabbed=False, per_instance=True, mcp=("pinchtab_scrape",),
          cli=("scrape",)),
)
