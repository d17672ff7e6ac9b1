"""The CLI's client commands as a table: one entry per command (name, section, handler with its
arguments and options), declared where the command is written (``page``, ``interaction``,
``manage``) and built into click commands by ``register``. Arguments and options take their type,
choices and help from the request model's field (``option(models.X, "field")``); every ``cli=``
name of the route table without an entry gets a generic command (``routes``).

Each command drives a running server through ``pinchtab.Client`` and holds no browser logic: one
or two client calls and a way to print the answer (readable text, or the server's JSON with
``--json``). ``pinchtab --help`` lists commands by section (``table.SECTIONS``).
"""

from __future__ import annotations

import click

from pinchtab.commands import audit, interaction, manage, media, page, scrape  # noqa: F401  (each declares its entries)
from pinchtab.commands.routes import register_route_commands, route_sections
from pinchtab.commands.table import RUN_COMMANDS, SECTIONS, TABLE, GroupSpec, build_group, client_command

__all__ = ["SECTIONS", "register", "section_of"]


def register(main: click.Group) -> None:
    """Add the table's commands to the ``pinchtab`` group, then a generic one for every other
    ``cli=`` name of the route table."""
    for entry in TABLE:
        if isinstance(entry, GroupSpec):
            build_group(main, entry)
            continue
        *path, name = entry.name.split()
        parent = main
        for word in path:
            parent = parent.commands[word]  # type: ignore[assignment]
        client_command(parent, name, tab=entry.tab, starts=entry.starts)(entry.run)
    register_route_commands(main)


def section_of(name: str) -> str | None:
    """The ``--help`` section of top-level command ``name`` (None: it has none)."""
    for entry in TABLE:
        if entry.name == name:
            return entry.section
    return RUN_COMMANDS.get(name) or route_sections().get(name)
