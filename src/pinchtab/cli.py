"""The ``pinchtab`` command."""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

# find's vectors are small; a BLAS thread pool only fights Chromium for the cores (it made 10k-element
# finds spike to several ms under load). Set before anything imports numpy.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
if "httpx" not in sys.modules:
    # httpx loads its own command line (rich and pygments: ~0.1 s of CPU, a seventh of `pinchtab snap`)
    # whenever rich is installed, and the MCP SDK requires rich. No pinchtab command runs httpx's.
    sys.modules["httpx._main"] = None  # type: ignore[assignment]

if sys.argv[1:2] == ["mcp"]:
    # Before anything heavy loads: start the server and answer `initialize` (see pinchtab.mcp.early).
    from pinchtab.mcp import early

    early.begin(sys.argv[2:])
elif sys.argv[1:2] in (["server"], ["bridge"]):
    # The start-up imports make ~125k objects that live on; collecting cycles among them as they
    # load costs ~8% of that CPU. serve_started() turns the collector back on.
    import gc

    gc.disable()

import click

import pinchtab
from pinchtab.config import Config, load_config
from pinchtab.errors import PinchtabError


def _config(**flags: Any) -> Config:
    """Config file, then environment, then the flags given on the command line."""
    server = {k: flags.get(k) for k in ("port", "bind", "token")}
    security = {"allowEvaluate": flags.get("allow_evaluate"), "allowCookies": flags.get("allow_cookies")}
    browser = {"binary": flags.get("chrome"), "profileDir": flags.get("profile_dir"), "cdpUrl": flags.get("cdp_url")}
    if flags.get("headed"):
        browser["headless"] = False
    try:
        return load_config({"server": server, "security": security, "browser": browser}, path=flags.get("config"))
    except PinchtabError as exc:
        raise click.ClickException(exc.message) from exc


def serve_started() -> None:
    """The server's or bridge's modules are loaded: what exists now lives on, so the collector
    leaves it alone (freeze) and watches what comes after."""
    import gc

    gc.freeze()
    gc.enable()


def _serve(app: Any, config: Config, log_level: str, tls: tuple[str, str] | None = None) -> None:
    import uvicorn

    serve_started()

    try:
        config.check_bind()
    except PinchtabError as exc:
        raise click.ClickException(exc.message) from exc
    ssl = {"ssl_certfile": tls[0], "ssl_keyfile": tls[1], "http": _tls_http_protocol()} if tls else {}
    uvicorn.run(app, host=config.server.bind, port=config.server.port, log_level=log_level, access_log=False, **ssl)


def _tls_http_protocol() -> type:
    """uvicorn's HTTP protocol, except that on shutdown an idle keep-alive TLS connection is dropped
    at once. uvicorn closes it, and asyncio then waits up to 30 s for the client's TLS close_notify,
    which a client holding the connection in its pool never sends: SIGTERM took 31.6 s to stop such a
    bridge, 0.9 s with this (1.0 s over plain HTTP). A request in flight still finishes first."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    class TLSHTTPProtocol(AutoHTTPProtocol):
        def shutdown(self) -> None:
            idle = self.cycle is None or self.cycle.response_complete
            super().shutdown()
            if idle:
                self.transport.abort()

    return TLSHTTPProtocol


class _Commands(click.Group):
    """The client commands (one per route of the table, ~0.1 s to import and build) are added on
    first use of a name this group does not hold already, so ``pinchtab bridge`` and ``pinchtab
    server`` reach Chromium and the bridge spawn without them. ``--help`` lists commands by
    section (``pinchtab.commands``: run the server, drive a page, inspect, manage)."""

    _client_commands_added = False

    def add_client_commands(self) -> None:
        if not self._client_commands_added:
            self._client_commands_added = True
            from pinchtab.commands import register

            register(self)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and not self._client_commands_added:
            self.add_client_commands()
            command = super().get_command(ctx, cmd_name)
        return command

    def list_commands(self, ctx: click.Context) -> list[str]:
        self.add_client_commands()
        return super().list_commands(ctx)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from pinchtab.commands import SECTIONS, section_of

        rows: dict[str, list[tuple[str, str]]] = {}
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.setdefault(section_of(name) or "Other commands", []).append(
                    (name, command.get_short_help_str(formatter.width - 6 - max(map(len, self.commands)))))
        for section in (*SECTIONS, *sorted(set(rows) - set(SECTIONS))):
            if rows.get(section):
                with formatter.section(section):
                    formatter.write_dl(rows[section])

    def main(self, args: Any = None, *rest: Any, **kw: Any) -> Any:
        self._argv = list(sys.argv[1:] if args is None else args)
        return super().main(args, *rest, **kw)

    def invoke(self, ctx: click.Context) -> Any:
        """Every command's error ends here: text or JSON, and its exit code (pinchtab.cli_errors)."""
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.Abort, KeyboardInterrupt, PinchtabError) as exc:
            from pinchtab import cli_errors

            cli_errors.fail(exc, getattr(self, "_argv", sys.argv[1:]))


