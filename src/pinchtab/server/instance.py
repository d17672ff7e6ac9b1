"""One instance: a ``pinchtab bridge`` with its own Chromium, port and profile, as the server sees it.

Lifecycle: ``starting`` (process spawned, polling ``GET /health``) -> ``running`` -> ``stopping``
-> ``stopped``; ``error`` when the bridge exits on its own, cannot start, or reports its Chromium
down (``/health`` 503), or stops answering ``/health`` (frozen: killed and restarted after
``instances.health.restartAfter`` misses). A bridge whose Chromium comes back (it restarts it by
itself) returns to ``running``.

A leaf: the registry (instances.py), spawning (launch.py), monitoring (health.py), the supervisor
and the proxy all read and write this record; it imports none of them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Instance:
    id: str
    profile_id: str | None
    profile_name: str | None
    profile_dir: str
    temporary: bool
    mode: str
    default: bool = False
    port: int | None = None
    status: str = "starting"
    pid: int | None = None
    started_at: str | None = None
    error: str | None = None
    tabs: int = 0
    restarts: int = 0
    last_death: str | None = None
    # Its bridge process, or the bridge this process serves (pinchtab.bridge.embedded.InProcessBridge).
    proc: Any = field(default=None, repr=False)
    ready: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    health_failures: int = 0
    log_path: Path | None = None
    log_offset: int = 0  # where this run of the bridge starts in its log
    config_path: Path | None = None
    # Supervision: crash restarts in a row, when it last came up, its tabs as last seen (id -> url:
    # polled, and updated by the proxy as tabs open, load and close), bumped by each proxy update.
    crash_restarts: int = 0
    running_since: float = 0.0
    last_tabs: dict[str, str] = field(default_factory=dict, repr=False)
    tab_updates: int = 0
    tabs_polled: float = 0.0
    # Why the server killed its bridge (it froze); the exit is then reported with this reason.
    kill_reason: str | None = None
    # Old ids of the tabs being reopened after a restart: requests for them answer 503 tab_restoring.
    restoring: set[str] = field(default_factory=set, repr=False)
    _waiter: asyncio.Task[None] | None = field(default=None, repr=False)
    _expected_exit: bool = False
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    # The bridge's own token when it is not the server's (an attached bridge; see attached.py).
    token: str | None = field(default=None, repr=False)
    # An external Chrome this instance's bridge drives over CDP instead of launching one (attached.py).
    cdp_url: str | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def process_alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "profileId": self.profile_id,
            "profileName": self.profile_name,
            "port": self.port,
            "status": self.status,
            "mode": self.mode,
            "pid": self.pid,
            "startedAt": self.started_at,
            "tabs": self.tabs,
            "url": self.url if self.port else None,
        }
        if self.default:
            out["default"] = True
        if self.temporary:
            out["temporary"] = True
        if self.restarts:
            out["browserRestarts"] = self.restarts
        if self.crash_restarts:
            out["bridgeRestarts"] = self.crash_restarts
        if self.last_death:
            out["lastBrowserDeath"] = self.last_death
        if self.error:
            out["error"] = self.error
        if self.cdp_url:
            out.update(attached=True, attachType="cdp", cdpUrl=self.cdp_url)
        return out
