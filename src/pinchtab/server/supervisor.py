"""A bridge that exits on its own is restarted with backoff (``instances.restart``, like PinchTab's
restart policy), and its tabs are reopened at their last URLs: the old tab ids keep working (the
proxy maps them to the new ones), so an agent keeps its place after a crash.

While it is down, its tabs stay routed to it, so requests answer 503 ``instance_unavailable``
(saying when it comes back), not 404. A stop or restart asked for by a client is not a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Protocol

from pinchtab.config import RestartPolicy
from pinchtab.errors import PinchtabError
from pinchtab.server.instance import Instance
from pinchtab.server.tab_owners import TabOwners

if TYPE_CHECKING:
    from pinchtab.server.upstream import Upstream

log = logging.getLogger("pinchtab.server")

REOPEN_TIMEOUT = 30.0


class Restarts(Protocol):
    """What the supervisor needs of the instance registry (instances.InstanceManager)."""

    instances: dict[str, Instance]

    @property
    def closing(self) -> bool: ...

    @property
    def client(self) -> Upstream: ...

    def auth_header(self, inst: Instance) -> list[tuple[bytes, bytes]]: ...

    async def restart(self, instance_id: str, *, wait: bool = ..., keep_tabs: bool = ...) -> Instance: ...


class Supervisor:
    def __init__(self, manager: Restarts, owners: TabOwners, policy: RestartPolicy) -> None:
        self.manager = manager
        self.owners = owners
        self.policy = policy
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def bridge_exited(self, inst: Instance) -> bool:
        """Called when a bridge exited unasked; True when a restart is scheduled (its tabs stay routed)."""
        p = self.policy
        if inst.running_since and time.monotonic() - inst.running_since >= p.stable_after_sec:
            inst.crash_restarts = 0
        if inst.crash_restarts >= p.max_restarts or self.manager.closing:
            if p.max_restarts:
                inst.error = (inst.error or "") + (f"; gave up after {inst.crash_restarts} restarts in a row "
                                                   "(instances.restart.maxRestarts)")
            return False
        delay = min(p.init_backoff_sec * (2 ** inst.crash_restarts), p.max_backoff_sec)
        inst.crash_restarts += 1
        inst.error = (inst.error or "") + (f"; restarting it in {delay:g} s "
                                           f"(try {inst.crash_restarts} of {p.max_restarts})")
        tabs = list(inst.last_tabs)
        old = self._tasks.pop(inst.id, None)
        if old is not None:
            old.cancel()
        self._tasks[inst.id] = asyncio.create_task(self._restart_later(inst, delay, tabs))
        return True

    async def _restart_later(self, inst: Instance, delay: float, tabs: list[tuple[str, str]]) -> None:
        await asyncio.sleep(delay)
        if self._tasks.get(inst.id) is asyncio.current_task():
            del self._tasks[inst.id]  # from here on, a stop or restart by hand waits for this one (the lock)
        if self.manager.closing or self.manager.instances.get(inst.id) is not inst or inst.status != "error":
            return  # stopped or restarted by hand meanwhile
        log.warning("instance %s: restarting its bridge (try %d)", inst.id, inst.crash_restarts)
        try:
            await self.manager.restart(inst.id, wait=True, keep_tabs=True)
        except PinchtabError as exc:
            inst.error = f"automatic restart failed: {exc.message}"
        if inst.status != "running":
            if not self.bridge_exited(inst):
                self.owners.forget_instance(inst.id)
            return
        await self._reopen(inst, tabs)

    async def _reopen(self, inst: Instance, tabs: list[tuple[str, str]]) -> None:
        async def one(old: str, url: str) -> None:
            try:
                status, data = await self.manager.client.post_json(inst.url, "/tab", {"action": "new", "url": url},
                                                                   self.manager.auth_header(inst), REOPEN_TIMEOUT)
                new = data.get("tabId") if status == 200 and isinstance(data, dict) else None
            except Exception as exc:  # the tab is lost, the others are not
                log.warning("instance %s: could not reopen tab %s at %s: %s", inst.id, old, url, exc)
                new = None
            if new:
                self.owners.moved(old, new, inst.id)
            else:
                self.owners.forget(old)

        await asyncio.gather(*(one(old, url) for old, url in tabs))
        if tabs:
            log.warning("instance %s: reopened %d tab(s) after its bridge restarted", inst.id, len(tabs))

    def cancel(self, instance_id: str) -> None:
        task = self._tasks.pop(instance_id, None)
        if task is not None:
            task.cancel()

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

