"""A scrape report as one Markdown digest (PinchTab's ``scrape --format md``): the site, the
recommendations, the page tree by URL pattern, then each page's content."""

from __future__ import annotations

from typing import Any


def markdown(report: dict[str, Any]) -> str:
    site, summary = report["site"], report["summary"]
    lines = [f"# Scrape Report — {site.get('title') or site['baseUrl']}", "",
             f"- Base URL: {site['baseUrl']}",
             f"- Pages: {site['sampledPages']} sampled of {site['totalDiscovered']} discovered",
             f"- Sources: {summary['httpPages']} http · {summary['browserPages']} browser-rendered · "
             f"{summary['failedPages']} failed",
             f"- Generated: {report['generatedAt']}", ""]
    if summary.get("recommendations"):
        lines += ["## Recommendations", "", *(f"- {r}" for r in summary["recommendations"]), ""]
    if report.get("pageGroups"):
        lines += ["## Page Tree", ""]
        for group in report["pageGroups"]:
            lines.append(f"- `{group['pattern']}` ({group['sampled']} sampled of {group['total']})")
            lines += [f"  - {url}" for url in group.get("urls", ())]
        lines.append("")
    lines += ["## Pages", ""]
    for page in report["pages"]:
        status = f" · status: {page['statusCode']}" if page.get("statusCode") else ""
        lines += [f"### {page.get('title') or page['url']}", "", f"{page['url']} · source: {page['source']}{status}", ""]
        if page.get("error"):
            lines += [f"> Failed: {page['error']}", ""]
            continue
        if page.get("browserError"):
            lines += [f"> Browser enrichment failed (HTTP content kept): {page['browserError']}", ""]
        if (page.get("markdown") or "").strip():
            lines += [page["markdown"].strip(), ""]
        elif page.get("snippet"):  # a preview: the body was withheld
            lines += [f"_Preview · {page.get('charCount', 0)} chars_", "", f"> {page['snippet']}", ""]
    return "\n".join(lines)
