"""The CLI's command table: --help by section, entries built once, client commands loaded lazily."""

from __future__ import annotations

import subprocess
import sys

import click
from click.testing import CliRunner

from pinchtab.api import ROUTES
from pinchtab.cli import main
from pinchtab.commands import SECTIONS, section_of
from pinchtab.commands.table import TABLE, CommandSpec, command_names


def test_help_lists_commands_by_section() -> None:
    out = CliRunner().invoke(main, ["--help"], terminal_width=100).output
    headings = [line[:-1] for line in out.splitlines() if line.endswith(":") and not line.startswith(" ")]
    assert headings[1:] == list(SECTIONS)
    blocks = out.split("\n\n")
    section = {b.splitlines()[0][:-1]: {line.split()[0] for line in b.splitlines()[1:]} for b in blocks
               if b.splitlines() and b.splitlines()[0][:-1] in SECTIONS}
    assert {"bridge", "server", "mcp"} <= section["Run the server"]
    assert {"nav", "click", "fill", "mouse"} <= section["Drive a page"]
    assert {"snap", "find", "text", "screenshot"} <= section["Inspect"]
    assert {"instances", "profiles", "agents", "activity", "sessions"} == section["Manage instances and profiles"]


def test_every_top_level_command_has_a_section() -> None:
    main.add_client_commands()
    assert not [n for n in main.commands if section_of(n) not in SECTIONS]


def test_a_command_outside_the_table_lands_in_other_commands() -> None:
    group = type(main)("pinchtab", commands=dict(main.commands))
    group._client_commands_added = True
    group.add_command(click.Command("frobnicate", help="Not in the table."))
    out = CliRunner().invoke(group, ["--help"], terminal_width=100).output
    assert "Other commands:\n  frobnicate" in out


def test_table_entries_are_the_commands() -> None:
    main.add_client_commands()
    names = command_names(main)
    assert {e.name for e in TABLE if isinstance(e, CommandSpec)} <= names
    assert not [n for r in ROUTES for n in r.cli if n not in names]


def test_server_commands_do_not_load_the_client_commands() -> None:
    code = ("import sys; from click import Context; from pinchtab.cli import main; "
            "main.get_command(Context(main), 'bridge'); print('pinchtab.commands' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_client_commands_do_not_load_httpx_command_line() -> None:
    code = "import sys, pinchtab.cli, pinchtab.client; print(sorted({'rich', 'pygments'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
