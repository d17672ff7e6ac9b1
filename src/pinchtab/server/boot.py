"""Running ``pinchtab server`` with the default instance started first.

The default instance's bridge (its own Python, then its Chromium) is spawned before this process
loads FastAPI and the route table, so the three start side by side instead of one after the other;
the server then answers once that instance runs, as before. ``--autostarted`` (how ``pinchtab mcp``
starts a server) adds: exit quietly when a server already answers on the port, and write the output
to ``<stateDir>/logs/server-<port>.log``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import socket
import sys
import time
from collections.abc import Callable
from typing import Any

from pinchtab import logfile
from pinchtab.config import Config
from pinchtab.errors import PinchtabError

log = logging.getLogger("pinchtab.server")


def port_taken(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


def log_to_state_dir(config: Config) -> None:
    """Send this process's stdout and stderr to the server log of its port (appended, rotated
    beyond ``server.logMaxBytes``)."""
    from pinchtab.autostart import log_path

    path = log_path(config.server.port)
    logfile.rotate(path, config.server.log_max_bytes, config.server.log_backups)
    fd = logfile.open_append(path)
    os.write(fd, f"\n--- {time.strftime('%Y-%m-%d %H:%M:%S')} {' '.join(sys.argv)} (pid {os.getpid()})\n".encode())
    os.close(fd)
    logfile.redirect_std_streams(path)
    logfile.keep_bounded(path, config.server.log_max_bytes, config.server.log_backups)


def bound_inherited_log(config: Config) -> None:
    """A server ``pinchtab.autostart`` started writes to its server log through the descriptors
    it was given: keep that file rotated too."""
    from pinchtab.autostart import log_path

    path = log_path(config.server.port)
    if logfile.writes_to(path):
        logfile.keep_bounded(path, config.server.log_max_bytes, config.server.log_backups)


def run(config: Config, log_level: str, start_default: bool, *, autostarted: bool = False,
        embed_bridge: Callable[[dict[str, Any]], Any] | None = None) -> None:
    """``embed_bridge`` serves a bridge in this process (pinchtab.bridge.embedded.start); used
    for the default instance when ``default_in_process`` says so."""
    embed = embed_bridge if embed_bridge is not None and default_in_process(config, autostarted) else None
    asyncio.run(_serve(config, log_level, start_default, embed, need_browser=autostarted and start_default))


def default_in_process(config: Config, autostarted: bool) -> bool:
    """``server.defaultInProcess``: "auto" is on for a server ``pinchtab mcp`` started, where
    start-up time is what the agent waits for."""
    setting = config.server.default_in_process
    return setting == "on" or (setting == "auto" and autostarted)


def _bridge_client(config: Config) -> Any:
    from pinchtab.server.upstream import Upstream

    return Upstream(config.security.attach.ca_file)


async def _serve(config: Config, log_level: str, start_default: bool,
                 embed: Callable[[dict[str, Any]], Any] | None = None, *, need_browser: bool = False) -> None:
    """``need_browser``: exit (code 3) with the reason when the default instance does not start,
    instead of serving without a browser: an autostarted server is useful for nothing else, and its
    starter (pinchtab.autostart) reports the exit with the log's tail."""
    from pinchtab.server.instances import InstanceManager
    from pinchtab.server.profiles import ProfileStore

    manager = InstanceManager(config, ProfileStore(config.server.state_dir, config.server.max_profiles),
                              lambda: _bridge_client(config),
                              embed_default=embed)
    failure = None
    inst = None
    if start_default:
        try:
            inst = await manager.start_default(wait=False)  # spawned now; the app's start-up waits for it
        except PinchtabError as exc:
            failure = exc.message
            log.error("the default instance did not start: %s", exc.message)

    import uvicorn

    from pinchtab.server.app import create_app

    app = create_app(config, default_instance=start_default, manager=manager)
    if need_browser:
        if inst is not None:
            await manager.wait_ready(inst)
            if inst.status != "running":
                failure = inst.error or f"it ended up {inst.status}"
        if failure is not None:
            log.error("exiting: no browser, the default instance did not start: %s", failure)
            await manager.close()
            raise SystemExit(3)
    server = uvicorn.Server(uvicorn.Config(app, host=config.server.bind, port=config.server.port,
                                           log_level=log_level, access_log=False))
    gc.freeze()  # what start-up loaded lives on; the collector is off until here (pinchtab.cli)
    gc.enable()
    try:
        await server.serve()
    finally:
        if not server.started:  # start-up failed (port taken, ...): the lifespan did not stop the bridge
            await manager.close()
