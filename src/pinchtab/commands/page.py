"""Commands that drive and read a page: nav, snap, the action kinds, find, text, screenshot, pdf,
eval, tabs, close, health."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from pinchtab import models
from pinchtab.commands.table import DRIVE, INSPECT, RUN, Ctx, command, option


def _location(v: dict[str, Any]) -> str:
    return f"{v.get('title', '')}\n{v.get('url', '')}\ntab {v.get('tabId', '')}"


def action_text(v: dict[str, Any]) -> str:
    words = {"click": "clicked", "dblclick": "double-clicked", "type": "typed into", "fill": "filled",
             "press": "pressed", "hover": "hovered", "focus": "focused", "select": "selected in",
             "scroll": "scrolled", "check": "checked", "uncheck": "unchecked"}
    line = f"{words.get(v.get('kind', ''), v.get('kind', 'done'))} {v.get('ref', '')}".rstrip()
    rec = v.get("recovery")
    if rec and rec.get("recovered"):
        line += f" (stale {rec['original_ref']} recovered as {rec['new_ref']}, score {rec['score']})"
    if v.get("result"):
        line += " " + json.dumps(v["result"], ensure_ascii=False)
    return line


def _find_text(v: dict[str, Any]) -> str:
    if not v.get("best_ref"):
        return f"no match at threshold {v.get('threshold')} ({v.get('element_count')} elements)"
    lines = []
    apart = v.get("distinguish") or {}  # find was unsure: the words that tell its candidates apart
    for m in v.get("matches", []):
        extra = ""
        if "lexical_score" in m:
            extra = f"  lexical {m['lexical_score']:.2f} embedding {m['embedding_score']:.2f}"
        if apart.get(m["ref"]):
            extra += f"  [{apart[m['ref']]}]"
        lines.append(f"{m['ref']:>5}  {m['score']:.2f}  {m['role']} {json.dumps(m['name'], ensure_ascii=False)}{extra}")
    lines.append(f"best {v['best_ref']} ({v['confidence']})")
    if v.get("hint"):
        lines.append(v["hint"])
    return "\n".join(lines)


@command("nav", DRIVE)
@click.argument("url")
@option(models.NavigateRequest, "new_tab")
@option(models.NavigateRequest, "timeout")
@option(models.NavigateRequest, "wait_for")
@option(models.NavigateRequest, "snap")
@option(models.NavigateRequest, "snap_diff")
def nav(ctx: Ctx, url: str, tab_id: str | None, new_tab: bool, timeout: int | None, wait_for: str | None,
        snap: bool, snap_diff: bool) -> None:
    """Open URL and wait until it has loaded.

    \b
    Example:
      pinchtab nav https://example.com
      pinchtab nav example.com --new-tab --json
    """
    # A shell user's rule: without --tab, the current tab (not a new one each time).
    ctx.out(ctx.client.navigate(url, tab_id=tab_id, new_tab=new_tab, timeout=timeout, wait_for=wait_for,
                                current_tab=not (tab_id or new_tab), snap=snap, snap_diff=snap_diff),
            then_snapshot(_location))


@command("snap", INSPECT)
@option(models.SnapshotQuery, "filter", "-i", "--interactive", is_flag=True)
@click.option("-c", "--compact", is_flag=True, help="Compact format: a line per node.")
@option(models.SnapshotQuery, "format", default=None)
@option(models.SnapshotQuery, "diff")
@option(models.SnapshotQuery, "selector", metavar="CSS")
@option(models.SnapshotQuery, "max_tokens")
@option(models.SnapshotQuery, "depth")
def snap(ctx: Ctx, tab_id: str | None, interactive: bool, compact: bool, format: str | None, diff: bool,
         selector: str | None, max_tokens: int | None, depth: int | None) -> None:
    """Print the accessibility snapshot with refs (e0, e1, ...).

    \b
    Example:
      pinchtab snap -i -c
      pinchtab snap --format outline
      pinchtab snap --selector form --json
    """
    fmt = "json" if ctx.as_json else (format or ("compact" if compact else "text"))
    value = ctx.client.snapshot(tab_id, interactive=interactive, format=fmt, diff=diff, selector=selector,
                                depth=depth, max_tokens=max_tokens)
    click.echo(json.dumps(value, indent=2, ensure_ascii=False) if isinstance(value, dict) else value.rstrip("\n"))


def then_snapshot(render: Any) -> Any:
    """``render``'s text, then the page's snapshot when the answer carries one (--snap, --snap-diff)."""

    def text(v: dict[str, Any]) -> str:
        out = render(v)
        return f"{out}\n{v['snapshot'].rstrip()}" if isinstance(v.get("snapshot"), str) else out

    return text


_SNAP = (option(models.ActionRequest, "snap"), option(models.ActionRequest, "snap_diff"))


def _action_command(kind: str, doc: str, *params: Any) -> None:
    """The entry of one action kind: its arguments become ActionRequest fields."""

    def act(ctx: Ctx, tab_id: str | None, **fields: Any) -> None:
        ctx.out(ctx.client.action(kind, tab_id=tab_id, **fields), then_snapshot(action_text))

    act.__doc__ = doc
    for param in reversed((*params, *_SNAP)):
        act = param(act)
    command(kind, DRIVE)(act)


_REF = click.argument("ref")
_action_command("click", "Click element REF (from snap or find).\n\n\b\nExample:\n  pinchtab click e5", _REF)
_action_command("dblclick", "Double-click element REF.\n\n\b\nExample:\n  pinchtab dblclick e5", _REF)
_action_command("hover", "Move the mouse over element REF.\n\n\b\nExample:\n  pinchtab hover e5", _REF)
_action_command("focus", "Give keyboard focus to element REF.\n\n\b\nExample:\n  pinchtab focus e3", _REF)
_action_command("check", "Check checkbox/radio REF.\n\n\b\nExample:\n  pinchtab check e4", _REF)
_action_command("uncheck", "Uncheck checkbox REF.\n\n\b\nExample:\n  pinchtab uncheck e4", _REF)
_action_command("type", "Type TEXT into REF key by key.\n\n\b\nExample:\n  pinchtab type e3 'hello world'",
                _REF, click.argument("text"))
_action_command("fill", "Set the value of REF to TEXT (fires input and change; works with React/Vue).\n\n"
                "\b\nExample:\n  pinchtab fill e2 ada@example.com", _REF, click.argument("value", metavar="TEXT"))
_action_command("select", "Pick option VALUE (value or visible text) in <select> REF.\n\n\b\nExample:\n"
                "  pinchtab select e7 France", _REF, click.argument("value"))
_action_command("press", "Press KEY (Enter, Tab, Escape, ArrowDown, Control+a, ...), on REF if given.\n\n"
                "\b\nExample:\n  pinchtab press Enter\n  pinchtab press Tab --ref e3",
                click.argument("key"), click.option("--ref", help="Focus this element first."))
_action_command("scroll", "Scroll the page, or REF into view (or by --pixels).\n\n\b\nExample:\n"
                "  pinchtab scroll --pixels 600\n  pinchtab scroll --ref e40",
                click.option("--ref", help="Element to scroll (into view, or by --pixels)."),
                option(models.ActionRequest, "pixels"), option(models.ActionRequest, "direction"))


@command("find", INSPECT)
@click.argument("query")
@option(models.FindRequest, "top_k")
@option(models.FindRequest, "threshold")
@option(models.FindRequest, "explain")
def find(ctx: Ctx, query: str, tab_id: str | None, top_k: int | None, threshold: float | None, explain: bool) -> None:
    """Find the element QUERY describes and print its ref.

    \b
    Example:
      pinchtab find "login button"
        e10  0.97  button "Log in"
      best e10 (high)
    """
    ctx.out(ctx.client.find(query, tab_id, threshold=threshold, top_k=top_k, explain=explain), _find_text)


@command("text", INSPECT)
@option(models.TextQuery, "raw")
@option(models.TextQuery, "max_chars")
def text(ctx: Ctx, tab_id: str | None, raw: bool, max_chars: int | None) -> None:
    """Print the page's readable text.

    \b
    Example:
      pinchtab text --max-chars 2000
    """
    ctx.out(ctx.client.text(tab_id, raw=raw, max_chars=max_chars), lambda v: v["text"])


def _wrote(ctx: Ctx, output: str, data: bytes) -> None:
    Path(output).write_bytes(data)
    ctx.out({"file": output, "bytes": len(data)}, f"wrote {output} ({len(data)} bytes)")


@command("screenshot", INSPECT)
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="File to write (.png or .jpg).")
@option(models.ScreenshotQuery, "quality")
@option(models.ScreenshotQuery, "full_page")
def screenshot(ctx: Ctx, tab_id: str | None, output: str, quality: int | None, full_page: bool) -> None:
    """Save a screenshot of the tab.

    \b
    Example:
      pinchtab screenshot -o page.png
      pinchtab screenshot -o page.jpg --quality 70
    """
    jpeg = quality is not None or output.lower().endswith((".jpg", ".jpeg"))
    _wrote(ctx, output, ctx.client.screenshot(tab_id, format="jpeg" if jpeg else "png", quality=quality,
                                              full_page=full_page))


@command("pdf", INSPECT)
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="File to write.")
@option(models.PdfRequest, "landscape")
@option(models.PdfRequest, "scale")
@option(models.PdfRequest, "page_ranges")
def pdf(ctx: Ctx, tab_id: str | None, output: str, landscape: bool, scale: float | None, page_ranges: str | None) -> None:
    """Save the tab as PDF.

    \b
    Example:
      pinchtab pdf -o page.pdf --landscape
    """
    _wrote(ctx, output, ctx.client.pdf(tab_id, landscape=landscape, scale=scale, page_ranges=page_ranges))


@command("eval", DRIVE)
@click.argument("expression")
def eval_(ctx: Ctx, tab_id: str | None, expression: str) -> None:
    """Evaluate a JavaScript EXPRESSION in the page (needs security.allowEvaluate).

    \b
    Example:
      pinchtab eval "document.title"
    """
    result = ctx.client.evaluate(expression, tab_id)
    ctx.out({"result": result}, lambda v: json.dumps(v["result"], ensure_ascii=False))


@command("tabs", INSPECT, tab=False)
def tabs(ctx: Ctx) -> None:
    """List open tabs.

    \b
    Example:
      pinchtab tabs
    """
    ctx.out(ctx.client.tabs(), lambda v: "\n".join(f"{t['id']}  {t.get('title', '')}  {t.get('url', '')}" for t in v) or "no tabs")


@command("close", DRIVE)
def close(ctx: Ctx, tab_id: str | None) -> None:
    """Close a tab (the current one without --tab).

    \b
    Example:
      pinchtab close --tab 8F3C0E...
    """
    ctx.out(ctx.client.close_tab(tab_id), lambda v: f"closed {v['tabId']}")


@command("health", RUN, tab=False, starts=False)
def health(ctx: Ctx) -> None:
    """Check that the server answers and its browser is up.

    \b
    Example:
      pinchtab health
    """
    ctx.out(ctx.client.health(), lambda v: " ".join(f"{k}={v[k]}" for k in v))
