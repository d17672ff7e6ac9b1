"""The dashboard family's handlers (``pinchtab.api.routes.dashboard``), one method per route name:
the activity log, agents, the event streams, the effective config and the login cookie."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
from collections.abc import AsyncIterator
from datetime import datetime, timedelta, timezone
from typing import Any

from starlette.responses import Response, StreamingResponse

from pinchtab.config import Config
from pinchtab.dashboard.activity import ActivityLog, agent_or_anonymous, matches_mode, parse_time
from pinchtab.dashboard.monitor import Monitor
from pinchtab.dashboard.sessions import SessionStore
from pinchtab.dashboard.settings import Settings
from pinchtab.errors import BadRequest, NotFound, PinchtabError
from pinchtab.models import Reply
from pinchtab.models import dashboard as d
from pinchtab.web import current_session

KEEPALIVE = 15.0  # seconds between comment lines on an idle stream (proxies drop silent ones)
COOKIE = "pinchtab_auth"


class Unauthorized(PinchtabError):
    status = 401
    default_code = "unauthorized"


def cookie_value(token: str) -> str:
    """What the login cookie holds: a MAC of the token, not the token (web.TokenAuth checks it)."""
    return hmac.new(token.encode(), b"pinchtab-dashboard-session", hashlib.sha256).hexdigest()


def _sse(name: str, payload: Any) -> bytes:
    return f"event: {name}\ndata: {json.dumps(payload, ensure_ascii=False, separators=(',', ':'))}\n\n".encode()


class DashboardHandlers:
    def __init__(self, config: Config, activity: ActivityLog, monitor: Monitor, sessions: SessionStore | None) -> None:
        self.config = config
        self.activity = activity
        self.monitor = monitor
        self.sessions = sessions
        self.settings = Settings(config)

    async def activity_log(self, req: d.ActivityQuery) -> dict[str, Any]:
        try:
            since = parse_time(req.since) if req.since else None
            until = parse_time(req.until) if req.until else None
        except ValueError:
            raise BadRequest("since and until must be RFC 3339 times, e.g. 2026-01-31T12:00:00Z", "bad_filter") from None
        if req.age_sec is not None:
            since = datetime.now(timezone.utc) - timedelta(seconds=req.age_sec)
        filters = {"agentId": req.agent_id, "tabId": req.tab_id, "instanceId": req.instance_id, "action": req.action,
                   "source": req.source, "requestId": req.request_id, "sessionId": req.session_id}
        events = self.activity.query({k: v for k, v in filters.items() if v}, req.limit, since, until, req.path_prefix)
        return {"events": events, "count": len(events)}

    async def agents(self) -> list[dict[str, Any]]:
        return self.activity.agent_list()

    def _known(self, agent_id: str) -> dict[str, Any]:
        agent = self.activity.agent(agent_id)
        if agent is None:
            raise NotFound(f"agent {agent_or_anonymous(agent_id)!r} not found: GET /api/agents lists the agents seen",
                           "agent_not_found")
        return agent

    async def agent(self, req: d.AgentRef) -> dict[str, Any]:
        agent = self._known(req.agent_id)
        return {"agent": agent, "events": self.activity.feed_for(agent["id"], req.mode)}

    async def agent_events(self, req: d.AgentStream) -> Response:
        agent = self._known(req.agent_id)
        return self._stream(req.mode, agent["id"], monitoring=False)

    async def report_agent_event(self, req: d.AgentProgress) -> Reply:
        event = self.activity.report(req.agent_id, req.message.strip(), req.progress, req.total, req.details)
        return Reply({"status": "ok", "id": event["id"]}, 201)

    async def events(self, req: d.EventsQuery) -> Response:
        return self._stream(req.mode, agent_or_anonymous(req.agent_id) if req.agent_id else None, monitoring=True)

    def _stream(self, mode: str, agent_id: str | None, monitoring: bool) -> Response:
        queue = self.activity.subscribe()  # before the backlog is read: nothing falls between the two
        if monitoring:
            self.monitor.ensure_running()

        def wanted(name: str, payload: Any) -> bool:
            if name in ("action", "progress"):
                return matches_mode(mode, payload["channel"]) and (agent_id is None or payload["agentId"] == agent_id)
            return monitoring

        async def body() -> AsyncIterator[bytes]:
            try:
                yield _sse("init", self.activity.agent_list())
                for event in self.activity.feed_for(agent_id, mode):
                    yield _sse("progress" if event["channel"] == "progress" else "action", event)
                if monitoring:
                    yield _sse("monitoring", self.monitor.last or await self.monitor.snapshot())
                while True:
                    try:
                        name, payload = await asyncio.wait_for(queue.get(), KEEPALIVE)
                    except asyncio.TimeoutError:
                        yield b": keepalive\n\n"
                        continue
                    if wanted(name, payload):
                        yield _sse(name, payload)
            finally:
                self.activity.unsubscribe(queue)

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(body(), media_type="text/event-stream", headers=headers)

    async def effective_config(self) -> dict[str, Any]:
        return self.settings.envelope()

    async def update_config(self, req: d.ConfigUpdate) -> dict[str, Any]:
        return self.settings.update(req.model_dump(by_alias=True, exclude_none=True))

    async def login(self, req: d.LoginRequest) -> Response | Reply:
        token = self.config.server.token
        if not token:
            return Reply({"status": "ok", "auth": "none"}, 200)
        if not hmac.compare_digest(req.token.encode(), token.encode()):
            raise Unauthorized("wrong token", "bad_token")
        response = Response(b'{"status":"ok"}', media_type="application/json")
        response.set_cookie(COOKIE, cookie_value(token), httponly=True, samesite="strict", path="/")
        return response

    async def logout(self) -> Response:
        response = Response(b'{"status":"ok"}', media_type="application/json")
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return response

    # -- agent sessions ---------------------------------------------------------------------------

    def _store(self) -> SessionStore:
        if self.sessions is None:
            raise NotFound("agent sessions are off (sessions.agent.enabled, sessions.agent.mode)", "sessions_disabled")
        return self.sessions

    async def create_session(self, req: d.AgentSessionCreate) -> dict[str, Any]:
        session, token = self._store().create(req.agent_id.strip(), req.label)
        return {**session, "sessionToken": token}

    async def agent_sessions(self) -> list[dict[str, Any]]:
        return self._store().list()

    async def my_session(self) -> dict[str, Any]:
        caller = current_session.get()
        if caller is None:
            raise Unauthorized("GET /sessions/me needs Authorization: Session <token>", "session_auth_required")
        found = self._store().get(caller["id"])
        if found is None:
            raise Unauthorized("invalid or expired session", "bad_session")
        return found

    async def agent_session(self, req: d.AgentSessionRef) -> dict[str, Any]:
        found = self._store().get(req.session_id)
        if found is None:
            raise NotFound(f"no agent session {req.session_id}: GET /sessions lists them", "session_not_found")
        return found

    async def revoke_session(self, req: d.AgentSessionRef) -> dict[str, Any]:
        if not self._store().revoke(req.session_id):
            raise NotFound(f"no agent session {req.session_id}: GET /sessions lists them", "session_not_found")
        return {"status": "ok"}

    async def close(self) -> None:
        if self.sessions is not None:
            self.sessions.close()
        with contextlib.suppress(Exception):
            await self.monitor.close()
