"""Attached instances: bridges running elsewhere, and external Chromes reached over CDP.

``POST /instances/attach-bridge`` registers a ``pinchtab bridge`` the server did not start (another
host, a Kubernetes pod): the server checks its ``/health`` and its token, then routes its tabs like
a local instance's, sending the bridge's own token. ``POST /instances/attach`` starts a local bridge
that drives an external Chrome over its DevTools websocket (the Chrome is left running when the
instance stops). Both are off unless ``security.attach.enabled``, and only reach the hosts and
schemes of ``security.attach.allowHosts`` / ``allowSchemes``.

An attached bridge lives in ``InstanceManager.instances`` beside the local ones, so routing,
``/tabs`` and the health monitor treat it alike: the monitor marks it ``error`` when it stops
answering ``/health`` and ``running`` when it answers again. It has no process here: stopping or
detaching it only forgets it. The proxy reaches only the origins of registered instances; no
request names its own target.
"""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from pinchtab.config import AttachConfig
from pinchtab.errors import BadRequest, Conflict, Forbidden, PinchtabError
from pinchtab.server.instance import Instance
from pinchtab.server.instances import InstanceManager
from pinchtab.server.profiles import iso_now
from pinchtab.server.upstream import Upstream, UpstreamError

log = logging.getLogger("pinchtab.server.attach")

PROBE_TIMEOUT = 5.0
BRIDGE_SCHEMES = ("http", "https")
CDP_SCHEMES = ("ws", "wss", "http", "https")


class BadGateway(PinchtabError):
    status = 502
    default_code = "attach_unreachable"


@dataclass
class AttachedBridge(Instance):
    """A bridge on another host (or another process tree): no process, a URL, its own token."""

    base_url: str = ""
    attach_type: str = "bridge"

    @property
    def url(self) -> str:
        return self.base_url

    @property
    def process_alive(self) -> bool:
        # Nothing to watch here: the health monitor tells whether it answers.
        return self.status in ("starting", "running", "error")

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out.update(url=self.base_url, port=urlsplit(self.base_url).port, attached=True, attachType=self.attach_type,
                   name=self.profile_name)
        return out


def is_attached_bridge(inst: Instance) -> bool:
    return isinstance(inst, AttachedBridge)


def _forbidden(message: str, key: str) -> Forbidden:
    err = Forbidden(f"{message}; the config key security.attach.{key} decides it", "attach_not_allowed")
    err.extra["key"] = f"security.attach.{key}"
    return err


def _host_allowed(host: str, allowed: list[str]) -> bool:
    host = host.lower()
    for entry in allowed:
        entry = entry.strip().lower().strip("[]")
        if entry == "*" or entry == host:
            return True
        try:  # "10.0.0.0/8" style entries
            if "/" in entry and ipaddress.ip_address(host) in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False


def check_url(raw: str, policy: AttachConfig, *, schemes: tuple[str, ...], bare_origin: bool) -> str:
    """The URL if ``security.attach`` allows it (403 naming the key otherwise, 400 when malformed);
    a bridge URL comes back as its bare origin ``scheme://host:port``."""
    if not policy.enabled:
        raise _forbidden("attaching is disabled", "enabled")
    raw = (raw or "").strip()
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError as exc:
        raise BadRequest(f"invalid URL {raw!r}: {exc}", "invalid_url") from exc
    scheme = parts.scheme.lower()
    if not scheme or not parts.hostname:
        raise BadRequest(f"invalid URL {raw!r}: expected {schemes[0]}://host:port", "invalid_url")
    if scheme not in schemes:
        raise BadRequest(f"URL scheme {scheme!r} cannot be attached here (use {', '.join(schemes)})", "invalid_url")
    if scheme not in [s.lower() for s in policy.allow_schemes]:
        raise _forbidden(f"scheme {scheme!r} is not allowed (allowed: {policy.allow_schemes})", "allowSchemes")
    if parts.username or parts.password:
        raise BadRequest("the URL must not carry credentials: pass the bridge's token as \"token\"", "invalid_url")
    if parts.query or parts.fragment:
        raise BadRequest("the URL must not carry a query or a fragment", "invalid_url")
    host = parts.hostname
    if not _host_allowed(host, policy.allow_hosts):
        raise _forbidden(f"host {host!r} is not allowed (allowed: {policy.allow_hosts})", "allowHosts")
    if not bare_origin:
        if "/devtools/page/" in parts.path:
            raise BadRequest("a page-level DevTools URL cannot be attached: use the browser's "
                             "(ws://host:port/devtools/browser/...) or http://host:port", "invalid_url")
        return raw
    if parts.path not in ("", "/"):
        raise BadRequest(f"a bridge URL is a bare origin (scheme://host:port), not {raw!r}", "invalid_url")
    netloc = f"[{host}]" if ":" in host else host
    port = port or (443 if scheme == "https" else 80)
    return f"{scheme}://{netloc}:{port}"


