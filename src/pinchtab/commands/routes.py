"""Generic commands for the route table's ``cli=`` names that have no entry in the table: path
parameters and required fields are arguments, the other fields options, and they print JSON."""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pinchtab.api import ROUTES, Route
from pinchtab.commands.table import DRIVE, INSPECT, MANAGE, Ctx, client_command, command_names, unwrap


def route_section(route: Route) -> str:
    """Where a route's command shows in ``--help``: the server's own routes manage instances and
    profiles, reads inspect, the rest drive a page."""
    if route.owner == "server":
        return MANAGE
    return INSPECT if route.method == "GET" else DRIVE


def route_sections() -> dict[str, str]:
    """Top-level command name -> section, for the route table's commands."""
    return {name.split()[0]: route_section(r) for r in ROUTES for name in r.cli}


def _json_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise click.BadParameter(f"not JSON: {exc}") from None


def route_command(group: click.Group, name: str, route: Route) -> None:
    """A command for ``route``: path parameters and required fields are arguments, the other
    fields options (``--max-chars``), lists repeat (``--file a --file b``), objects take JSON."""
    model = route.request
    params: list[Callable[..., Any]] = []
    renames: dict[str, str] = {}
    fields = [] if model is None else [(n, f) for n, f in model.model_fields.items() if n != "tab_id"]
    for attr, info in fields:
        kind = unwrap(info.annotation)
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


def register_route_commands(main: click.Group) -> None:
    """A generic command for every ``cli=`` name of the route table that has no command yet."""
    have = command_names(main)
    for route in ROUTES:
        for name in route.cli:
            if name in have:
                continue
            group = main
            for word in name.split()[:-1]:
                group = group.commands[word]  # type: ignore[assignment]
            route_command(group, name, route)
            have.add(name)
