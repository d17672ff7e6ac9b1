"""``pinchtab audit`` and ``pinchtab compare``: a site audit, or live against staging, written as JSON,
Markdown, HTML or (audit) PDF: to stdout, or with screenshots and diff images under --output-dir."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import click

from pinchtab import models
from pinchtab.commands.run_auth import run_auth_options, run_client
from pinchtab.commands.table import INSPECT, Ctx, command, option
from pinchtab.errors import PinchtabError

_FORMATS = click.Choice(["json", "md", "html"])
_AUDIT_FORMATS = click.Choice(["json", "md", "html", "pdf"])
# Waits for the written report's images, so the PDF shows them.
_WRITE_JS = ("(async () => {{ document.open(); document.write({doc}); document.close(); "
             "await Promise.all([...document.images].map((i) => i.decode().catch(() => null))); return true; }})()")


def _switch(name: str, what: str) -> Any:
    """``--name`` (on), ``--name=false`` (PinchTab's spelling) or ``--name false``."""
    return click.option(f"--{name}", type=click.BOOL, default=True, is_flag=False, flag_value=True,
                        show_default=True, help=f"{what} (--{name}=false to skip).")


def _slug(index: int, url: str) -> str:
    name = re.sub(r"[^A-Za-z0-9]+", "-", url.split("://", 1)[-1]).strip("-")[:80]
    return f"{index:03d}-{name or 'page'}"


def _collectors(screenshot: bool, network: bool) -> dict[str, bool] | None:
    off = {k: False for k, on in (("screenshot", screenshot), ("network", network)) if not on}
    return off or None


def _write(out_dir: Path, report: dict[str, Any], fmt: str, render: Any) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    if fmt in ("md", "html"):
        (out_dir / f"report.{fmt}").write_text(render(report, fmt))
        return out_dir / f"report.{fmt}"
    return out_dir / "report.json"


def _print_pdf(ctx: Ctx, report: dict[str, Any], out_dir: Path) -> Path:
    """The HTML report printed by the browser, screenshots inlined (needs security.allowEvaluate)."""
    from pinchtab.audit import render

    inlined = json.loads(json.dumps(report))
    for page in inlined["pages"]:
        shot = page["browser"].get("screenshotPath")
        if shot:
            page["browser"]["screenshotPath"] = "data:image/png;base64," + base64.b64encode(
                (out_dir / shot).read_bytes()).decode()
    tab = ctx.client.new_tab()["tabId"]
    try:
        ctx.client.evaluate(_WRITE_JS.format(doc=json.dumps(render.audit_report(inlined, "html"))), tab_id=tab)
        (out_dir / "report.pdf").write_bytes(ctx.client.pdf(tab_id=tab))
    finally:
        ctx.client.close_tab(tab)
    return out_dir / "report.pdf"


def _move_screenshots(report: dict[str, Any], out_dir: Path) -> None:
    """Screenshots become files under screenshots/, named in page order; the report names them."""
    for i, page in enumerate(report["pages"]):
        shot = page.pop("screenshot", None)
        if shot:
            rel = Path("screenshots") / f"{_slug(i, page['url'])}.png"
            (out_dir / rel).parent.mkdir(parents=True, exist_ok=True)
            (out_dir / rel).write_bytes(base64.b64decode(shot))
            page["browser"]["screenshotPath"] = str(rel)


def _summary(report: dict[str, Any]) -> str:
    lines = [f"summary score {report['summaryScore']}/100, {len(report['pages'])} page(s)"]
    for p in report["pages"]:
        b = p["browser"]
        state = f"error: {p['error']}" if p.get("error") else (
            f"a11y {b.get('accessibilityScore', 0)}, {len(b.get('brokenAssets', ()))} broken, "
            f"{sum(1 for e in b.get('consoleLogs', ()) if e['level'] == 'error')} console error(s)")
        lines.append(f"  {p['url']}  {state}")
    lines += [f"  [{f['severity']}] {f['ruleId']}: {f['detail']}" for f in report.get("securityFindings", ())]
    return "\n".join(lines)


def _seaportal(file: Path) -> list[dict[str, Any]]:
    try:
        results = json.loads(file.read_text())
    except ValueError as exc:
        raise click.BadParameter(f"{file}: {exc}", param_hint="--seaportal-report") from None
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        raise click.BadParameter(f"{file}: expected a JSON array of SeaPortal results", param_hint="--seaportal-report")
    return results


@command("audit", INSPECT, tab=False)
@click.argument("url", required=False)
@click.option("--sitemap", is_flag=True, help="URL is a sitemap.xml: audit the pages it lists.")
@click.option("--seaportal-report", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="Audit the pages of a SeaPortal results file (a JSON array); only those it marks "
                   "browserRecommended are audited in the browser, the others keep its summary.")
@option(models.AuditRequest, "enrich_all", help="With --seaportal-report: audit every page in the browser.")
@option(models.AuditRequest, "sample_size")
@option(models.AuditRequest, "concurrency")
@_switch("screenshot", "Capture page screenshots")
@_switch("network-monitor", "Collect requests and broken assets")
@click.option("--output-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write report.json (and report.md, .html or .pdf) and screenshots/ here.")
@click.option("--format", "fmt", type=_AUDIT_FORMATS, default="json", show_default=True,
              help="Report format; pdf needs --output-dir and security.allowEvaluate (the browser prints the HTML).")
@run_auth_options
def audit(ctx: Ctx, url: str | None, sitemap: bool, seaportal_report: Path | None, enrich_all: bool,
          sample_size: int | None, concurrency: int | None, screenshot: bool, network_monitor: bool,
          output_dir: Path | None, fmt: str, profile: str | None, cookie_flags: tuple[str, ...],
          cookies_file: Path | None) -> None:
    """Audit a page, or a site's pages from its sitemap: console, network and broken assets,
    interactive elements, accessibility (axe-core), Core Web Vitals timing and security rules.
    A page that fails to load is an entry with "error"; the command still exits 0.

    \b
    Example:
      pinchtab audit https://example.com --output-dir ./audit
      pinchtab audit https://example.com/sitemap.xml --sitemap --sample-size 2 --format md
      pinchtab audit --seaportal-report results.json --json
    """
    from pinchtab.audit import render

    if fmt == "pdf" and output_dir is None:
        raise click.UsageError("--format pdf writes report.pdf: give --output-dir")
    if url is None and seaportal_report is None:
        raise click.UsageError("audit needs a URL argument or --seaportal-report")
    source: dict[str, Any] = {"urls": [url]} if url and not sitemap else {"sitemap_url": url}
    if seaportal_report is not None:
        results = _seaportal(seaportal_report)
        source = {"seaportal_results": results, "seaportal_file": str(seaportal_report), "enrich_all": enrich_all or None}
    scopes = [r.get("url", "") for r in source.get("seaportal_results", ())] or [url or ""]
    with run_client(ctx, profile, cookie_flags, cookies_file, scopes) as client:
        report = client.call("audit", wait_ms=models.AUDIT_RUN_TIMEOUT_S * 1000, concurrency=concurrency,
                             options=_collectors(screenshot, network_monitor), sample_size=sample_size, **source)
    if output_dir is not None:
        _move_screenshots(report, output_dir)
        written = _write(output_dir, report, fmt, render.audit_report)
        if fmt == "pdf":
            try:
                written = _print_pdf(ctx, report, output_dir)
            except PinchtabError as exc:
                click.echo(f"pinchtab: report.json written; printing the PDF failed: {exc.message}", err=True)
                raise SystemExit(1) from None
        ctx.out(report, f"{_summary(report)}\nwrote {written}")
    elif fmt in ("md", "html") and not ctx.as_json:
        click.echo(render.audit_report(report, fmt), nl=False)
    else:
        ctx.out(report, _summary)


@command("compare", INSPECT, tab=False)
@click.argument("live_url")
@click.argument("staging_url")
@click.option("--pages", help="Comma-separated paths under both base URLs (default: the base URLs themselves).")
@_switch("visual-diff", "Capture screenshots and diff them")
@option(models.AuditRequest, "concurrency")
@click.option("--output-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write report.json (and report.md or .html) and diffs/ here.")
@click.option("--format", "fmt", type=_FORMATS, default="json", show_default=True, help="Report format.")
@click.option("--fail-on-diff", is_flag=True, help="Exit 1 when any page differs (a CI gate).")
@run_auth_options
def compare(ctx: Ctx, live_url: str, staging_url: str, pages: str | None, visual_diff: bool,
            concurrency: int | None, output_dir: Path | None, fmt: str, fail_on_diff: bool, profile: str | None,
            cookie_flags: tuple[str, ...], cookies_file: Path | None) -> None:
    """Audit the same pages of two site versions and report what differs: per page a visual diff
    of the screenshots and the data drift (console errors, broken assets, accessibility, load time).

    \b
    Example:
      pinchtab compare https://example.com https://staging.example.com --pages /,pricing --fail-on-diff
    """
    from pinchtab.audit import render
    from pinchtab.audit.compare import compare as compare_runs

    paths = [p.strip().lstrip("/") for p in (pages or "").split(",") if p.strip()] or [""]
    options = _collectors(visual_diff, True)

    def run(client: Any, base: str) -> dict[str, Any]:
        urls = [f"{base.rstrip('/')}/{p}" if p else base for p in paths]
        return client.audit(urls=urls, options=options, concurrency=concurrency)

    with run_client(ctx, profile, cookie_flags, cookies_file, [live_url, staging_url]) as client:
        live, staging = run(client, live_url), run(client, staging_url)
    report, images = compare_runs(live_url, staging_url, live, staging)
    if output_dir is not None:
        for page in report["pages"]:
            image = images.get(page["path"])
            if image:
                rel = Path("diffs") / f"{_slug(0, page['path'] or 'index')[4:]}.diff.png"
                (output_dir / rel).parent.mkdir(parents=True, exist_ok=True)
                (output_dir / rel).write_bytes(image)
                page["diffImagePath"] = str(rel)
        written = _write(output_dir, report, fmt, render.comparison_report)
        ctx.out(report, f"{'differences found' if report['hasDiffs'] else 'no differences'}\nwrote {written}")
    elif fmt in ("md", "html") and not ctx.as_json:
        click.echo(render.comparison_report(report, fmt), nl=False)
    else:
        ctx.out(report, lambda r: render.comparison_report(r, "md"))
    if fail_on_diff and report["hasDiffs"]:
        raise SystemExit(1)