class Attachments:
    """Attach, detach and describe attached instances of one ``InstanceManager``."""

    def __init__(self, manager: InstanceManager, upstream: Upstream, policy: AttachConfig) -> None:
        self.manager = manager
        self.upstream = upstream
        self.policy = policy

    def find_bridge(self, origin: str) -> AttachedBridge | None:
        for inst in self.manager.instances.values():
            if isinstance(inst, AttachedBridge) and inst.base_url == origin:
                return inst
        return None

    async def probe(self, origin: str, token: str | None) -> dict[str, Any]:
        """The bridge's /health answer, after checking that it takes ``token`` (GET /tabs)."""
        headers = [(b"authorization", f"Bearer {token}".encode())] if token else []
        try:
            status, health = await self.upstream.get_json(origin, "/health", headers, PROBE_TIMEOUT)
        except UpstreamError as exc:
            raise BadGateway(f"the bridge at {origin} did not answer /health: {exc}") from exc
        if status != 200 or not isinstance(health, dict) or health.get("status") != "ok":
            raise BadGateway(f"the bridge at {origin} is not healthy: /health answered {status} {health!r}"[:500])
        if health.get("mode") == "server":
            raise BadRequest(f"{origin} is a pinchtab server, not a bridge: attach its bridges instead", "not_a_bridge")
        try:
            status, _ = await self.upstream.get_json(origin, "/tabs", headers, PROBE_TIMEOUT)
        except UpstreamError as exc:
            raise BadGateway(f"the bridge at {origin} did not answer /tabs: {exc}") from exc
        if status == 401:
            raise BadGateway(f"the bridge at {origin} refused the token"
                             + (" (none was given: pass its token as \"token\")" if not token else ""), "attach_unauthorized")
        if status != 200:
            raise BadGateway(f"the bridge at {origin} answered /tabs with {status}")
        return health

    async def attach_bridge(self, url: str, token: str | None, name: str | None) -> tuple[AttachedBridge, bool]:
        """Register the bridge at ``url``; (instance, created). Attaching a registered origin again
        updates its token and name."""
        origin = check_url(url, self.policy, schemes=BRIDGE_SCHEMES, bare_origin=True)
        token = token or None
        health = await self.probe(origin, token)
        existing = self.find_bridge(origin)
        if existing is not None:
            existing.token = token
            existing.profile_name = name or existing.profile_name
            existing.status, existing.error, existing.health_failures = "running", None, 0
            existing.tabs = int(health.get("tabs") or 0)
            return existing, False
        inst = AttachedBridge(
            id=self.manager.new_id(), profile_id=None, profile_name=name or f"bridge-{urlsplit(origin).hostname}",
            profile_dir="", temporary=False, mode="headless", status="running", pid=health.get("pid"),
            started_at=iso_now(), tabs=int(health.get("tabs") or 0), token=token, base_url=origin,
        )
        inst.ready.set()
        self.manager.instances[inst.id] = inst
        log.info("attached bridge %s at %s as %s", inst.profile_name, origin, inst.id)
        return inst, True

    async def attach_cdp(self, cdp_url: str, name: str | None) -> Instance:
        """A local bridge driving the external Chrome at ``cdp_url`` (it stays running on stop)."""
        url = check_url(cdp_url, self.policy, schemes=CDP_SCHEMES, bare_origin=False)
        inst = Instance(id=self.manager.new_id(), profile_id=None, profile_name=name or "attached-chrome",
                        profile_dir="", temporary=True, mode="headless", cdp_url=url)
        await self.manager.add(inst)
        if inst.status != "running":
            error = inst.error or f"instance ended up {inst.status}"
            await self.manager.stop(inst.id)
            raise BadGateway(f"could not attach the Chrome at {url}: {error}")
        return inst

    async def detach(self, instance_id: str) -> Instance:
        """Forget an attached bridge, or stop the local bridge wrapping an external Chrome."""
        inst = self.manager.get(instance_id)
        if isinstance(inst, AttachedBridge):
            self.manager.instances.pop(inst.id, None)
            self.manager.on_tabs_lost(inst.id)
            inst.status = "stopped"
            inst.tabs = 0
            log.info("detached bridge %s (%s)", inst.id, inst.base_url)
            return inst
        if inst.cdp_url:
            return await self.manager.stop(inst.id)
        raise Conflict(f"instance {inst.id} was started by this server, not attached: "
                       f"stop it with POST /instances/{inst.id}/stop", "not_attached")
