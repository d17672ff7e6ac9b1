"""Reports as documents: Markdown (``--format md``) and self-contained HTML (``--format html``, inline CSS,
screenshots linked relatively; ``--format pdf`` prints it). One list of blocks in PinchTab's sections,
two ways to write it; a section with nothing to say is left out."""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

CSS = """
body { font-family: -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #1a1a2e; }
h1 { border-bottom: 2px solid #0a6cff; padding-bottom: .3rem; }
h2 { margin-top: 2rem; border-bottom: 1px solid #d0d4dd; padding-bottom: .2rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { border: 1px solid #d0d4dd; padding: .35rem .6rem; text-align: left; font-size: .92rem; }
th { background: #f2f4f8; }
.score { font-size: 1.3rem; font-weight: 700; }
img.screenshot { max-width: 100%; border: 1px solid #d0d4dd; margin: .3rem 0 1rem; }
code { background: #f2f4f8; padding: .1rem .3rem; border-radius: 3px; }
"""


@dataclass(frozen=True)
class Block:
    kind: str  # h1, h2, h3, p, score, table, list, olist, image
    text: str = ""
    rows: tuple[tuple[str, ...], ...] = ()  # a table's header row first; a list's items (one cell each)


def _label(page: dict[str, Any]) -> str:
    return page.get("title") or page["url"]


def _ms(value: float | None) -> str:
    return f"{value:.0f} ms" if value else "-"


