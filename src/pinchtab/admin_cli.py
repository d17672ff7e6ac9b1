"""``pinchtab doctor``, ``pinchtab status`` and ``pinchtab stop``: the commands about pinchtab
itself rather than a page (pinchtab.doctor and pinchtab.lifecycle do the work). Exit 0 when all is
well, 1 otherwise; ``--json`` prints one JSON object either way."""

from __future__ import annotations

import json
from typing import Any

import click

SERVER = click.option("--server", envvar="PINCHTAB_SERVER", metavar="URL",
                      help="Server or bridge URL (default $PINCHTAB_SERVER, else http://127.0.0.1:<server.port>).")
JSON = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


def _echo(as_json: bool, data: dict[str, Any], text: str, ok: bool) -> None:
    click.echo(json.dumps(data, indent=2) if as_json else text)
    if not ok:
        raise SystemExit(1)


def _url_and_token(server: str | None, token: str | None) -> tuple[str, str | None]:
    from pinchtab.client import default_server_url, default_token
    from pinchtab.errors import PinchtabError

    try:
        return (server or default_server_url()).rstrip("/"), token if token is not None else default_token()
    except PinchtabError as exc:  # a broken config file
        raise click.ClickException(exc.message) from exc


@click.command("doctor")
@click.option("--config", "config_file", type=click.Path(dir_okay=False),
              help="Config file to check (default $PINCHTAB_CONFIG or ~/.pinchtab/config.json).")
@click.option("--no-launch", is_flag=True, help="Skip the headless start of the browser.")
@JSON
def doctor_command(config_file: str | None, no_launch: bool, as_json: bool) -> None:
    """Check that pinchtab can run here: Python, the package, Chromium (found, its version, a
    headless start), the config file, the state dir and the port; each failure with its fix."""
    from pinchtab import doctor
    from pinchtab.config import load_config

    checks = doctor.run_checks(lambda: load_config(path=config_file), headless=not no_launch)
    _echo(as_json, doctor.as_json(checks), doctor.report(checks), all(c.ok for c in checks))


@click.command("status")
@SERVER
@click.option("--token", envvar="PINCHTAB_TOKEN", help="Bearer token (default $PINCHTAB_TOKEN or the config's).")
@JSON
def status_command(server: str | None, token: str | None, as_json: bool) -> None:
    """Is a pinchtab server running on the configured port: its health, instances and tabs.
    Exit 1 when none answers or it is down."""
    from pinchtab.lifecycle import status

    url, token = _url_and_token(server, token)
    current = status(url, token)
    _echo(as_json, current.to_dict(), current.text(), current.running and current.healthy)


@click.command("stop")
@SERVER
@click.option("--grace", type=float, default=15.0, show_default=True,
              help="Seconds to wait after SIGTERM before SIGKILL.")
@JSON
def stop_command(server: str | None, grace: float, as_json: bool) -> None:
    """Stop the pinchtab server (or bridge) on the configured port, with its browsers: SIGTERM to
    the pid its /health gives (a process of this machine only), SIGKILL after --grace."""
    from pinchtab.lifecycle import StopError, stop

    url, _ = _url_and_token(server, None)
    try:
        done = stop(url, grace)
    except StopError as exc:
        _echo(as_json, {"stopped": False, "url": url, "error": str(exc)}, f"pinchtab stop: {exc}", False)
        return
    how = "killed after the grace period" if done["forced"] else "stopped"
    _echo(as_json, done, f"{how} the pinchtab {done['mode']} at {done['url']} (pid {done['pid']})", True)


COMMANDS = (doctor_command, status_command, stop_command)
