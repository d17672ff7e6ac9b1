"""A bridge that exits on its own (or froze and was killed, health.py) is restarted with backoff
(``instances.restart``, like PinchTab's restart policy), and its tabs are reopened at their last
URLs: the old tab ids keep working (the proxy maps them to the new ones), so an agent keeps its
place after a crash. The fresh bridge's own blank tab takes the first of them (no extra blank tab),
and the tabs are mapped as soon as they exist: a page that never loads does not hold up the others.

From the exit until its tab is back, a request for one of its tabs answers 503 ``tab_restoring``,
never 404. A stop or restart asked for by a client is not a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Protocol

from pinchtab.config import Config, RestartPolicy
from pinchtab.errors import PinchtabError
from pinchtab.server.instance import Instance
from pinchtab.server.tab_owners import TabOwners

if TYPE_CHECKING:
    from pinchtab.server.upstream import Upstream

log = logging.getLogger("pinchtab.server")

REOPEN_TIMEOUT = 30.0  # for the fresh bridge to list or open a tab
# A reopened tab answers 503 tab_restoring while it loads, at most this long (or browser.navigationTimeoutMs).
LOAD_TIMEOUT_MS = 10_000


class Restarts(Protocol):
    """What the supervisor needs of the instance registry (instances.InstanceManager)."""

    instances: dict[str, Instance]
    config: Config

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
            inst.restoring = set()
            if p.max_restarts:
                inst.error = (inst.error or "") + (f"; gave up after {inst.crash_restarts} restarts in a row "
                                                   "(instances.restart.maxRestarts)")
            return False
        delay = min(p.init_backoff_sec * (2 ** inst.crash_restarts), p.max_backoff_sec)
        inst.crash_restarts += 1
        inst.error = (inst.error or "") + (f"; restarting it in {delay:g} s "
                                           f"(try {inst.crash_restarts} of {p.max_restarts})")
        tabs = list(inst.last_tabs.items())
        inst.restoring = {tid for tid, _ in tabs}
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
        try:
            await self._reopen(inst, tabs)
        finally:
            inst.restoring.difference_update(old for old, _ in tabs)

    async def _reopen(self, inst: Instance, tabs: list[tuple[str, str]]) -> None:
        blank = await self._blank_tabs(inst)
        inst.last_tabs = {}
        reuse = blank[: len(tabs)]
        opened: list[str | None] = [*reuse, *await asyncio.gather(*(self._try_open(inst) for _ in tabs[len(reuse):]))]
        if None in opened:
            # A POST /tab that timed out (one slow Page.enable on a loaded machine) still opened its
            # tab: take the blank tabs no other reopened tab took, then open the rest once more.
            taken = set(opened)
            left = [t for t in await self._blank_tabs(inst) if t not in taken]
            opened = [new or (left.pop(0) if left else await self._try_open(inst)) for new in opened]

        async def one(old: str, url: str, new: str | None) -> None:
            if new is None:  # the tab is lost, the others are not
                log.warning("instance %s: could not reopen tab %s at %s", inst.id, old, url)
                self.owners.forget(old)
                return
            self.owners.moved(old, new, inst.id)
            inst.last_tabs[new] = url
            inst.tab_updates += 1
            if url != "about:blank":
                await self._load(inst, new, url)
            inst.restoring.discard(old)

        await asyncio.gather(*(one(old, url, new) for (old, url), new in zip(tabs, opened)))
        if tabs:
            log.warning("instance %s: reopened %d tab(s) after its bridge restarted", inst.id, len(tabs))

    async def _blank_tabs(self, inst: Instance) -> list[str]:
        """The blank tabs a fresh bridge's Chromium opened by itself, to take the first reopened tabs."""
        try:
            status, data = await self.manager.client.get_json(inst.url, "/tabs", self.manager.auth_header(inst), REOPEN_TIMEOUT)
        except Exception:
            return []
        tabs = data.get("tabs") if status == 200 and isinstance(data, dict) else None
        return [t["id"] for t in tabs or [] if isinstance(t, dict) and t.get("id") and t.get("url") == "about:blank"]

    async def _try_open(self, inst: Instance) -> str | None:
        try:
            return await self._open_blank(inst)
        except Exception as exc:
            log.warning("instance %s: could not open a tab: %s", inst.id, exc)
            return None

    async def _open_blank(self, inst: Instance) -> str:
        status, data = await self.manager.client.post_json(inst.url, "/tab", {"action": "new"},
                                                           self.manager.auth_header(inst), REOPEN_TIMEOUT)
        new = data.get("tabId") if status == 200 and isinstance(data, dict) else None
        if not isinstance(new, str) or not new:
            raise RuntimeError(f"POST /tab answered {status}: {data}")
        return new

    async def _load(self, inst: Instance, tab: str, url: str) -> None:
        """Load a reopened tab, waiting at most LOAD_TIMEOUT_MS (a page that never loads stays open
        on its way there, as it was)."""
        timeout = min(LOAD_TIMEOUT_MS, self.manager.config.browser.navigation_timeout_ms)
        try:
            await self.manager.client.post_json(inst.url, "/navigate", {"tabId": tab, "url": url, "timeout": timeout},
                                                self.manager.auth_header(inst), timeout / 1000 + REOPEN_TIMEOUT)
        except Exception as exc:
            log.warning("instance %s: reopened tab %s did not load %s: %s", inst.id, tab, url, exc)

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
