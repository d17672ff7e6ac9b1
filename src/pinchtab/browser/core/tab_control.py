"""Coordination state of tabs: an owner's lock (with an expiry) and a human handoff that pauses
actions until resumed or timed out. Bookkeeping only (no CDP): the records live per tab id and go
away with the tab."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from pinchtab.errors import Conflict, Locked

HANDOFF_HINT = "a human is handling this tab; POST /tabs/{id}/resume when done"
DEFAULT_LOCK_S = 300


def _iso(at: float) -> str:
    return datetime.fromtimestamp(at, timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass
class Lock:
    owner: str
    expires: float


@dataclass
class Handoff:
    reason: str
    since: float
    expires: float | None
    timeout_ms: int


@dataclass
class TabControl:
    locks: dict[str, Lock] = field(default_factory=dict)
    handoffs: dict[str, Handoff] = field(default_factory=dict)

    def forget(self, live: set[str]) -> None:
        """Drop the records of tabs that are gone (called with the tabs that still exist)."""
        for table in (self.locks, self.handoffs):
            for tid in [t for t in table if t not in live]:
                del table[tid]

    # -- locks -----------------------------------------------------------------------------------

    def lock(self, tab_id: str, owner: str, timeout_s: float | None) -> dict[str, Any]:
        now = time.time()
        held = self.locks.get(tab_id)
        if held and held.expires > now and held.owner != owner:
            raise Conflict(f"tab {tab_id} is locked by {held.owner!r} until {_iso(held.expires)}", "tab_locked")
        lock = Lock(owner, now + (timeout_s or DEFAULT_LOCK_S))
        self.locks[tab_id] = lock
        return {"locked": True, "tabId": tab_id, "owner": owner, "expiresAt": _iso(lock.expires)}

    def unlock(self, tab_id: str, owner: str) -> dict[str, Any]:
        held = self.locks.get(tab_id)
        if held and held.expires > time.time() and held.owner != owner:
            raise Conflict(f"tab {tab_id} is locked by {held.owner!r}, not {owner!r}", "tab_lock_owner")
        self.locks.pop(tab_id, None)
        return {"unlocked": True, "tabId": tab_id}

    def check_lease(self, tab_id: str, owner: str | None) -> None:
        """An action on a locked tab must come from the lock's owner (PinchTab's enforceTabLease)."""
        held = self.locks.get(tab_id)
        if held is None:
            return
        if held.expires <= time.time():
            del self.locks[tab_id]
            return
        until = f"until {_iso(held.expires)}; only its owner acts on it (X-Owner header, or owner)"
        if not owner:
            raise Locked(f"tab {tab_id} is locked by {held.owner} {until}: owner required")
        if owner != held.owner:
            raise Locked(f"tab {tab_id} is locked by {held.owner} {until}, not {owner}")

    # -- handoff ---------------------------------------------------------------------------------

    def _handoff(self, tab_id: str) -> Handoff | None:
        h = self.handoffs.get(tab_id)
        if h is not None and h.expires is not None and h.expires <= time.time():
            del self.handoffs[tab_id]
            return None
        return h

    def pause(self, tab_id: str, reason: str, timeout_ms: int) -> dict[str, Any]:
        now = time.time()
        h = Handoff(reason, now, now + timeout_ms / 1000 if timeout_ms else None, timeout_ms)
        self.handoffs[tab_id] = h
        return self.status(tab_id)

    def status(self, tab_id: str) -> dict[str, Any]:
        h = self._handoff(tab_id)
        if h is None:
            return {"tabId": tab_id, "status": "active"}
        out: dict[str, Any] = {"tabId": tab_id, "status": "paused_handoff", "reason": h.reason,
                               "requestedAt": _iso(h.since), "hint": HANDOFF_HINT}
        if h.expires is not None:
            out["timeoutMs"] = h.timeout_ms
            out["expiresAt"] = _iso(h.expires)
        return out

    def resume(self, tab_id: str, status: str | None, data: dict[str, Any] | None) -> dict[str, Any]:
        self.handoffs.pop(tab_id, None)
        return {"tabId": tab_id, "status": "active", "resumeStatus": (status or "").strip(), "resolvedData": data}

    def check_actionable(self, tab_id: str) -> None:
        h = self._handoff(tab_id)
        if h is not None:
            err = Conflict(f"tab {tab_id} is paused for human handoff ({h.reason}); "
                           f"POST /tabs/{tab_id}/resume first", "tab_paused_handoff")
            err.extra["details"] = {"hint": HANDOFF_HINT, "reason": h.reason}
            raise err
