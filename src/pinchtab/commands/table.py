"""The table of client commands and what builds them: ``command`` declares one entry, ``option``
derives an option from a request model's field, ``client_command`` makes the click command (with
--server, --token, --json, --tab, --no-start) and ``Ctx`` is what its handler gets."""

from __future__ import annotations

import functools
import json
import sys
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click
from pydantic import BaseModel

from pinchtab import models

# The sections of `pinchtab --help`, in order.
RUN, DRIVE, INSPECT, MANAGE = "Run the server", "Drive a page", "Inspect", "Manage instances and profiles"
SECTIONS = (RUN, DRIVE, INSPECT, MANAGE)
# Commands of the `pinchtab` group itself (cli.py and its neighbours), by name.
RUN_COMMANDS = {"bridge": RUN, "server": RUN, "mcp": RUN, "doctor": RUN, "status": RUN, "stop": RUN, "config": RUN}


@dataclass(frozen=True)
class CommandSpec:
    """One client command: ``name`` ("nav", or "instances start" in a group), its ``section`` in
    ``--help``, and ``run(ctx, [tab_id,] **params)`` carrying its click arguments and options."""

    name: str
    section: str
    run: Callable[..., None]
    tab: bool = True  # takes --tab
    starts: bool = True  # starts a local server when none answers (--no-start)


@dataclass(frozen=True)
class GroupSpec:
    """A group of commands (``instances``, ``mouse``); ``lists``: bare ``pinchtab instances`` runs
    its ``list`` command and takes the client options."""

    name: str
    section: str
    doc: str
    lists: bool = False


TABLE: list[CommandSpec | GroupSpec] = []


def command(name: str, section: str, *, tab: bool = True, starts: bool = True) -> Callable[..., Any]:
    """Declare the decorated handler as command ``name`` (its click decorators go below this one)."""

    def declare(fn: Callable[..., None]) -> Callable[..., None]:
        TABLE.append(CommandSpec(name, section, fn, tab, starts))
        return fn

    return declare


def group(name: str, section: str, doc: str, *, lists: bool = False) -> None:
    TABLE.append(GroupSpec(name, section, doc, lists))


# -- arguments and options from the request models ------------------------------------------------

def unwrap(annotation: Any) -> Any:
    """``X | None`` -> ``X``."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return rest[0] if len(rest) == 1 else annotation
    return annotation


def help_of(model: type[BaseModel], attr: str) -> str:
    return model.model_fields[attr].description or ""


def option(model: type[BaseModel], attr: str, *decls: str, **overrides: Any) -> Callable[..., Any]:
    """``--attr-name`` for field ``attr``: a flag for a bool, a choice for a Literal, else its type;
    help from the field's description. ``decls`` and ``overrides`` replace what the field gives."""
    kind = unwrap(model.model_fields[attr].annotation)
    kw: dict[str, Any] = {"help": help_of(model, attr)}
    if kind is bool:
        kw["is_flag"] = True
    elif typing.get_origin(kind) is typing.Literal:
        kw["type"] = click.Choice([str(a) for a in typing.get_args(kind)])
    elif kind in (int, float):
        kw["type"] = kind
    if overrides.get("is_flag"):
        kw.pop("type", None)
    kw.update(overrides)
    return click.option(*(decls or ("--" + attr.replace("_", "-"),)), **kw)


# -- running a command ------------------------------------------------------------------------------

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
            click.echo(f"pinchtab: started a server at {self.url} (it keeps running; stop it with `pinchtab stop`)", err=True)

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
            options.append(click.option("--tab", "tab_id", metavar="ID", help=help_of(models.TabScoped, "tab_id")))
        if starts:
            options.append(click.option("--no-start", is_flag=True, help="Do not start a local server when none answers."))
        for opt in reversed(options):
            run = opt(run)
        return group.command(name)(run)

    return decorate


def _list_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The client options on a group, so ``pinchtab instances --json`` lists as JSON."""
    for opt in (
        click.option("--json", "as_json", is_flag=True, help="Print the server's JSON answer."),
        click.option("--token", envvar="PINCHTAB_TOKEN", help="Bearer token."),
        click.option("--server", envvar="PINCHTAB_SERVER", metavar="URL", help="Server URL."),
    ):
        fn = opt(fn)
    return fn


def build_group(main: click.Group, spec: GroupSpec) -> None:
    if spec.lists:
        def listing(click_ctx: click.Context, **options: Any) -> None:
            if click_ctx.invoked_subcommand is None:
                click_ctx.invoke(click_ctx.command.commands["list"], **options)  # type: ignore[attr-defined]

        listing.__doc__ = spec.doc
        main.group(spec.name, invoke_without_command=True)(_list_options(click.pass_context(listing)))
    else:
        def bare() -> None:
            pass

        bare.__doc__ = spec.doc
        main.group(spec.name)(bare)


def command_names(group: click.Group, prefix: str = "") -> set[str]:
    names: set[str] = set()
    for name, cmd in group.commands.items():
        full = f"{prefix}{name}"
        names.add(full)
        if isinstance(cmd, click.Group):
            names |= command_names(cmd, full + " ")
    return names
