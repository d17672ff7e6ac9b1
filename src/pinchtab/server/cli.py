"""``pinchtab server`` (also the bare ``pinchtab``): the control plane with profiles and instances.

``pinchtab.cli`` builds the command with its shared helpers (options, config loading),
so this module does not import it back.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

import click

from pinchtab.errors import PinchtabError


def make_server_command(
    server_options: Callable[[Any], Any],
    load: Callable[..., Any],
    embed_bridge: Callable[[dict[str, Any]], Any] | None = None,
) -> click.Command:
    @click.command()
    @server_options
    @click.option("--state-dir", type=click.Path(file_okay=False),
                  help="Where profiles and instance logs live (default ~/.pinchtab, or server.stateDir / PINCHTAB_STATE_DIR).")
    @click.option("--instance-port-start", type=int, help="First port for instances (default 9868, or server.instancePortStart).")
    @click.option("--default-instance/--no-default-instance", default=None,
                  help="Start an instance on the 'default' profile with the server (default: yes, or server.defaultInstance).")
    @click.option("--autostarted", is_flag=True, hidden=True,
                  help="Started in the background by `pinchtab mcp`: exit when a server already answers on the port; "
                       "output to <stateDir>/logs/server-<port>.log.")
    def server(log_level: str, state_dir: str | None, instance_port_start: int | None,
               default_instance: bool | None, autostarted: bool, **flags: Any) -> None:
        """Serve the HTTP API with profiles and several browser instances.

        \b
        Each instance is a `pinchtab bridge` with its own Chromium on its own port (from 9868);
        /tabs/{id}/... goes to the instance owning the tab, the shorthand routes to the default one.
        server.defaultInProcess (auto: when `pinchtab mcp` started the server; on; off) serves the
        default instance's bridge in this process instead, for a faster start.
        Example:
          pinchtab server
          curl -s -X POST localhost:9867/navigate -d '{"url":"https://example.com"}'
          curl -s -X POST localhost:9867/profiles -d '{"name":"work"}'
        """
        from pinchtab.server import boot

        config = load(**flags)
        if state_dir:
            config.server.state_dir = state_dir
        if instance_port_start:
            config.server.instance_port_start = instance_port_start
        if default_instance is not None:
            config.server.default_instance = default_instance
        try:
            config.check_bind()
        except PinchtabError as exc:
            raise click.ClickException(exc.message) from exc
        if autostarted:
            if boot.port_taken(config.server.port):
                return  # another server answers there: it is the one to use
            boot.log_to_state_dir(config)
        else:
            boot.bound_inherited_log(config)
        logging.basicConfig(level=log_level.upper(), stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s")
        logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request of an in-process bridge (/download) otherwise
        click.echo(f"pinchtab server on http://{config.server.bind}:{config.server.port} (state in {config.server.state_dir}; "
                   "Ctrl-C stops it and its browsers)", err=True)
        boot.run(config, log_level, config.server.default_instance, autostarted=autostarted, embed_bridge=embed_bridge)

    return server