def _plain(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _console_errors(page: dict[str, Any]) -> int:
    return sum(1 for e in page["browser"].get("consoleLogs", ()) if e["level"] == "error")


def _table(header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> Block:
    return Block("table", rows=(header, *(tuple(str(c) for c in r) for r in rows)))


def _list(items: list[str], ordered: bool = False) -> Block:
    return Block("olist" if ordered else "list", rows=tuple((i,) for i in items))


def recommendations(report: dict[str, Any]) -> list[str]:
    pages = report["pages"]
    out = ["Serve the site over https."] if any(p["url"].startswith("http://") for p in pages) else []
    checks = (
        (sum(len(p["browser"].get("brokenAssets", ())) for p in pages),
         "Fix {} broken asset reference(s) — see Broken Assets."),
        (sum(_console_errors(p) for p in pages), "Investigate {} console error(s) — see Console & JS Errors."),
        (sum(1 for p in pages if not p.get("error") and p["browser"].get("accessibilityScore", 100) < 100),
         "Improve accessibility on {} page(s) scoring below 100 — see Usability Issues."),
        (len(report.get("securityFindings", ())), "Address {} security finding(s) — see Security Findings."),
        (sum(1 for p in pages if p.get("error")), "Re-check {} page(s) that failed to audit."),
    )
    return out + [text.format(n) for n, text in checks if n]


def audit_blocks(report: dict[str, Any]) -> list[Block]:
    pages = report["pages"]
    out = [Block("h1", "Site Audit Report"),
           Block("p", f"Schema version {report['schemaVersion']} · generated {report['generatedAt']} · "
                      f"{len(pages)} page(s)"),
           Block("h2", "Summary"), Block("score", f"Summary score: {report['summaryScore']}/100"),
           _table(("Page", "Score", "Load", "Broken assets", "Console errors", "Status"), [
               (_label(p), p["browser"].get("accessibilityScore", 0),
                _ms(p["browser"].get("timingMetrics", {}).get("loadMs")), len(p["browser"].get("brokenAssets", ())),
                _console_errors(p), f"error: {p['error']}" if p.get("error") else "ok") for p in pages])]
    if any(p.get("seaportal") for p in pages):  # the crawler's summaries of a seaportalResults run
        out.append(Block("h2", "SEO & Metadata"))
        for p in pages:
            if p.get("seaportal"):
                out += [Block("h3", _label(p)), _list([f"{k}: {_plain(v)}" for k, v in sorted(p["seaportal"].items())])]
    if any(p["browser"].get("interactiveElements") for p in pages):
        out += [Block("h2", "Content & Functionality"), _table(("Page", "Title", "Interactive elements"), [
            (p["url"], p.get("title", ""), len(p["browser"].get("interactiveElements", ()))) for p in pages])]
    timed = [p for p in pages if p["browser"].get("timingMetrics")]
    if timed:
        rows = []
        for p in timed:
            t = p["browser"]["timingMetrics"]
            rows.append((_label(p), _ms(t.get("ttfbMs")), _ms(t.get("fcpMs")), _ms(t.get("lcpMs")),
                         f"{t.get('cls', 0):.2f}", _ms(t.get("domContentLoadedMs")), _ms(t.get("loadMs"))))
        out += [Block("h2", "Performance"),
                _table(("Page", "TTFB", "FCP", "LCP", "CLS", "DOMContentLoaded", "Load"), rows)]
    noisy = [(p, [e for e in p["browser"].get("consoleLogs", ()) if e["level"] in ("error", "warning")])
             for p in pages]
    if any(problems for _, problems in noisy):
        out.append(Block("h2", "Console & JS Errors"))
        for p, problems in noisy:
            if problems:
                out += [Block("h3", _label(p)), _list([f"`{e['level']}` {e['message']}" for e in problems])]
    broken = [(p, a) for p in pages for a in p["browser"].get("brokenAssets", ())]
    if broken:
        out += [Block("h2", "Broken Assets"), _table(("Page", "Asset", "Type", "Status"), [
            (_label(p), a["url"], a["resourceType"], a.get("status") or a.get("error", "")) for p, a in broken])]
    low = [p for p in pages if not p.get("error") and p["browser"].get("accessibilityScore", 100) < 100]
    if low:
        out += [Block("h2", "Usability Issues"), _list([
            f"{_label(p)}: accessibility score {p['browser']['accessibilityScore']}/100" for p in low])]
    if report.get("securityFindings"):
        out += [Block("h2", "Security Findings"), _list([
            f"**{f['ruleId']}** [{f['severity']}]: {f['detail']} ({f['url']})" for f in report["securityFindings"]])]
    advice = recommendations(report)
    if advice:
        out += [Block("h2", "Recommendations"), _list(advice, ordered=True)]
    shots = [p for p in pages if p["browser"].get("screenshotPath")]
    if shots:
        out.append(Block("h2", "Screenshots"))
        for p in shots:
            out += [Block("h3", _label(p)), Block("image", p["browser"]["screenshotPath"], rows=((_label(p),),))]
    return out


def comparison_blocks(report: dict[str, Any]) -> list[Block]:
    rows = []
    for p in report["pages"]:
        visual = "-" if p.get("diffPercentage") is None else f"{p['diffPercentage']:.2f} %"
        drift = ", ".join(f"{d['field']}: {d['live']} → {d['staging']}" for d in p["drift"]) or "-"
        rows.append((p["path"] or "/", p["status"], visual, drift, p.get("error", "")))
    return [Block("h1", "Site Comparison Report"),
            Block("p", f"Schema version {report['schemaVersion']} · generated {report['generatedAt']} · "
                       f"live {report['liveBase']} · staging {report['stagingBase']}"),
            Block("score", f"Differences: {'yes' if report['hasDiffs'] else 'none'}"),
            _table(("Page", "Status", "Visual diff", "Drift", "Error"), rows)]


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(blocks: list[Block]) -> str:
    lines: list[str] = []
    for b in blocks:
        if b.kind in ("h1", "h2", "h3"):
            lines += ["#" * int(b.kind[1]) + " " + b.text, ""]
        elif b.kind == "score":
            lines += [f"**{b.text}**", ""]
        elif b.kind == "p":
            lines += [b.text, ""]
        elif b.kind == "table":
            header, *rows = b.rows
            lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            lines += ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows] + [""]
        elif b.kind in ("list", "olist"):
            lines += [(f"{i}. " if b.kind == "olist" else "- ") + r[0] for i, r in enumerate(b.rows, 1)] + [""]
        elif b.kind == "image":
            lines += [f"![{b.rows[0][0]}]({b.text})", ""]
    return "\n".join(lines)


def _inline(text: str) -> str:
    """Markdown's `code` and **strong** of list items, as HTML."""
    out, parts = [], html.escape(text).split("`")
    for i, part in enumerate(parts):
        out.append(f"<code>{part}</code>" if i % 2 else part)
    strong = "".join(out).split("**")
    return "".join(f"<strong>{s}</strong>" if i % 2 else s for i, s in enumerate(strong))


def to_html(blocks: list[Block], title: str) -> str:
    body: list[str] = []
    for b in blocks:
        if b.kind in ("h1", "h2", "h3"):
            body.append(f"<{b.kind}>{html.escape(b.text)}</{b.kind}>")
        elif b.kind == "score":
            body.append(f'<p class="score">{html.escape(b.text)}</p>')
        elif b.kind == "p":
            body.append(f"<p>{html.escape(b.text)}</p>")
        elif b.kind == "table":
            header, *rows = b.rows
            cells = "".join(f"<th>{html.escape(h)}</th>" for h in header)
            trs = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>\n" for r in rows)
            body.append(f"<table>\n<tr>{cells}</tr>\n{trs}</table>")
        elif b.kind in ("list", "olist"):
            tag = "ol" if b.kind == "olist" else "ul"
            body.append(f"<{tag}>\n" + "".join(f"<li>{_inline(r[0])}</li>\n" for r in b.rows) + f"</{tag}>")
        elif b.kind == "image":
            alt = html.escape(f"Screenshot of {b.rows[0][0]}")
            body.append(f'<img class="screenshot" src="{html.escape(b.text)}" alt="{alt}">')
    return (f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{html.escape(title)}</title>\n'
            f"<style>{CSS}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n")


def audit_report(report: dict[str, Any], fmt: str) -> str:
    blocks = audit_blocks(report)
    return markdown(blocks) if fmt == "md" else to_html(blocks, "Site Audit Report")


def comparison_report(report: dict[str, Any], fmt: str) -> str:
    blocks = comparison_blocks(report)
    return markdown(blocks) if fmt == "md" else to_html(blocks, "Site Comparison Report")
