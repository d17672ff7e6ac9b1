"""Health of started instances: the monitor loop (``GET /health`` of every live bridge each
``instances.health.intervalSec``), the tabs each one has open (polled, to reopen them after a
crash), and the bridges' logs.

A running bridge that misses ``instances.health.failures`` checks in a row (no answer within
``timeoutSec``) shows ``error``; one that misses ``restartAfter`` in a row is frozen: ``on_frozen``
kills it, and the supervisor restarts it with its tabs. One that reports its Chromium down (503) is
in ``error`` until the bridge has restarted it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pinchtab.config import HealthPolicy
from pinchtab.server.bridge_client import UpstreamError
from pinchtab.server.instance import Instance

if TYPE_CHECKING:
    from pinchtab.server.upstream import Upstream

log = logging.getLogger("pinchtab.server")

HEALTH_TIMEOUT = 3.0  # a starting bridge's /health (launch.py)
TABS_POLL = 2.0  # how often the tabs (and URLs) of a running instance are noted, to reopen after a crash


class Monitor:
    """Checks the instances of one registry; ``client`` gives the server's client to its bridges."""

    def __init__(self, instances: dict[str, Instance], client: Callable[[], Upstream],
                 auth_header: Callable[[Instance], list[tuple[bytes, bytes]]], policy: HealthPolicy,
                 on_frozen: Callable[[Instance], None]) -> None:
        self.instances = instances
        self.client = client
        self.auth_header = auth_header
        self.policy = policy
        self.on_frozen = on_frozen
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="pinchtab-instance-monitor")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.policy.interval_sec)
            targets = [i for i in self.instances.values()
                       if i.status in ("running", "error") and i.process_alive and i.kill_reason is None]
            if targets:
                await asyncio.gather(*(self.check(i) for i in targets), return_exceptions=True)

    async def check(self, inst: Instance) -> None:
        """One health check of a started instance; updates status, tab count and routing."""
        try:
            status, body = await self.client().get_json(inst.url, "/health", self.auth_header(inst), self.policy.timeout_sec)
            if not isinstance(body, dict):
                raise ValueError(f"/health answered {status} without a JSON object")
        except (UpstreamError, ValueError) as exc:
            if inst.status not in ("running", "error") or not inst.process_alive or inst.kill_reason:
                return
            inst.health_failures += 1
            p = self.policy
            if inst.health_failures >= p.failures and inst.status == "running":
                # Frozen or overloaded: its tabs stay routed to it (503 until it answers again).
                inst.status = "error"
                inst.error = f"the bridge does not answer /health ({type(exc.__cause__ or exc).__name__})"
                log.error("instance %s: %s", inst.id, inst.error)
            if (p.restart_after and inst.health_failures >= p.restart_after
                    and inst.proc is not None and not hasattr(inst.proc, "stop")):
                # Frozen for good. (An attached bridge is no process of ours, an in-process one is
                # this process: neither is killed.)
                inst.kill_reason = (f"the bridge did not answer /health {inst.health_failures} times in a row "
                                    f"(within {p.timeout_sec:g} s each; instances.health.restartAfter): frozen, killed")
                log.error("instance %s: %s", inst.id, inst.kill_reason)
                self.on_frozen(inst)
            return
        if inst.status not in ("running", "error") or not inst.process_alive:
            return  # stopped or restarted while we asked
        inst.health_failures = 0
        restarts = int(body.get("restarts") or 0)
        inst.last_death = body.get("lastDeath") or inst.last_death
        # A new Chromium reopens the old tabs under their old ids (browser.restoreTabs).
        inst.restarts = restarts
        if status == 200 and body.get("status") == "ok":
            if inst.status == "error":
                log.warning("instance %s recovered (browser restarts: %s)", inst.id, restarts)
            inst.status = "running"
            inst.error = None
            inst.tabs = int(body.get("tabs") or 0)
            if time.monotonic() - inst.tabs_polled >= TABS_POLL:
                await self._poll_tabs(inst)
        else:
            if inst.status == "running":
                log.error("instance %s: browser down: %s", inst.id, body.get("lastDeath") or body)
            inst.status = "error"
            inst.tabs = 0
            inst.error = f"the instance's Chromium is down: {body.get('lastDeath') or body.get('error') or 'no detail'}"

    async def _poll_tabs(self, inst: Instance) -> None:
        inst.tabs_polled = time.monotonic()
        updates = inst.tab_updates
        with contextlib.suppress(UpstreamError):
            status, data = await self.client().get_json(inst.url, "/tabs", self.auth_header(inst), self.policy.timeout_sec)
            # A tab the proxy saw open or close meanwhile may be missing from (or still in) this list.
            if status == 200 and data is not None and inst.tab_updates == updates:
                inst.last_tabs = merge_tabs(inst.last_tabs, tab_list(data))


def tab_list(data: Any) -> list[tuple[str, str]]:
    """(id, url) of a bridge's GET /tabs answer."""
    tabs = data.get("tabs") if isinstance(data, dict) else None
    return [(t["id"], t.get("url") or "about:blank") for t in tabs or [] if isinstance(t, dict) and t.get("id")]


def merge_tabs(known: dict[str, str], polled: list[tuple[str, str]]) -> dict[str, str]:
    """The tabs a bridge listed, each at its URL; a tab still at about:blank keeps the URL the proxy
    saw it asked to load (a page that never finished loading reopens there, not blank)."""
    return {tid: known.get(tid, url) if url == "about:blank" else url for tid, url in polled}


def log_tail(inst: Instance, lines: int = 3, joiner: str = " | ") -> str:
    """The last lines the bridge logged; for error messages (the default ``joiner``) only
    the telling ones, shortened."""
    if inst.log_path is None:
        return ""
    try:
        with open(inst.log_path, "rb") as f:
            f.seek(inst.log_offset)
            text = f.read().decode(errors="replace").splitlines()
    except OSError:
        return ""
    if joiner != " | ":
        return joiner.join(text[-lines:])
    telling = [t.strip() for t in text if t.strip() and not t.startswith((" ", "Traceback", "ERROR:    Application startup failed"))]
    return joiner.join(telling[-lines:])[-600:]
