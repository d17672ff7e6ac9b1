"""Audits: one page, a site (URL list or sitemap) and the current page's accessibility."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models import TabScoped
from pinchtab.models.audit import AuditPageRequest, AuditRequest

ROUTES: tuple[Route, ...] = (
    Route("audit", ("POST",), "/audit", AuditRequest,
          "Audit pages (urls or a sitemap) into a versioned report: console, network, broken assets, "
          "interactive elements, accessibility, timing, security", tabbed=False, per_instance=True, cli=("audit",)),
    Route("audit_page", ("POST",), "/audit/page", AuditPageRequest, "Audit one page in a tab of its own",
          tabbed=False),
    Route("a11y_audit", ("GET",), "/a11y/audit", TabScoped,
          "Accessibility score and findings of the page (axe-core rules, PinchTab's rule names)",
          cli=("a11y-audit",)),
)
