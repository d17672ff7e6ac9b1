"""Reports as Markdown (``pinchtab audit --format md``, ``pinchtab compare --format md``), in PinchTab's
sections; a section with nothing to say is left out."""

from __future__ import annotations

from typing import Any


def _label(page: dict[str, Any]) -> str:
    return page.get("title") or page["url"]


def _ms(value: float | None) -> str:
    return f"{value:.0f} ms" if value else "-"


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _console_errors(page: dict[str, Any]) -> int:
    return sum(1 for e in page["browser"].get("consoleLogs", ()) if e["level"] == "error")


def _recommendations(report: dict[str, Any]) -> list[str]:
    pages = report["pages"]
    out = []
    if any(p["url"].startswith("http://") for p in pages):
        out.append("Serve the site over https.")
    checks = (
        (sum(len(p["browser"].get("brokenAssets", ())) for p in pages),
         "Fix {} broken asset reference(s) — see Broken Assets."),
        (sum(_console_errors(p) for p in pages), "Investigate {} console error(s) — see Console & JS Errors."),
        (sum(1 for p in pages if not p.get("error") and p["browser"].get("accessibilityScore", 100) < 100),
         "Improve accessibility on {} page(s) scoring below 100 — see Usability Issues."),
        (len(report.get("securityFindings", ())), "Address {} security finding(s) — see Security Findings."),
        (sum(1 for p in pages if p.get("error")), "Re-check {} page(s) that failed to audit."),
    )
    out += [text.format(n) for n, text in checks if n]
    return out


def audit_report(report: dict[str, Any]) -> str:
    pages = report["pages"]
    lines = ["# Site Audit Report", "", f"- Schema version: {report['schemaVersion']}",
             f"- Generated: {report['generatedAt']}", f"- Pages audited: {len(pages)}", "", "## Summary", "",
             f"**Summary score: {report['summaryScore']}/100**", "",
             "| Page | Score | Load | Broken assets | Console errors | Status |", "|---|---|---|---|---|---|"]
    for p in pages:
        b = p["browser"]
        status = f"error: {p['error']}" if p.get("error") else "ok"
        lines.append(f"| {_cell(_label(p))} | {b.get('accessibilityScore', 0)} | "
                     f"{_ms(b.get('timingMetrics', {}).get('loadMs'))} | {len(b.get('brokenAssets', ()))} | "
                     f"{_console_errors(p)} | {_cell(status)} |")
    lines.append("")
    if any(p["browser"].get("interactiveElements") for p in pages):
        lines += ["## Content & Functionality", "", "| Page | Title | Interactive elements |", "|---|---|---|"]
        lines += [f"| {p['url']} | {_cell(p.get('title', ''))} | {len(p['browser'].get('interactiveElements', ()))} |"
                  for p in pages]
        lines.append("")
    timed = [p for p in pages if p["browser"].get("timingMetrics")]
    if timed:
        lines += ["## Performance", "", "| Page | TTFB | FCP | LCP | CLS | DOMContentLoaded | Load |",
                  "|---|---|---|---|---|---|---|"]
        for p in timed:
            t = p["browser"]["timingMetrics"]
            lines.append(f"| {_cell(_label(p))} | {_ms(t.get('ttfbMs'))} | {_ms(t.get('fcpMs'))} | "
                         f"{_ms(t.get('lcpMs'))} | {t.get('cls', 0):.2f} | {_ms(t.get('domContentLoadedMs'))} | "
                         f"{_ms(t.get('loadMs'))} |")
        lines.append("")
    noisy = [(p, [e for e in p["browser"].get("consoleLogs", ()) if e["level"] in ("error", "warning")])
             for p in pages]
    if any(problems for _, problems in noisy):
        lines += ["## Console & JS Errors", ""]
        for p, problems in noisy:
            if problems:
                lines += [f"### {_label(p)}", ""] + [f"- `{e['level']}` {e['message']}" for e in problems] + [""]
    broken = [(p, a) for p in pages for a in p["browser"].get("brokenAssets", ())]
    if broken:
        lines += ["## Broken Assets", "", "| Page | Asset | Type | Status |", "|---|---|---|---|"]
        lines += [f"| {_cell(_label(p))} | {a['url']} | {a['resourceType']} | {a.get('status') or a.get('error', '')} |"
                  for p, a in broken]
        lines.append("")
    low = [p for p in pages if not p.get("error") and p["browser"].get("accessibilityScore", 100) < 100]
    if low:
        lines += ["## Usability Issues", ""]
        lines += [f"- {_label(p)}: accessibility score {p['browser']['accessibilityScore']}/100" for p in low]
        lines.append("")
    if report.get("securityFindings"):
        lines += ["## Security Findings", ""]
        lines += [f"- **{f['ruleId']}** [{f['severity']}]: {f['detail']} ({f['url']})" for f in report["securityFindings"]]
        lines.append("")
    recommendations = _recommendations(report)
    if recommendations:
        lines += ["## Recommendations", ""] + [f"{i}. {r}" for i, r in enumerate(recommendations, 1)] + [""]
    return "\n".join(lines)


def comparison_report(report: dict[str, Any]) -> str:
    lines = ["# Site Comparison Report", "", f"- Schema version: {report['schemaVersion']}",
             f"- Generated: {report['generatedAt']}", f"- Live: {report['liveBase']}",
             f"- Staging: {report['stagingBase']}", f"- Differences: {'yes' if report['hasDiffs'] else 'none'}", "",
             "| Page | Status | Visual diff | Drift | Error |", "|---|---|---|---|---|"]
    for p in report["pages"]:
        visual = "-" if p.get("diffPercentage") is None else f"{p['diffPercentage']:.2f} %"
        drift = ", ".join(f"{d['field']}: {d['live']} → {d['staging']}" for d in p["drift"]) or "-"
        lines.append(f"| {_cell(p['path'] or '/')} | {p['status']} | {visual} | {_cell(drift)} | "
                     f"{_cell(p.get('error', ''))} |")
    lines.append("")
    return "\n".join(lines)
