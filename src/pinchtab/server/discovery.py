"""Bridge discovery by DNS: the server attaches every bridge a name resolves to.

Made for a Kubernetes headless Service in front of a StatefulSet of bridges: its name resolves to
one address per ready pod. Every ``discovery.intervalSeconds`` the server resolves it, attaches each
new address as ``scheme://address:port`` with ``discovery.token`` (through the same path and
``security.attach`` policy as ``POST /instances/attach-bridge``), and detaches an address it has not
seen for ``MISSES`` rounds in a row (a pod that was deleted or is not ready). A pod that comes back
under a new address is a new instance; its persistent profile comes back with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections.abc import Awaitable, Callable

from pinchtab.config import DiscoveryConfig
from pinchtab.errors import PinchtabError
from pinchtab.server.attached import Attachments

log = logging.getLogger("pinchtab.server.discovery")

MISSES = 3
Resolver = Callable[[str, int], Awaitable[set[str]]]


async def resolve(name: str, port: int) -> set[str]:
    """The addresses ``name`` resolves to (empty when it does not)."""
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(name, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        return set()
    return {str(info[4][0]) for info in infos}


def origin_of(scheme: str, address: str, port: int) -> str:
    host = f"[{address}]" if ipaddress.ip_address(address).version == 6 else address
    return f"{scheme}://{host}:{port}"


class Discovery:
    def __init__(self, config: DiscoveryConfig, attachments: Attachments, resolver: Resolver = resolve) -> None:
        self.config = config
        self.attachments = attachments
        self.resolver = resolver
        self.known: dict[str, str] = {}  # origin -> instance id
        self.misses: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.config.dns and self._task is None:
            log.info("discovering bridges at %s:%s", self.config.dns, self.config.port)
            self._task = asyncio.create_task(self._loop(), name="pinchtab-discovery")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            try:
                await self.round()
            except Exception:  # a bad round must not end discovery
                log.exception("bridge discovery round failed")
            await asyncio.sleep(self.config.interval_seconds)

    async def round(self) -> None:
        """One resolution: attach the new addresses, detach the long-gone ones."""
        cfg = self.config
        assert cfg.dns
        seen = {origin_of(cfg.scheme, a, cfg.port) for a in await self.resolver(cfg.dns, cfg.port)}
        manager = self.attachments.manager
        for origin in sorted(seen):
            self.misses.pop(origin, None)
            iid = self.known.get(origin)
            if iid is not None and iid in manager.instances:
                continue
            try:
                inst, _ = await self.attachments.attach_bridge(origin, cfg.token, None)
            except PinchtabError as exc:
                log.warning("discovered bridge %s not attached: %s", origin, exc.message)
                continue
            self.known[origin] = inst.id
            log.info("discovered bridge %s attached as %s", origin, inst.id)
        for origin in [o for o in self.known if o not in seen]:
            self.misses[origin] = self.misses.get(origin, 0) + 1
            if self.misses[origin] < MISSES:
                continue
            iid = self.known.pop(origin)
            self.misses.pop(origin, None)
            if iid in manager.instances:
                with contextlib.suppress(PinchtabError):
                    await self.attachments.detach(iid)
                log.info("bridge %s (%s) is gone from %s: detached", origin, iid, cfg.dns)
