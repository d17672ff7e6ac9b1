"""CLI commands that drive a running server through ``pinchtab.Client``: nav, snap, click, find, ...

They hold no browser logic: each is one or two client calls and a way to print the answer
(readable text by default, the server's JSON with ``--json``). Option help comes from the request
models of the route table (``pinchtab.api``), the same definitions the HTTP routes and MCP tools
use. Every ``cli=`` name of a route without a hand-written command below gets a generic one
(``route_command``): required fields are arguments, the others options, and it prints JSON.
"""

from __future__ import annotations

import functools
import json
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pinchtab import models


def _help(model: type[models.ApiModel], field: str) -> str:
    return model.model_fields[field].description or ""


class Ctx:
    """What every client command gets: a connected client and how to print."""

    def __init__(self, server: str | None, token: str | None, as_json: bool, start: bool) -> None:
        from pinchtab.client import Client, default_server_url

        self.url = (server or default_server_url()).rstrip("/")
        self.token = token
        self.as_json = as_json
        self.start = start
        self.client = Client(self.url, token)

    def ensure_server(self) -> None:
        if not self.start:
            return
        from pinchtab.autostart import ensure_server

        if ensure_server(self.url, self.token):
            click.echo(f"pinchtab: started a server at {self.url} (it keeps running; stop it with kill)", err=True)

    def out(self, value: Any, text: str | Callable[[Any], str] | None = None) -> None:
        if self.as_json or text is None:
            click.echo(json.dumps(value, indent=2, ensure_ascii=False) if not isinstance(value, str) else value)
        else:
            click.echo(text(value) if callable(text) else text)


def client_command(group: click.Group, name: str, *, tab: bool = True, starts: bool = True) -> Callable[..., Any]:
    """Register a command with --server/--token/--json (and --tab, --no-start for tab commands).

    The function receives ``ctx: Ctx`` first and ``tab_id`` when ``tab``; the errors it raises
    are printed and mapped to exit codes by ``pinchtab.cli_errors``.
    """

    def decorate(fn: Callable[..., Any]) -> click.Command:
        @functools.wraps(fn)
        def run(server: str | None, token: str | None, as_json: bool, no_start: bool = False, **kw: Any) -> None:
            ctx = Ctx(server, token, as_json, start=starts and not no_start)
            try:
                ctx.ensure_server()
                fn(ctx, **kw)
            finally:
                ctx.client.close()

        options = [
            click.option("--server", envvar="PINCHTAB_SERVER", metavar="URL",
                         help="Server URL (default $PINCHTAB_SERVER, else http://127.0.0.1:<config port>)."),
            click.option("--token", envvar="PINCHTAB_TOKEN", help="Bearer token (default $PINCHTAB_TOKEN or the config's)."),
            click.option("--json", "as_json", is_flag=True, help="Print the server's JSON answer."),
        ]
        if tab:
            options.append(click.option("--tab", "tab_id", metavar="ID", help=_help(models.TabScoped, "tab_id")))
        if starts:
            options.append(click.option("--no-start", is_flag=True, help="Do not start a local server when none answers."))
        for option in reversed(options):
            run = option(run)
        return group.command(name)(run)

    return decorate


def _location(v: dict[str, Any]) -> str:
    return f"{v.get('title', '')}\n{v.get('url', '')}\ntab {v.get('tabId', '')}"


def _action_text(v: dict[str, Any]) -> str:
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
    for m in v.get("matches", []):
        extra = ""
        if "lexical_score" in m:
            extra = f"  lexical {m['lexical_score']:.2f} embedding {m['embedding_score']:.2f}"
        lines.append(f"{m['ref']:>5}  {m['score']:.2f}  {m['role']} {json.dumps(m['name'], ensure_ascii=False)}{extra}")
    lines.append(f"best {v['best_ref']} ({v['confidence']})")
    return "\n".join(lines)


