"""PinchTab's site scrape (POST /scrape): a site to a page tree of markdown, HTTP first."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field, field_validator

from pinchtab.models.base import ApiModel, Printable, browser_name, printable

MAX_SCRAPE_PAGES = 500
MAX_SCRAPE_CONCURRENCY = 8
SCRAPE_RUN_TIMEOUT_S = 900.0  # a whole POST /scrape run (PinchTab's CLI waits 15 minutes)


class ScrapeRequest(ApiModel):
    url: Printable = Field(..., max_length=4096, description="The site: discovery starts at its host's robots.txt "
                                                              "and sitemaps, else follows links from this page.")
    preview: bool = Field(False, description="Outline only: each page's charCount and snippet instead of its "
                                             "markdown, and no browser rendering.")
    only: list[str] = Field(default_factory=list, max_length=MAX_SCRAPE_PAGES,
                                  description="Scrape exactly these URLs at full fidelity instead of discovering the site.")
    max_pages: int = Field(50, ge=1, le=MAX_SCRAPE_PAGES, description="Pages sampled across the site.")
    max_per_pattern: int = Field(8, ge=1, le=MAX_SCRAPE_PAGES,
                                 description="Pages sampled per URL-pattern group (/blog/*).")
    include_patterns: list[str] = Field(default_factory=list, max_length=50,
                                        description="Only URLs matching one of these regular expressions.")
    exclude_patterns: list[str] = Field(default_factory=list, max_length=50,
                                        description="Skip URLs matching one of these regular expressions.")
    concurrency: int = Field(2, ge=1, le=MAX_SCRAPE_CONCURRENCY, description="Pages rendered in the browser at once.")
    enrich_all: bool = Field(False, description="Render every page (but 404s) in the browser, whatever HTTP gave.")
    no_browser: bool = Field(False, description="HTTP only: routing verdicts are recorded, nothing is rendered.")
    timeout_seconds: float = Field(60, gt=0, le=900, description="Timeout of each HTTP request, in seconds.")
    browser: Annotated[str | None, AfterValidator(browser_name)] = Field(
        None, max_length=64, description="The browser engine: chrome (the one here); others answer 400.")

    @field_validator("only")
    @classmethod
    def _urls(cls, value: list[str]) -> list[str]:
        return [printable(v) for v in value]

    @field_validator("include_patterns", "exclude_patterns")
    @classmethod
    def _regexes(cls, value: list[str]) -> list[str]:
        import re

        for pattern in value:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"{pattern!r} is not a regular expression: {exc}") from None
        return value
