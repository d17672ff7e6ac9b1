"""``pinchtab config init|show|schema``: the config file, the effective values, its JSON Schema."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from pinchtab.config import DEFAULT_PORT, config_path, config_schema, env_name, load_config_with_sources

# Keys whose values are secrets: `config show` prints that they are set, not what they are.
SECRET_KEYS = {"server.token", "discovery.token", "security.stateEncryptionKey"}

# What `config init` writes: the keys people change first, at their defaults.
STARTER = {
    "server": {"port": DEFAULT_PORT, "bind": "127.0.0.1", "token": None},
    "browser": {"binary": None, "headless": True},
    "security": {"allowEvaluate": False, "allowCookies": False},
}


@click.group("config")
def config_command() -> None:
    """The config file: write a starter one, show the effective values, print its JSON Schema.

    \b
    The file is $PINCHTAB_CONFIG or ~/.pinchtab/config.json (JSON, camelCase keys). Every key
    has an environment variable: PINCHTAB_ + its path in upper snake case (server.stateDir:
    PINCHTAB_SERVER_STATE_DIR); PinchTab's names (PINCHTAB_TOKEN, PINCHTAB_PORT, ...) work too.
    Order: file, then environment, then command-line flags. An unknown key is an error.
    """


@config_command.command("init")
@click.option("--path", "target", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write (default $PINCHTAB_CONFIG or ~/.pinchtab/config.json).")
@click.option("--force", is_flag=True, help="Overwrite a file that exists.")
def init(target: Path | None, force: bool) -> None:
    """Write a starter config file (the common keys at their defaults)."""
    path = target or config_path()
    if path.exists() and not force:
        raise click.ClickException(f"{path} exists; pass --force to overwrite it")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # it may come to hold a token
    with os.fdopen(fd, "w") as f:
        f.write(json.dumps(STARTER, indent=2) + "\n")
    click.echo(f"wrote {path} (every key: `pinchtab config schema`; effective values: `pinchtab config show`)")


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and value:  # an empty map (security.secrets) is a key of its own
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


@config_command.command("show")
@click.option("--config", "path", type=click.Path(dir_okay=False), help="Config file (default $PINCHTAB_CONFIG or ~/.pinchtab/config.json).")
@click.option("--json", "as_json", is_flag=True, help="Print {file, config, sources} as JSON.")
def show(path: str | None, as_json: bool) -> None:
    """The effective config (file, environment), each value with where it came from; tokens masked."""
    config, sources = load_config_with_sources(path=path)
    values = _flatten(config.model_dump(mode="json", by_alias=True))
    for key in values:
        if values[key] and (key in SECRET_KEYS or key.startswith("security.secrets")):
            values[key] = "***"
    file = str(Path(path) if path else config_path())
    if as_json:
        click.echo(json.dumps({"file": file, "config": values, "sources": sources}, indent=2))
        return
    click.echo(f"# file: {file}")
    for key, value in values.items():
        source = sources.get(key, f"default; env {env_name(tuple(key.split('.')))}")
        click.echo(f"{key} = {json.dumps(value)}  ({source})")


@config_command.command("schema")
def schema() -> None:
    """The config file's JSON Schema (point an editor at it with "$schema")."""
    click.echo(json.dumps(config_schema(), indent=2))