def _list_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The client options on a group, so ``pinchtab instances --json`` lists as JSON."""
    for option in (
        click.option("--json", "as_json", is_flag=True, help="Print the server's JSON answer."),
        click.option("--token", envvar="PINCHTAB_TOKEN", help="Bearer token."),
        click.option("--server", envvar="PINCHTAB_SERVER", metavar="URL", help="Server URL."),
    ):
        fn = option(fn)
    return fn


def _unwrap(annotation: Any) -> Any:
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return rest[0] if len(rest) == 1 else annotation
    return annotation


def _json_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise click.BadParameter(f"not JSON: {exc}") from None


def route_command(group: click.Group, name: str, route: Any) -> None:
    """A command for ``route``: path parameters and required fields are arguments, the other
    fields options (``--max-chars``), lists repeat (``--file a --file b``), objects take JSON."""
    model = route.request
    params: list[Callable[..., Any]] = []
    renames: dict[str, str] = {}
    fields = [] if model is None else [(n, f) for n, f in model.model_fields.items() if n != "tab_id"]
    for attr, info in fields:
        kind = _unwrap(info.annotation)
        origin = typing.get_origin(kind)
        help_text = info.description or ""
        if info.is_required() or attr in route.path_params:
            ptype: Any = {int: int, float: float}.get(kind, str)
            if kind not in (str, int, float):
                ptype = click.UNPROCESSED
                renames[attr] = "json"
            params.append(click.argument(attr, type=ptype))
            continue
        opt = "--" + attr.replace("_", "-")
        if kind is bool:
            params.append(click.option(opt, attr, is_flag=True, default=None, help=help_text))
        elif origin is typing.Literal:
            params.append(click.option(opt, attr, type=click.Choice([str(a) for a in typing.get_args(kind)]), help=help_text))
        elif kind in (int, float, str):
            params.append(click.option(opt, attr, type=kind, help=help_text))
        elif origin is list and typing.get_args(kind) and typing.get_args(kind)[0] in (str, int, float):
            params.append(click.option(opt, attr, multiple=True, type=typing.get_args(kind)[0], help=help_text))
        else:
            params.append(click.option(opt, attr, callback=lambda c, p, v: None if v is None else _json_value(v),
                                       help=help_text + " (JSON)"))
    if route.reply == "binary":
        params.append(click.option("-o", "--output", "output_file", type=click.Path(dir_okay=False),
                                   help="File to write the bytes to (default: JSON with base64)."))

    # A route that is not a tab route but names a tab (GET /tabs/{tab_id}/state, GET /state?tabId=)
    # takes it from --tab as well.
    tab_field = not route.tabbed and model is not None and "tab_id" in model.model_fields

    def run(ctx: Ctx, tab_id: str | None = None, output_file: str | None = None, **kw: Any) -> None:
        if tab_field and tab_id is not None:
            kw["tab_id"], tab_id = tab_id, None
        values = {k: (_json_value(v) if renames.get(k) == "json" else v) for k, v in kw.items()
                  if v is not None and v != ()}
        values = {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}
        if route.reply == "binary" and output_file is None:
            values["raw"] = False
            value = ctx.client.call(route.name, tab_id, parse=lambda r: r.json(), **values)
        else:
            value = ctx.client.call(route.name, tab_id, **values)
        if isinstance(value, bytes):
            Path(output_file or "out.bin").write_bytes(value)
            value = {"file": output_file, "bytes": len(value)}
        ctx.out(value)

    words = " ".join(f"<{a}>" for a, i in fields if i.is_required() or a in route.path_params)
    run.__doc__ = f"{route.summary} ({route.method} {route.path}).\n\n\b\nExample:\n  pinchtab {name} {words}".rstrip()
    command: Callable[..., Any] = run
    for param in reversed(params):
        command = param(command)
    client_command(group, name.split()[-1], tab=route.tabbed or tab_field)(command)


def _command_names(group: click.Group, prefix: str = "") -> set[str]:
    names: set[str] = set()
    for name, cmd in group.commands.items():
        full = f"{prefix}{name}"
        names.add(full)
        if isinstance(cmd, click.Group):
            names |= _command_names(cmd, full + " ")
    return names


def register_route_commands(main: click.Group) -> None:
    """A generic command for every ``cli=`` name of the route table that has no command yet."""
    from pinchtab.api import ROUTES

    have = _command_names(main)
    for route in ROUTES:
        for name in route.cli:
            if name in have:
                continue
            group = main
            for word in name.split()[:-1]:
                group = group.commands[word]  # type: ignore[assignment]
            route_command(group, name, route)
            have.add(name)


def register(main: click.Group) -> None:
    """Add the client commands to the ``pinchtab`` group."""

    @client_command(main, "nav")
    @click.argument("url")
    @click.option("--new-tab", is_flag=True, help=_help(models.NavigateRequest, "new_tab"))
    @click.option("--timeout", type=int, help=_help(models.NavigateRequest, "timeout"))
    @click.option("--wait-for", type=click.Choice(["load", "dom", "networkidle", "none"]), help=_help(models.NavigateRequest, "wait_for"))
    def nav(ctx: Ctx, url: str, tab_id: str | None, new_tab: bool, timeout: int | None, wait_for: str | None) -> None:
        """Open URL and wait until it has loaded.

        \b
        Example:
          pinchtab nav https://example.com
          pinchtab nav example.com --new-tab --json
        """
        # A shell user's rule: without --tab, the current tab (not a new one each time).
        ctx.out(ctx.client.navigate(url, tab_id=tab_id, new_tab=new_tab, timeout=timeout, wait_for=wait_for,
                                    current_tab=not (tab_id or new_tab)), _location)

    @client_command(main, "snap")
    @click.option("-i", "--interactive", is_flag=True, help=_help(models.SnapshotQuery, "filter"))
    @click.option("-c", "--compact", is_flag=True, help="Compact format: fewest tokens.")
    @click.option("--diff", is_flag=True, help=_help(models.SnapshotQuery, "diff"))
    @click.option("--selector", metavar="CSS", help=_help(models.SnapshotQuery, "selector"))
    @click.option("--max-tokens", type=int, help=_help(models.SnapshotQuery, "max_tokens"))
    @click.option("--depth", type=int, help=_help(models.SnapshotQuery, "depth"))
    def snap(ctx: Ctx, tab_id: str | None, interactive: bool, compact: bool, diff: bool, selector: str | None,
             max_tokens: int | None, depth: int | None) -> None:
        """Print the accessibility snapshot with refs (e0, e1, ...).

        \b
        Example:
          pinchtab snap -i -c
          pinchtab snap --selector form --json
        """
        fmt = "json" if ctx.as_json else ("compact" if compact else "text")
        value = ctx.client.snapshot(tab_id, interactive=interactive, format=fmt, diff=diff, selector=selector,
                                    depth=depth, max_tokens=max_tokens)
        click.echo(json.dumps(value, indent=2, ensure_ascii=False) if isinstance(value, dict) else value.rstrip("\n"))

    def action_command(kind: str, doc: str, *args: click.Argument) -> None:
        """A command for one action kind: its arguments become ActionRequest fields."""

        def act(ctx: Ctx, tab_id: str | None, **fields: Any) -> None:
            ctx.out(ctx.client.action(kind, tab_id=tab_id, **fields), _action_text)

        act.__doc__ = doc
        command = act
        for arg in reversed(args):
            command = arg(command)
        client_command(main, kind)(command)

    action_command("click", "Click element REF (from snap or find).\n\n\b\nExample:\n  pinchtab click e5", click.argument("ref"))
    action_command("dblclick", "Double-click element REF.\n\n\b\nExample:\n  pinchtab dblclick e5", click.argument("ref"))
    action_command("hover", "Move the mouse over element REF.\n\n\b\nExample:\n  pinchtab hover e5", click.argument("ref"))
    action_command("focus", "Give keyboard focus to element REF.\n\n\b\nExample:\n  pinchtab focus e3", click.argument("ref"))
    action_command("check", "Check checkbox/radio REF.\n\n\b\nExample:\n  pinchtab check e4", click.argument("ref"))
    action_command("uncheck", "Uncheck checkbox REF.\n\n\b\nExample:\n  pinchtab uncheck e4", click.argument("ref"))
    action_command("type", "Type TEXT into REF key by key.\n\n\b\nExample:\n  pinchtab type e3 'hello world'",
                   click.argument("ref"), click.argument("text"))
    action_command("fill", "Set the value of REF to TEXT (fires input and change; works with React/Vue).\n\n"
                   "\b\nExample:\n  pinchtab fill e2 ada@example.com", click.argument("ref"), click.argument("value", metavar="TEXT"))
    action_command("select", "Pick option VALUE (value or visible text) in <select> REF.\n\n\b\nExample:\n  pinchtab select e7 France",
                   click.argument("ref"), click.argument("value"))
    action_command("press", "Press KEY (Enter, Tab, Escape, ArrowDown, Control+a, ...), on REF if given.\n\n"
                   "\b\nExample:\n  pinchtab press Enter\n  pinchtab press Tab --ref e3",
                   click.argument("key"), click.option("--ref", help="Focus this element first."))
    action_command("scroll", "Scroll the page, or REF into view (or by --pixels).\n\n\b\nExample:\n  pinchtab scroll --pixels 600\n  pinchtab scroll --ref e40",
                   click.option("--ref", help="Element to scroll (into view, or by --pixels)."),
                   click.option("--pixels", type=int, help=_help(models.ActionRequest, "pixels")),
                   click.option("--direction", type=click.Choice(["up", "down", "left", "right"]), help=_help(models.ActionRequest, "direction")))

    @client_command(main, "find")
    @click.argument("query")
    @click.option("--top-k", type=int, help=_help(models.FindRequest, "top_k"))
    @click.option("--threshold", type=float, help=_help(models.FindRequest, "threshold"))
    @click.option("--explain", is_flag=True, help=_help(models.FindRequest, "explain"))
    def find(ctx: Ctx, query: str, tab_id: str | None, top_k: int | None, threshold: float | None, explain: bool) -> None:
        """Find the element QUERY describes and print its ref.

        \b
        Example:
          pinchtab find "login button"
            e10  0.97  button "Log in"
          best e10 (high)
        """
        ctx.out(ctx.client.find(query, tab_id, threshold=threshold, top_k=top_k, explain=explain), _find_text)

    @client_command(main, "text")
    @click.option("--raw", is_flag=True, help=_help(models.TextQuery, "raw"))
    @click.option("--max-chars", type=int, help=_help(models.TextQuery, "max_chars"))
    def text(ctx: Ctx, tab_id: str | None, raw: bool, max_chars: int | None) -> None:
        """Print the page's readable text.

        \b
        Example:
          pinchtab text --max-chars 2000
        """
        ctx.out(ctx.client.text(tab_id, raw=raw, max_chars=max_chars), lambda v: v["text"])

    @client_command(main, "screenshot")
    @click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="File to write (.png or .jpg).")
    @click.option("--quality", type=int, help=_help(models.ScreenshotQuery, "quality"))
    @click.option("--full-page", is_flag=True, help=_help(models.ScreenshotQuery, "full_page"))
    def screenshot(ctx: Ctx, tab_id: str | None, output: str, quality: int | None, full_page: bool) -> None:
        """Save a screenshot of the tab.

        \b
        Example:
          pinchtab screenshot -o page.png
          pinchtab screenshot -o page.jpg --quality 70
        """
        jpeg = quality is not None or output.lower().endswith((".jpg", ".jpeg"))
        data = ctx.client.screenshot(tab_id, format="jpeg" if jpeg else "png", quality=quality, full_page=full_page)
        Path(output).write_bytes(data)
        ctx.out({"file": output, "bytes": len(data)}, f"wrote {output} ({len(data)} bytes)")

    @client_command(main, "pdf")
    @click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="File to write.")
    @click.option("--landscape", is_flag=True, help=_help(models.PdfRequest, "landscape"))
    @click.option("--scale", type=float, help=_help(models.PdfRequest, "scale"))
    @click.option("--page-ranges", help=_help(models.PdfRequest, "page_ranges"))
    def pdf(ctx: Ctx, tab_id: str | None, output: str, landscape: bool, scale: float | None, page_ranges: str | None) -> None:
        """Save the tab as PDF.

        \b
        Example:
          pinchtab pdf -o page.pdf --landscape
        """
        data = ctx.client.pdf(tab_id, landscape=landscape, scale=scale, page_ranges=page_ranges)
        Path(output).write_bytes(data)
        ctx.out({"file": output, "bytes": len(data)}, f"wrote {output} ({len(data)} bytes)")

    @client_command(main, "eval")
    @click.argument("expression")
    def eval_(ctx: Ctx, tab_id: str | None, expression: str) -> None:
        """Evaluate a JavaScript EXPRESSION in the page (needs security.allowEvaluate).

        \b
        Example:
          pinchtab eval "document.title"
        """
        result = ctx.client.evaluate(expression, tab_id)
        ctx.out({"result": result}, lambda v: json.dumps(v["result"], ensure_ascii=False))

    @client_command(main, "tabs", tab=False)
    def tabs(ctx: Ctx) -> None:
        """List open tabs.

        \b
        Example:
          pinchtab tabs
        """
        ctx.out(ctx.client.tabs(), lambda v: "\n".join(f"{t['id']}  {t.get('title', '')}  {t.get('url', '')}" for t in v) or "no tabs")

    @client_command(main, "close")
    def close(ctx: Ctx, tab_id: str | None) -> None:
        """Close a tab (the current one without --tab).

        \b
        Example:
          pinchtab close --tab 8F3C0E...
        """
        ctx.out(ctx.client.close_tab(tab_id), lambda v: f"closed {v['tabId']}")

    @client_command(main, "health", tab=False, starts=False)
    def health(ctx: Ctx) -> None:
        """Check that the server answers and its browser is up.

        \b
        Example:
          pinchtab health
        """
        ctx.out(ctx.client.health(), lambda v: " ".join(f"{k}={v[k]}" for k in v))

    @main.group("instances", invoke_without_command=True)
    @_list_options
    @click.pass_context
    def instances(click_ctx: click.Context, **options: Any) -> None:
        """List the server's browser instances (or start/stop one).

        \b
        Example:
          pinchtab instances
          pinchtab instances start --profile prof_1a2b3c4d
          pinchtab instances stop inst_5e6f7a8b
        """
        if click_ctx.invoked_subcommand is None:
            click_ctx.invoke(list_instances, **options)

    @client_command(instances, "list", tab=False, starts=False)
    def list_instances(ctx: Ctx) -> None:
        """List instances.

        \b
        Example:
          pinchtab instances list --json
        """
        ctx.out(ctx.client.instances(), lambda v: "\n".join(
            f"{i['id']}  {i.get('status', '')}  port {i.get('port', '')}  {i.get('profileName') or i.get('profileId') or '(temporary)'}"
            for i in v) or "no instances")

    @client_command(instances, "start", tab=False, starts=False)
    @click.option("--profile", "profile_id", help="Profile id (a temporary profile when omitted).")
    @click.option("--headed", is_flag=True, help="Show the browser window (needs a display).")
    def start_instance(ctx: Ctx, profile_id: str | None, headed: bool) -> None:
        """Start an instance (its own Chromium; a temporary profile without --profile).

        \b
        Example:
          pinchtab instances start --profile work
        """
        ctx.out(ctx.client.start_instance(profile_id, "headed" if headed else "headless"), lambda v: f"{v['id']} {v.get('status', '')}")

    @client_command(instances, "stop", tab=False, starts=False)
    @click.argument("instance_id")
    def stop_instance(ctx: Ctx, instance_id: str) -> None:
        """Stop instance INSTANCE_ID.

        \b
        Example:
          pinchtab instances stop inst_5e6f7a8b
        """
        ctx.out(ctx.client.stop_instance(instance_id), lambda v: f"stopped {instance_id}")

    @main.group("profiles", invoke_without_command=True)
    @_list_options
    @click.pass_context
    def profiles(click_ctx: click.Context, **options: Any) -> None:
        """List the server's profiles (or create/delete one).

        \b
        Example:
          pinchtab profiles
          pinchtab profiles create work --description "work account"
          pinchtab profiles delete prof_1a2b3c4d
        """
        if click_ctx.invoked_subcommand is None:
            click_ctx.invoke(list_profiles, **options)

    @client_command(profiles, "list", tab=False, starts=False)
    def list_profiles(ctx: Ctx) -> None:
        """List profiles.

        \b
        Example:
          pinchtab profiles list
        """
        ctx.out(ctx.client.profiles(), lambda v: "\n".join(
            f"{p['id']}  {p['name']}  {p.get('description') or ''}".rstrip() for p in v) or "no profiles")

    @client_command(profiles, "create", tab=False, starts=False)
    @click.argument("name")
    @click.option("--description", help="What the profile is for.")
    def create_profile(ctx: Ctx, name: str, description: str | None) -> None:
        """Create profile NAME (a persistent Chrome user-data dir).

        \b
        Example:
          pinchtab profiles create work --description "work account"
        """
        ctx.out(ctx.client.create_profile(name, description), lambda v: f"{v['id']}  {v['name']}")

    @client_command(profiles, "delete", tab=False, starts=False)
    @click.argument("profile_id")
    def delete_profile(ctx: Ctx, profile_id: str) -> None:
        """Delete profile PROFILE_ID.

        \b
        Example:
          pinchtab profiles delete prof_1a2b3c4d
        """
        ctx.out(ctx.client.delete_profile(profile_id), lambda v: f"deleted {profile_id}")

    register_route_commands(main)
