"""Agent sessions (PinchTab's): a token per agent, revocable, sent as ``Authorization: Session
<token>``. The token is shown once, at creation; the store keeps its SHA-256 only, in
``<stateDir>/agent-sessions.json`` (mode 0600), so sessions outlive a server restart.

A session expires after ``idleTimeoutSec`` without a request and ``maxLifetimeSec`` after its
creation; a revoked or expired one answers 401. It is not an isolation boundary: any caller with
the server token can list, create and revoke sessions.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import secrets
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

log = logging.getLogger("pinchtab.dashboard")

TOKEN_PREFIX = "ses_"
MAX_SESSIONS = 10_000  # revoked and expired ones go first beyond it


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class SessionStore:
    def __init__(self, path: Path, idle_timeout_sec: int, max_lifetime_sec: int) -> None:
        self.path = path
        self.idle = idle_timeout_sec
        self.lifetime = max_lifetime_sec
        self._lock = threading.Lock()
        self._by_id: dict[str, dict[str, Any]] = {}
        self._by_hash: dict[str, dict[str, Any]] = {}
        self._load()

    # -- persistence ------------------------------------------------------------------------------

    def _load(self) -> None:
        try:
            records = json.loads(self.path.read_text())
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("agent sessions: %s unreadable (%s); starting with none", self.path, exc)
            return
        for record in records if isinstance(records, list) else []:
            if isinstance(record, dict) and isinstance(record.get("id"), str) and isinstance(record.get("tokenHash"), str):
                self._by_id[record["id"]] = self._by_hash[record["tokenHash"]] = record

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(list(self._by_id.values()), f)
        os.replace(tmp, self.path)

    # -- the API's operations -------------------------------------------------------------------

    def create(self, agent_id: str, label: str | None) -> tuple[dict[str, Any], str]:
        """A new active session and its token (the only time the token is known)."""
        token = TOKEN_PREFIX + secrets.token_hex(24)
        now = time.time()
        record = {"id": "ses_" + secrets.token_hex(8), "agentId": agent_id, "label": label or "",
                  "tokenHash": _hash(token), "createdAt": now, "lastSeenAt": now,
                  "expiresAt": now + self.lifetime, "status": "active"}
        with self._lock:
            self._by_id[record["id"]] = self._by_hash[record["tokenHash"]] = record
            self._trim()
            self._save()
        return self.public(record), token

    def _trim(self) -> None:
        if len(self._by_id) <= MAX_SESSIONS:
            return
        for sid in [s["id"] for s in self._by_id.values() if self._state(s) != "active"][: len(self._by_id) - MAX_SESSIONS]:
            del self._by_hash[self._by_id.pop(sid)["tokenHash"]]

    def _state(self, record: dict[str, Any], now: float | None = None) -> str:
        now = time.time() if now is None else now
        if record["status"] != "active":
            return str(record["status"])
        if now >= record["expiresAt"] or now - record["lastSeenAt"] >= self.idle:
            return "expired"
        return "active"

    def public(self, record: dict[str, Any]) -> dict[str, Any]:
        return {"id": record["id"], "agentId": record["agentId"], "label": record["label"] or None,
                "createdAt": _iso(record["createdAt"]), "lastSeenAt": _iso(record["lastSeenAt"]),
                "expiresAt": _iso(record["expiresAt"]), "status": self._state(record)}

    def list(self) -> list[dict[str, Any]]:
        return [self.public(r) for r in sorted(self._by_id.values(), key=lambda r: r["createdAt"])]

    def get(self, session_id: str) -> dict[str, Any] | None:
        record = self._by_id.get(session_id)
        return self.public(record) if record else None

    def revoke(self, session_id: str) -> bool:
        with self._lock:
            record = self._by_id.get(session_id)
            if record is None:
                return False
            record["status"] = "revoked"
            self._save()
        return True

    def authenticate(self, token: str) -> dict[str, Any] | None:
        """The active session of ``token`` (its last-seen time moves on), else None."""
        # Looked up by the token's hash: the time a lookup takes says nothing of the token itself.
        record = self._by_hash.get(_hash(token))
        now = time.time()
        if record is None or self._state(record, now) != "active":
            return None
        record["lastSeenAt"] = now  # in memory: a restart forgets at most the idle clock
        return {"id": record["id"], "agentId": record["agentId"]}

    def close(self) -> None:
        with contextlib.suppress(OSError), self._lock:
            self._save()


_ADMIN_PREFIXES = ("/api/", "/sessions", "/profiles", "/instances", "/cache", "/shutdown")


def session_may(method: str, path: str, session: dict[str, Any]) -> bool:
    """Whether an agent session may call ``method path``: the automation API, its own session
    (GET /sessions/me, POST /sessions/{its id}/revoke) and its own progress reports; not the
    dashboard, session, profile or instance management (PinchTab's rule)."""
    if method == "GET" and path == "/sessions/me":
        return True
    if method == "POST" and session and path == f"/sessions/{session['id']}/revoke":
        return True
    if method == "POST" and session and path == f"/api/agents/{session['agentId']}/events":
        return True
    return not path.startswith(_ADMIN_PREFIXES)
