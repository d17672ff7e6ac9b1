"""Instances: the registry of this server's browser instances and its API (start, stop, restart,
queries), one ``pinchtab bridge`` with its own Chromium, port and profile each.

The work is done beside it: launch.py spawns and stops the bridges (processes, config files,
ports, readiness), health.py watches them (the monitor loop, tab polling, logs; a frozen bridge is
killed); instance.py is the record all of them share. The supervisor (crash restarts) is given as
``on_bridge_exit``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pinchtab.config import Config
from pinchtab.errors import BadRequest, Conflict, NotFound, NotReady, PinchtabError
from pinchtab.server.health import Monitor
from pinchtab.server.instance import Instance
from pinchtab.server.launch import START_TIMEOUT, Launcher
from pinchtab.server.profiles import ProfileStore, new_id

if TYPE_CHECKING:
    from pinchtab.server.upstream import Upstream

log = logging.getLogger("pinchtab.server")

MODES = ("headless", "headed")
DEFAULT_PROFILE = "default"


class InstanceManager:
    def __init__(
        self,
        config: Config,
        profiles: ProfileStore,
        client: Upstream | Callable[[], Upstream],
        *,
        on_tabs_lost: Callable[[str], None] = lambda instance_id: None,
        on_bridge_exit: Callable[[Instance], bool] = lambda inst: False,
        embed_default: Callable[[dict[str, Any]], Any] | None = None,
    ) -> None:
        self.config = config
        self.profiles = profiles
        # A factory is called on first use: at start-up, after the default instance was spawned
        # (the client's import, aiohttp, is time that Chromium's launch need not wait for).
        self._client = client
        self.on_tabs_lost = on_tabs_lost
        # A bridge exited unasked: True when it will be restarted (its tabs then stay routed to it).
        self.on_bridge_exit = on_bridge_exit
        self.instances: dict[str, Instance] = {}
        token = config.server.token
        self._auth = [(b"authorization", f"Bearer {token}".encode())] if token else []
        # embed_default serves the default instance's bridge in this process (pinchtab.bridge.embedded.start,
        # given by pinchtab.cli when server.defaultInProcess applies); None: a process of its own.
        self.launcher = Launcher(config, lambda: self.client, self._bridge_exited, embed_default)
        self.monitor = Monitor(self.instances, lambda: self.client, self.auth_header, config.instances.health,
                               self._bridge_frozen)
        self._closing = False
        self._kills: set[asyncio.Task[None]] = set()

    @property
    def client(self) -> Upstream:
        """The server's one client to its bridges (upstream.py), also the proxy's."""
        if callable(self._client):
            self._client = self._client()
        return self._client

    def auth_header(self, inst: Instance) -> list[tuple[bytes, bytes]]:
        """The Authorization header the server sends to ``inst``'s bridge: its own token, if any."""
        return [(b"authorization", f"Bearer {inst.token}".encode())] if inst.token else self._auth

    @property
    def closing(self) -> bool:
        return self._closing

    # -- queries --------------------------------------------------------------------------------

    def list(self) -> list[Instance]:
        return list(self.instances.values())

    def get(self, instance_id: str) -> Instance:
        inst = self.instances.get(instance_id)
        if inst is None:
            raise NotFound(f"instance {instance_id!r} not found; GET /instances lists them", "instance_not_found")
        return inst

    def running(self) -> list[Instance]:
        return [i for i in self.instances.values() if i.status == "running"]

    def live(self) -> list[Instance]:
        """Instances whose bridge process is up (running, or in error with its bridge still there)."""
        return [i for i in self.instances.values() if i.process_alive and i.status in ("running", "error")]

    def default_instance(self) -> Instance | None:
        """Where shorthand requests without a tabId go: the default instance while its bridge is up
        (or starting), else the oldest running instance."""
        for inst in self.instances.values():
            if inst.default and inst.status in ("starting", "running", "error") and (inst.process_alive or inst.status == "starting"):
                return inst
        running = self.running()
        return running[0] if running else None

    def using_profile(self, profile_id: str) -> Instance | None:
        for inst in self.instances.values():
            if inst.profile_id == profile_id and inst.status != "stopped":
                return inst
        return None

    def new_id(self) -> str:
        iid = new_id("inst")
        while iid in self.instances:
            iid = new_id("inst")
        return iid

    # -- lifecycle ------------------------------------------------------------------------------

    def sweep(self) -> None:
        self.launcher.sweep()

    def start_monitor(self) -> None:
        self.monitor.start()

    async def start(self, profile_key: str | None = None, mode: str | None = None, *, default: bool = False, wait: bool = True) -> Instance:
        if self._closing:
            raise NotReady("the server is shutting down", "shutting_down")
        mode = mode or ("headless" if self.config.browser.headless else "headed")
        if mode not in MODES:
            raise BadRequest(f"mode must be 'headless' or 'headed', not {mode!r}", "invalid_mode")
        if profile_key:
            profile = self.profiles.get(profile_key)
            holder = self.using_profile(profile.id)
            if holder is not None:
                raise Conflict(
                    f"profile {profile.name!r} is already used by instance {holder.id} ({holder.status}); "
                    f"stop it with POST /instances/{holder.id}/stop or restart it with POST /instances/{holder.id}/restart",
                    "profile_in_use",
                )
            inst = Instance(id=self.new_id(), profile_id=profile.id, profile_name=profile.name,
                            profile_dir=profile.path, temporary=False, mode=mode, default=default)
        else:
            inst = Instance(id=self.new_id(), profile_id=None, profile_name=None, profile_dir="",
                            temporary=True, mode=mode, default=default)
        await self.add(inst, wait=wait)
        return inst

    async def add(self, inst: Instance, *, wait: bool = True) -> None:
        """Register ``inst`` and spawn its bridge; wait until it answers (or fails) when ``wait``.
        When nothing could be spawned (no free port, no executable) it is forgotten again."""
        self.instances[inst.id] = inst
        try:
            settled = await self.launcher.launch(inst)
        except PinchtabError:
            self.instances.pop(inst.id, None)
            if inst.temporary and inst.profile_dir:
                shutil.rmtree(inst.profile_dir, ignore_errors=True)
            raise
        if wait:
            await settled

    async def start_default(self, *, wait: bool = True) -> Instance:
        profile = self.profiles.ensure(DEFAULT_PROFILE, "the default instance's profile")
        holder = self.using_profile(profile.id)
        if holder is not None:
            return holder
        return await self.start(profile.id, default=True, wait=wait)

    def _bridge_exited(self, inst: Instance) -> None:
        """A bridge went away on its own (launch.py noted why in ``inst.error``)."""
        if inst.status == "starting":
            self.on_tabs_lost(inst.id)
            return  # its start reports it
        if not self.on_bridge_exit(inst):
            self.on_tabs_lost(inst.id)
            inst.error = f"{inst.error}; restart it with POST /instances/{inst.id}/restart"
        log.error("instance %s: %s", inst.id, inst.error)

    def _bridge_frozen(self, inst: Instance) -> None:
        """The monitor gave up on a bridge (``inst.kill_reason``): kill it; its exit is then handled
        as a crash (restarted with its tabs)."""
        task = asyncio.create_task(self.launcher.kill_frozen(inst))
        self._kills.add(task)
        task.add_done_callback(self._kills.discard)

    async def stop(self, instance_id: str, *, remove: bool = True) -> Instance:
        inst = self.get(instance_id)
        async with inst._lock:
            await self._stop(inst)
        if remove:
            self.instances.pop(inst.id, None)
        return inst

    async def _stop(self, inst: Instance, *, keep_tabs: bool = False) -> None:
        if not keep_tabs:
            inst.restoring = set()
            self.on_tabs_lost(inst.id)
        await self.launcher.stop(inst)

    async def restart(self, instance_id: str, *, wait: bool = True, keep_tabs: bool = False) -> Instance:
        """Stop (if needed) and start again with the same id, port range, profile and mode.
        ``keep_tabs``: an automatic restart after a crash, whose tabs will be reopened."""
        inst = self.get(instance_id)
        if not inst.temporary and inst.profile_id is not None:
            self.profiles.get(inst.profile_id)  # 404 when the profile was deleted meanwhile
        async with inst._lock:
            if inst.status != "stopped":
                await self._stop(inst, keep_tabs=keep_tabs)
            self.instances[inst.id] = inst
            settled = await self.launcher.launch(inst)
        if wait:
            await settled
        return inst

    async def close(self) -> None:
        """Stop every instance (the server is shutting down)."""
        self._closing = True
        await self.monitor.close()
        await asyncio.gather(*(self.stop(i) for i in list(self.instances)), return_exceptions=True)

    async def wait_ready(self, inst: Instance, timeout: float = START_TIMEOUT) -> None:
        if inst.status == "starting":
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(inst.ready.wait(), timeout)
