"""``pinchtab status`` and ``pinchtab stop``: the server (or bridge) on the configured port.

There is no shutdown route: ``/health`` answers the process id of the server (or bridge), and
``stop`` sends it SIGTERM, which makes a server stop its instances and their browsers first, then
SIGKILL if it is still there after ``grace`` seconds. Only a process of this machine is stopped,
and only one whose command line is pinchtab's: the pid of a server in a container or on another
host is not ours to signal.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from pinchtab.autostart import is_loopback
from pinchtab.server.procs import alive, cmdline

STOP_GRACE = 15.0  # a server stops its bridges and their Chromiums first (~1-3 s each)


@dataclass
class Status:
    url: str
    running: bool  # something answers /health there
    health: dict[str, Any] = field(default_factory=dict)
    healthy: bool = False  # /health answered 200
    instances: list[dict[str, Any]] | None = None  # a server's; None for a bridge
    tabs: list[dict[str, Any]] | None = None
    error: str | None = None  # why instances or tabs could not be read (a token, ...)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"url": self.url, "running": self.running, "healthy": self.healthy}
        if self.running:
            out["health"] = self.health
            out["mode"] = self.mode
        for key in ("instances", "tabs", "error"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    @property
    def mode(self) -> str:
        return str(self.health.get("mode") or "bridge")

    def text(self) -> str:
        if not self.running:
            return f"no pinchtab server answers at {self.url} (start one with `pinchtab server`)"
        h = self.health
        state = "ok" if self.healthy else f"DOWN: {h.get('reason') or h.get('lastDeath') or h.get('status')}"
        lines = [f"pinchtab {self.mode} at {self.url}: {state} (version {h.get('version', '?')}, pid {h.get('pid', '?')})"]
        if self.instances is not None:
            lines.append(f"instances: {len(self.instances)}")
            for i in self.instances:
                default = " default" if i.get("default") else ""
                error = f" ({i['error']})" if i.get("error") else ""
                lines.append(f"  {i.get('id')} {i.get('profileName', '')}{default} {i.get('status')} "
                             f"port {i.get('port')} tabs {i.get('tabs', 0)}{error}")
        if self.tabs is not None:
            lines.append(f"tabs: {len(self.tabs)}")
            for t in self.tabs:
                lines.append(f"  {t.get('id') or t.get('tabId')} {t.get('url', '')} {t.get('title', '')}".rstrip())
        if self.error:
            lines.append(f"(could not list instances or tabs: {self.error})")
        return "\n".join(lines)


def status(url: str, token: str | None, timeout: float = 5.0) -> Status:
    url = url.rstrip("/")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx.Client(base_url=url, timeout=timeout, headers=headers, trust_env=False) as http:
        try:
            res = http.get("/health")
        except httpx.TransportError:
            return Status(url, running=False)
        try:
            health = res.json()
        except ValueError:
            health = {}
        out = Status(url, running=True, health=health if isinstance(health, dict) else {}, healthy=res.status_code == 200)
        try:
            if out.mode == "server":
                out.instances = _get(http, "/instances", "instances")
            out.tabs = _get(http, "/tabs", "tabs")
        except (httpx.HTTPError, ValueError, KeyError) as exc:
            out.error = str(exc)
    return out


def _get(http: httpx.Client, path: str, key: str) -> list[dict[str, Any]]:
    res = http.get(path)
    if res.status_code != 200:
        raise ValueError(f"GET {path} answered {res.status_code}: {res.text[:200]}")
    return list(res.json()[key])


def _is_pinchtab(pid: int) -> bool | None:
    """Is ``pid``'s command line pinchtab's? None where /proc cannot tell (not Linux)."""
    if not Path("/proc/self").exists():
        return None
    return any("pinchtab" in arg for arg in cmdline(pid))


class StopError(Exception):
    """Nothing was stopped, and why."""


def stop(url: str, grace: float = STOP_GRACE) -> dict[str, Any]:
    """Stop the server (or bridge) answering at ``url`` by the pid its /health gives."""
    current = status(url, None)
    if not current.running:
        raise StopError(f"no pinchtab server answers at {current.url}")
    if not is_loopback(current.url):
        raise StopError(f"{current.url} is not on this machine: stop it on its host")
    pid = current.health.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        raise StopError(f"{current.url}/health gives no pid (is it a pinchtab?)")
    if not alive(pid) or _is_pinchtab(pid) is False:
        raise StopError(f"pid {pid} from {current.url}/health is not a pinchtab process of this machine "
                        "(a container's or another namespace's?): stop it where it runs")
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    forced = alive(pid)
    if forced:
        os.kill(pid, signal.SIGKILL)
    return {"stopped": True, "url": current.url, "pid": pid, "mode": current.mode, "forced": forced}
