"""``pinchtab scrape``: a site to a page tree of markdown (POST /scrape) with PinchTab's flags,
printed as a summary, JSON or Markdown, or written to --output-dir as report.json (and report.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from pinchtab import models
from pinchtab.commands.run_auth import run_auth_options, run_client
from pinchtab.commands.table import INSPECT, Ctx, command, option
from pinchtab.models.scrape import SCRAPE_RUN_TIMEOUT_S


def _summary(report: dict[str, Any], preview: bool) -> str:
    pages, summary = report["pages"], report["summary"]
    if preview:
        lines = [f"Preview: {len(pages)} page(s) discovered of {report['site']['totalDiscovered']} · "
                 "pick pages to expand with --only"]
        for p in pages:
            verdict = f" · needs browser: {','.join(p['browserReasons'])}" if p.get("browserRecommended") else ""
            if p.get("error"):
                lines.append(f"  {p['url']} · error: {p['error']}")
                continue
            lines.append(f"  {p['url']} · {p.get('charCount', 0)} chars{verdict}")
            if p.get("snippet"):
                lines.append(f"      {p['snippet']}")
        return "\n".join(lines)
    lines = [f"Scraped {len(pages)} page(s) · {summary['httpPages']} http · {summary['browserPages']} "
             f"browser-rendered · {summary['failedPages']} failed"]
    for p in pages:
        status = f"source: {p['source']}" + (f" · browser failed: {p['browserError']}" if p.get("browserError") else "")
        lines.append(f"  {p['url']} · {'error: ' + p['error'] if p.get('error') else status}")
    return "\n".join(lines)


@command("scrape", INSPECT, tab=False)
@click.argument("url")
@option(models.ScrapeRequest, "max_pages")
@option(models.ScrapeRequest, "max_per_pattern")
@option(models.ScrapeRequest, "include_patterns", "--include", "include_patterns", multiple=True, metavar="REGEX")
@option(models.ScrapeRequest, "exclude_patterns", "--exclude", "exclude_patterns", multiple=True, metavar="REGEX")
@option(models.ScrapeRequest, "concurrency")
@option(models.ScrapeRequest, "enrich_all")
@option(models.ScrapeRequest, "no_browser")
@option(models.ScrapeRequest, "preview")
@option(models.ScrapeRequest, "only", multiple=True, metavar="URL")
@option(models.ScrapeRequest, "timeout_seconds", "--timeout", "timeout_seconds")
@click.option("--format", "fmt", type=click.Choice(["json", "md"]), default="json", show_default=True,
              help="Report format: md prints (or writes report.md) a Markdown digest of the pages.")
@click.option("--output-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write report.json (and report.md with --format md) to this directory.")
@run_auth_options
def scrape(ctx: Ctx, url: str, max_pages: int | None, max_per_pattern: int | None, include_patterns: tuple[str, ...],
           exclude_patterns: tuple[str, ...], concurrency: int | None, enrich_all: bool, no_browser: bool,
           preview: bool, only: tuple[str, ...], timeout_seconds: float | None, fmt: str, output_dir: Path | None,
           profile: str | None, cookie_flags: tuple[str, ...], cookies_file: Path | None) -> None:
    """Scrape a site into a page tree of markdown: pages found from its sitemaps or links and
    fetched over HTTP first; those whose HTTP content came back thin, blocked or failed are
    rendered in the browser. Each page says whether its content came over http or from the
    browser. A page that fails in both does not fail the run: it is an entry with "error".

    \b
    Example:
      pinchtab scrape https://example.com --preview
      pinchtab scrape https://example.com --only https://example.com/pricing --format md
    """
    from pinchtab.scrape.render import markdown

    fields = {"max_pages": max_pages, "max_per_pattern": max_per_pattern, "include_patterns": list(include_patterns),
              "exclude_patterns": list(exclude_patterns), "concurrency": concurrency, "enrich_all": enrich_all or None,
              "no_browser": no_browser or None, "preview": preview or None, "only": list(only),
              "timeout_seconds": timeout_seconds}
    with run_client(ctx, profile, cookie_flags, cookies_file, [url, *only]) as client:
        report = client.call("scrape", wait_ms=SCRAPE_RUN_TIMEOUT_S * 1000, url=url,
                             **{k: v for k, v in fields.items() if v not in (None, [])})
    if output_dir is not None:
        output_dir.mkdir(parents=True, exist_ok=True)
        (output_dir / "report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        if fmt == "md":
            (output_dir / "report.md").write_text(markdown(report))
        click.echo(f"report written to {output_dir / 'report.json'}", err=True)
    elif fmt == "md" and not ctx.as_json:
        click.echo(markdown(report), nl=False)
        return
    ctx.out(report, lambda r: _summary(r, preview))
