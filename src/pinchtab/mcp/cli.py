"""The ``pinchtab mcp`` command. Imports only click at module level (it is registered on the
main CLI); the SDK, httpx and the tools load when the command runs."""

from __future__ import annotations

import gc
import logging
import os
import sys
import threading

import click


class _BackgroundStart:
    """Start a local server in a thread, so the MCP handshake is answered at once while Chromium
    starts; each tool call waits for it first (``wait``)."""

    def __init__(self, url: str, token: str | None) -> None:
        self.url = url
        self.token = token
        self.failure: str | None = None  # why no server could be started
        self.done = threading.Event()
        threading.Thread(target=self._run, name="pinchtab-autostart", daemon=True).start()

    def _run(self) -> None:
        from pinchtab import autostart
        from pinchtab.mcp import early

        try:
            # The server pinchtab.mcp.early started at spawn, if any; else start one now.
            adopted = early.server_proc is not None and autostart.adopt(self.url, early.server_proc)
            if adopted or autostart.ensure_server(self.url, self.token):
                proc = autostart.started[self.url.rstrip("/")]
                click.echo(
                    f"pinchtab mcp: no server answered at {self.url}, so one was started in the background "
                    f"({' '.join(proc.args[2:])}, pid {proc.pid}, log {autostart.log_path(_port(self.url))}); "
                    "it keeps running after this session",
                    err=True,
                )
        except Exception as exc:  # reported on stderr, and by every tool call (wait)
            self.failure = f"could not start a server at {self.url}: {exc}"
            click.echo(f"pinchtab mcp: {self.failure}", err=True)
        finally:
            self.done.set()

    async def wait(self) -> None:
        if not self.done.is_set():
            import anyio.to_thread

            await anyio.to_thread.run_sync(self.done.wait)
        if self.failure:
            from pinchtab.client import PinchtabClientError

            raise PinchtabClientError(f"Connection refused: {self.failure}", "server_unreachable", status=0)


def _port(url: str) -> int:
    from urllib.parse import urlsplit

    from pinchtab.config import DEFAULT_PORT

    return urlsplit(url).port or DEFAULT_PORT


@click.command("mcp")
@click.option("--server", "server_url", metavar="URL",
              help="PinchTab server or bridge to drive (default $PINCHTAB_SERVER, else http://127.0.0.1:<server.port>, 9867).")
@click.option("--token", help="Bearer token for that server (default $PINCHTAB_TOKEN, else server.token of the config).")
@click.option("--no-autostart", is_flag=True, help="Do not start a local server when none answers.")
@click.option("--agent-id", envvar="PINCHTAB_AGENT_ID", metavar="ID",
              help="X-Agent-Id of every call, for the server's activity log and dashboard "
                   "(default $PINCHTAB_AGENT_ID, else the MCP client's name).")
@click.option("--log-level", default="warning", show_default=True,
              type=click.Choice(["debug", "info", "warning", "error"]), help="Log level (logs go to stderr).")
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True,
              help="stdio, or http: the SDK's Streamable HTTP transport at http://HOST:PORT/mcp.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on with --transport http.")
@click.option("--port", type=int, default=8931, show_default=True, help="Port to listen on with --transport http.")
@click.option("--tools", "tool_set", metavar="SET",
              help="Tools to offer: core (default, or mcp.tools of the config), all, or a comma list of core and "
                   "families: navigation, snapshot, actions, content, tabs, waits, observe, network, files, inspect.")
@click.option("--mcp-token", envvar="PINCHTAB_MCP_TOKEN",
              help="Bearer token MCP clients must send with --transport http (required; default $PINCHTAB_MCP_TOKEN).")
def mcp_command(server_url: str | None, token: str | None, no_autostart: bool, agent_id: str | None, log_level: str,
                transport: str, host: str, port: int, tool_set: str | None, mcp_token: str | None) -> None:
    """Serve the PinchTab browser tools over MCP on stdio (for Claude Desktop, Cursor, VS Code, ...),
    or over Streamable HTTP for agents on other machines (--transport http, bearer-token protected).

    Each tool is one HTTP call to a pinchtab server. When no --server (or $PINCHTAB_SERVER) is
    given and nothing answers at the local default address, a server is started in the
    background, so an MCP client config needs only:

    \b
      {"command": "pinchtab", "args": ["mcp"]}

    stdout carries MCP messages only; logs go to stderr. Over HTTP:

    \b
      pinchtab mcp --transport http --host 0.0.0.0 --port 8931 --mcp-token "$TOKEN"
      (clients connect to http://HOST:8931/mcp with Authorization: Bearer $TOKEN)
    """
    from pinchtab.client import AsyncClient, default_server_url, default_token
    from pinchtab.errors import PinchtabError
    from pinchtab.mcp.server import build_server
    from pinchtab.mcp.tools import select_tools

    explicit = bool(server_url or os.environ.get("PINCHTAB_SERVER"))
    try:
        url = (server_url or default_server_url()).rstrip("/")
        token = token if token is not None else default_token()
        if tool_set is None:
            from pinchtab.config import load_config

            tool_set = load_config().mcp.tools
    except PinchtabError as exc:  # a broken config file
        raise click.ClickException(exc.message) from exc
    try:
        tools = select_tools(tool_set)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--tools") from exc
    if transport == "http":
        from pinchtab.mcp.http import check_token

        try:
            check_token(mcp_token)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from exc
    before_call = None
    if not explicit and not no_autostart:
        before_call = _BackgroundStart(url, token).wait
    server = build_server(AsyncClient(url, token, agent_id=agent_id or ""), before_call, log_level=log_level.upper(), tools=tools)
    gc.enable()  # off since pinchtab.mcp.early (stdio only), for the start-up imports
    if transport == "http":
        from pinchtab.mcp.http import serve_http

        click.echo(f"pinchtab mcp: Streamable HTTP on http://{host}:{port}/mcp (bearer token required), "
                   f"driving {url}", err=True)
        serve_http(server, host=host, port=port, token=mcp_token or "", log_level=log_level)
        return
    server.run("stdio")
    from pinchtab.mcp import early

    if early.stdio is not None:
        early.stdio.finish()
        # The session is over and everything is sent: skip the interpreter's teardown (~0.8 s of CPU,
        # mostly collecting the SDK's and pydantic's objects; on a busy machine it outlasted the 2 s an
        # SDK stdio client waits for the process to end before it sends SIGTERM).
        logging.shutdown()
        sys.stderr.flush()
        os._exit(0)