def _agent_id(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    # `pinchtab --agent-id bosch nav ...` (PinchTab's form): the command's own --agent-id reads it.
    if value:
        os.environ["PINCHTAB_AGENT_ID"] = value


@click.group(cls=_Commands, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(pinchtab.__version__, prog_name="pinchtab")
@click.option("--agent-id", metavar="ID", expose_value=False, is_eager=True, callback=_agent_id,
              help="Tag the command's requests with X-Agent-Id (same as PINCHTAB_AGENT_ID).")
@click.pass_context
def main(ctx: click.Context) -> None:
    """pinchtab: browser control for AI agents.

    \b
    Start the HTTP API on 127.0.0.1:9867 with one headless Chromium:
      pinchtab bridge
    Start the server (profiles, several instances); also what bare `pinchtab` does:
      pinchtab server
    """
    if ctx.invoked_subcommand is None:
        command = main.get_command(ctx, "server")
        if command is None:
            click.echo(ctx.get_help())
        else:
            ctx.invoke(command)


def server_options(fn: Any) -> Any:
    options = [
        click.option("--port", type=int, help="Port to listen on (default 9867, or server.port / PINCHTAB_PORT)."),
        click.option("--bind", help="Address to bind (default 127.0.0.1; other addresses need a token)."),
        click.option("--token", help="Require 'Authorization: Bearer TOKEN' on every route but /health."),
        click.option("--config", "config", type=click.Path(dir_okay=False), help="Config file (default $PINCHTAB_CONFIG or ~/.pinchtab/config.json)."),
        click.option("--chrome", help="Chrome/Chromium binary (default: PINCHTAB_CHROME, then known paths)."),
        click.option("--headed", is_flag=True, help="Show the browser window (needs a display)."),
        click.option("--allow-evaluate", is_flag=True, default=None, help="Enable POST /evaluate."),
        click.option("--allow-cookies", is_flag=True, default=None, help="Enable GET/POST /cookies."),
        click.option("--log-level", default="warning", type=click.Choice(["debug", "info", "warning", "error"]), show_default=True),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


@main.command()
@server_options
@click.option("--profile-dir", type=click.Path(file_okay=False), help="Chrome user-data dir to keep (default: a fresh temporary one).")
@click.option("--cdp-url", help="Attach to a running Chrome (ws://... or http://host:port) instead of launching one.")
@click.option("--parent-pid", type=int, hidden=True, help="Shut down when this process (the pinchtab server) exits.")
@click.option("--tls-cert", type=click.Path(dir_okay=False, exists=True),
              help="Serve HTTPS with this PEM certificate (chain); with --tls-key. A server attaches it as https://.")
@click.option("--tls-key", type=click.Path(dir_okay=False, exists=True), help="The PEM private key for --tls-cert.")
def bridge(log_level: str, parent_pid: int | None = None, tls_cert: str | None = None, tls_key: str | None = None,
           **flags: Any) -> None:
    """Serve the HTTP API for one browser (one Chromium over CDP).

    \b
    Example:
      pinchtab bridge --port 9867
      curl -s -X POST localhost:9867/navigate -d '{"url":"https://example.com"}'
    """
    from pinchtab.cdp import prelaunch

    if bool(tls_cert) != bool(tls_key):
        raise click.UsageError("--tls-cert and --tls-key go together")
    config = _config(**flags)
    logging.basicConfig(level=log_level.upper(), stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if parent_pid:
        from pinchtab.server.parent import exit_with_parent

        exit_with_parent(parent_pid)
    prelaunch.start_for(config.browser)  # Chromium starts while the bridge's modules load
    from pinchtab.bridge.app import create_app

    _serve(create_app(config), config, log_level, (tls_cert, tls_key) if tls_cert and tls_key else None)


from pinchtab.server.cli import make_server_command  # noqa: E402

def _embed_bridge(data: dict[str, Any]) -> Any:
    """A bridge served by the server's own process (server.defaultInProcess): the server's
    modules know bridges over HTTP only, so the bridge package is handed to them from here."""
    from pinchtab.bridge import embedded

    return embedded.start(data)


main.add_command(make_server_command(server_options, _config, _embed_bridge), "server")

from pinchtab.mcp.cli import mcp_command  # noqa: E402

main.add_command(mcp_command, "mcp")

from pinchtab.admin_cli import COMMANDS as ADMIN_COMMANDS  # noqa: E402  doctor, status, stop

for _command in ADMIN_COMMANDS:
    main.add_command(_command)

from pinchtab.config_commands import config_command  # noqa: E402

main.add_command(config_command, "config")


if __name__ == "__main__":
    main()
