"""The report's shapes: one page's audit (``POST /audit/page``), its entry in a run's report and the
run's ``AuditReport`` (``POST /audit``), from what the browser layer collected, as PinchTab shapes them.

Empty lists and unset values are left out (as PinchTab's ``omitempty``); ``timingMetrics`` is always there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from pinchtab.audit import SCHEMA_VERSION

# The report names console levels as CDP does (PinchTab's report does too); /console says "warn".
_CONSOLE_LEVELS = {"warn": "warning"}
_NETWORK_KEYS = ("url", "method", "status", "statusText", "resourceType", "mimeType", "startTime", "duration",
                 "size", "error")
_TIMING_KEYS = ("ttfbMs", "domContentLoadedMs", "loadMs", "fcpMs", "lcpMs", "cls")
_BROWSER_KEYS = ("consoleLogs", "networkRequests", "brokenAssets", "interactiveElements", "accessibilityScore",
                 "timingMetrics")


@dataclass
class Collected:
    """What the browser layer gathered on one loaded page; None where a collector did not run."""

    url: str
    title: str = ""
    screenshot: str | None = None  # base64 PNG
    console: list[dict[str, Any]] | None = None  # /console entries
    network: list[dict[str, Any]] | None = None  # /network entries
    broken: list[dict[str, Any]] | None = None  # /network?broken=true entries
    interactive: list[dict[str, Any]] | None = None  # {ref, role, name, disabled}
    a11y: dict[str, Any] | None = None  # a11y.score()
    timing: dict[str, Any] | None = None  # /timing values
    security: list[dict[str, str]] | None = None
    errors: list[str] = field(default_factory=list)  # collectors that failed: "stage: why"


def _console(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for e in entries:
        item = {"timestamp": e.get("timestamp"), "level": _CONSOLE_LEVELS.get(e["level"], e["level"]),
                "message": e.get("message", "")}
        if e.get("source"):
            item["source"] = e["source"]
        out.append(item)
    return out


def _request(e: dict[str, Any]) -> dict[str, Any]:
    out = {k: e[k] for k in _NETWORK_KEYS if e.get(k) not in (None, "", 0)}
    if e.get("failed") or (e.get("status") or 0) >= 400:
        out["failed"] = True
    return out


def _broken(e: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"url": e["url"], "resourceType": e["resourceType"]}
    if e.get("statusCode"):
        out["status"] = e["statusCode"]
    if e.get("error"):
        out["error"] = e["error"]
    return out


def _element(n: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"ref": n["ref"], "role": n["role"]}
    if n.get("name"):
        out["name"] = n["name"]
    if n.get("disabled"):
        out["disabled"] = True
    out["visible"] = True  # the snapshot lists rendered elements only
    return out


def page_audit(c: Collected) -> dict[str, Any]:
    """``POST /audit/page``'s answer: the page's data at the top level."""
    out: dict[str, Any] = {"url": c.url}
    if c.title:
        out["title"] = c.title
    if c.errors:
        out["error"] = "; ".join(c.errors)
    if c.screenshot:
        out["screenshot"] = c.screenshot
    if c.a11y and c.a11y["findings"]:
        out["a11yFindings"] = c.a11y["findings"]
    if c.security:
        out["securityFindings"] = c.security
    lists = (("consoleLogs", c.console and _console(c.console)), ("networkRequests", c.network and [
        _request(e) for e in c.network]), ("brokenAssets", c.broken and [_broken(e) for e in c.broken]),
        ("interactiveElements", c.interactive and [_element(n) for n in c.interactive]))
    out.update((k, v) for k, v in lists if v)
    if c.a11y is not None:
        out["accessibilityScore"] = c.a11y["score"]
    out["timingMetrics"] = {k: c.timing[k] for k in _TIMING_KEYS if c.timing and c.timing.get(k)}
    return out


def page_error(url: str, error: str) -> dict[str, Any]:
    """The entry of a page that could not be loaded: the run goes on."""
    return {"url": url, "error": error, "timingMetrics": {}}


def page_result(audit: dict[str, Any]) -> dict[str, Any]:
    """A page's entry in a run's report: its browser data under ``browser``."""
    out = {k: audit[k] for k in ("url", "title", "error", "screenshot", "securityFindings") if k in audit}
    out["browser"] = {k: audit[k] for k in _BROWSER_KEYS if k in audit}
    return out


def summary_score(pages: list[dict[str, Any]]) -> int:
    """The mean accessibility score of the pages the browser audited without error (0 when none was);
    an entry of a crawler's summary alone (``seaportal.only_entry``) has no browser data."""
    scores = [p["browser"].get("accessibilityScore", 0) for p in pages if not p.get("error") and p["browser"]]
    return sum(scores) // len(scores) if scores else 0


def build(pages: list[dict[str, Any]], *, input: dict[str, Any], options: dict[str, Any],
          generated_at: datetime | None = None) -> dict[str, Any]:
    """The run's ``AuditReport``; ``pages`` in planned order."""
    when = generated_at or datetime.now(timezone.utc)
    report: dict[str, Any] = {
        "schemaVersion": SCHEMA_VERSION,
        "generatedAt": when.isoformat(timespec="seconds").replace("+00:00", "Z"),
        "input": input, "options": {k: v for k, v in options.items() if v}, "pages": pages,
        "summaryScore": summary_score(pages),
    }
    findings = [f for p in pages for f in p.get("securityFindings", ())]
    if findings:
        report["securityFindings"] = findings
    return report
