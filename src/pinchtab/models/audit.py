"""Audits (PinchTab's ``POST /audit``, ``POST /audit/page``, ``GET /a11y/audit``): which pages, and which
collectors run on each."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from pinchtab.models.base import ApiModel, Printable

MAX_AUDIT_URLS = 500  # pages of one run, after sampling; a sitemap may list more
MAX_SEAPORTAL_RESULTS = 5000  # entries of seaportalResults, before sampling
MAX_AUDIT_CONCURRENCY = 8  # each worker drives a tab of its own
DEFAULT_AUDIT_CONCURRENCY = 2
AUDIT_RUN_TIMEOUT_S = 600.0  # a whole POST /audit run (PinchTab's 10 minutes)
AUDIT_PAGE_TIMEOUT_S = 180.0  # one POST /audit/page: load and collect
COLLECTORS = ("screenshot", "network", "console", "a11y", "timing", "elements", "security")


class AuditCollectors(ApiModel):
    """Every collector runs unless set to false."""

    screenshot: bool | None = Field(None, description="A PNG of the viewport (base64), default on.")
    network: bool | None = Field(None, description="The page's requests and its broken assets, default on.")
    console: bool | None = Field(None, description="Console messages during the load, default on.")
    a11y: bool | None = Field(None, description="Accessibility score and findings (axe-core), default on.")
    timing: bool | None = Field(None, description="Navigation timing and Core Web Vitals, default on.")
    elements: bool | None = Field(None, description="The interactive elements of the snapshot, default on.")
    security: bool | None = Field(None, description="Rule-based security findings, default on.")

    def enabled(self) -> frozenset[str]:
        return frozenset(name for name in COLLECTORS if getattr(self, name) is not False)


class AuditPageRequest(ApiModel):
    url: Printable = Field(..., min_length=1, description="The page to audit, in a tab of its own.")
    options: AuditCollectors | None = Field(None, description="Collectors to turn off (all run by default).")


class AuditRequest(ApiModel):
    urls: list[Printable] | None = Field(None, max_length=MAX_AUDIT_URLS,
                                         description="Pages to audit; the first is the entry page, audited first.")
    sitemap_url: Printable | None = Field(None, description="A sitemap.xml (or sitemap index) listing the pages.")
    options: AuditCollectors | None = Field(None, description="Collectors to turn off (all run by default).")
    concurrency: int | None = Field(None, ge=0, description=f"Pages audited at once, at most "
                                                            f"{MAX_AUDIT_CONCURRENCY} (default "
                                                            f"{DEFAULT_AUDIT_CONCURRENCY}).")
    sample_size: int | None = Field(None, ge=0, description="At most this many pages per URL template "
                                                            "(/products/p1..pN), chosen in URL order; 0 keeps all.")
    seaportal_results: list[dict[str, Any]] | None = Field(
        None, max_length=MAX_SEAPORTAL_RESULTS,
        description="PinchTab's SeaPortal input (an HTTP crawler's results: url, title, description, statusCode, "
                    "profile.browserRecommended, ...): the pages it sends to the browser are audited, the others "
                    "are entries of their summary (seaportal). Wins over urls and sitemapUrl.")
    seaportal_file: Printable | None = Field(None, max_length=4096,
                                             description="Where seaportalResults came from, for the report's input.")
    enrich_all: bool | None = Field(None, description="With seaportalResults: audit every page in the browser.")
