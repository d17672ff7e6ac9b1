"""The dashboard's routes: the activity log, agents and their events, the event stream, the effective
config and the dashboard's login (PinchTab's /api/* family)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from pinchtab.models.base import ApiModel

MAX_AGENT_ID_CHARS = 200
MAX_ACTIVITY_LIMIT = 1000
MAX_PROGRESS_MESSAGE_CHARS = 2000

EventMode = Literal["tool_calls", "progress", "both"]


class ActivityQuery(ApiModel):
    limit: int = Field(200, ge=1, le=MAX_ACTIVITY_LIMIT, description="The most recent events to answer (1-1000).")
    age_sec: int | None = Field(None, ge=0, description="Only events of the last ageSec seconds.")
    since: str | None = Field(None, description="Only events at or after this RFC 3339 time.")
    until: str | None = Field(None, description="Only events before this RFC 3339 time.")
    agent_id: str | None = Field(None, max_length=MAX_AGENT_ID_CHARS, description="Only this agent's requests (X-Agent-Id).")
    tab_id: str | None = Field(None, description="Only requests on this tab.")
    instance_id: str | None = Field(None, description="Only requests served by this instance.")
    action: str | None = Field(None, description="Only this action kind (click, navigate, ...).")
    path_prefix: str | None = Field(None, description="Only paths starting with this, e.g. /tabs/.")
    source: str | None = Field(None, description="Only this source (client: API callers; dashboard).")
    request_id: str | None = Field(None, description="One request, by its id.")
    session_id: str | None = Field(None, description="Only requests of this agent session.")


class AgentRef(ApiModel):
    agent_id: str = Field(..., max_length=MAX_AGENT_ID_CHARS, description="The agent id (its X-Agent-Id).")
    mode: EventMode = Field("both", description="tool_calls (requests), progress (reported by the agent) or both.")


class AgentStream(ApiModel):
    agent_id: str = Field(..., max_length=MAX_AGENT_ID_CHARS, description="The agent id (its X-Agent-Id).")
    mode: EventMode = Field("tool_calls", description="tool_calls (requests), progress (reported by the agent) or both.")


class AgentProgress(ApiModel):
    agent_id: str = Field(..., max_length=MAX_AGENT_ID_CHARS, description="The agent id (path).")
    message: str = Field(..., min_length=1, max_length=MAX_PROGRESS_MESSAGE_CHARS,
                         description="What the agent is doing, for people watching the dashboard.")
    channel: Literal["progress"] | None = Field(None, description="Always progress (tool calls are recorded by the server).")
    progress: int | None = Field(None, ge=0, description="Steps done (or 0-100).")
    total: int | None = Field(None, ge=0, description="Steps in all.")
    details: dict[str, Any] | None = Field(None, description="Anything else to show with the message.")


class EventsQuery(ApiModel):
    mode: EventMode = Field("tool_calls", description="Which agent events to stream besides monitoring snapshots.")
    agent_id: str | None = Field(None, max_length=MAX_AGENT_ID_CHARS, description="Only this agent's events.")


class LoginRequest(ApiModel):
    token: str = Field(..., min_length=1, max_length=4096, description="The server token (server.token).")


class AgentSessionCreate(ApiModel):
    agent_id: str = Field(..., min_length=1, max_length=MAX_AGENT_ID_CHARS, description="The agent the session is for.")
    label: str | None = Field(None, max_length=200, description="What it is for, e.g. 'research task'.")


class AgentSessionRef(ApiModel):
    session_id: str = Field(..., max_length=100, description="Session id (ses_..., from POST /sessions).")


_SECTION = "Keys of this config section to change (camelCase, as in the config file)."


class ConfigUpdate(ApiModel):
    """PUT /api/config: the config in its file's shape (camelCase sections, partial: only the keys
    to change), e.g. ``{"browser": {"headless": false}}``. Write-only keys (``server.token``,
    ``security.stateEncryptionKey``, ``security.secrets``) are set by a value and kept when empty;
    GET's ``tokenSet``-style flags may be sent back and are ignored. Another top-level key is
    kept so that the config model names it in its 400."""

    model_config = ConfigDict(extra="allow")

    # The sections of pinchtab.config.Config (a unit test keeps the two lists equal).
    server: dict[str, Any] | None = Field(None, description=_SECTION)
    security: dict[str, Any] | None = Field(None, description=_SECTION)
    browser: dict[str, Any] | None = Field(None, description=_SECTION)
    find: dict[str, Any] | None = Field(None, description=_SECTION)
    discovery: dict[str, Any] | None = Field(None, description=_SECTION)
    observe: dict[str, Any] | None = Field(None, description=_SECTION)
    recording: dict[str, Any] | None = Field(None, description=_SECTION)
    instances: dict[str, Any] | None = Field(None, description=_SECTION)
    mcp: dict[str, Any] | None = Field(None, description=_SECTION)
    instance_defaults: dict[str, Any] | None = Field(None, description=_SECTION)
    observability: dict[str, Any] | None = Field(None, description=_SECTION)
    sessions: dict[str, Any] | None = Field(None, description=_SECTION)
