"""The server's dashboard family (PinchTab's /api/*): the activity log, agents and what they did, the
event stream the dashboard page listens to, the effective config and the dashboard's login."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models.base import ApiModel
from pinchtab.models.dashboard import (
    ActivityQuery, AgentProgress, ConfigUpdate, AgentRef, AgentSessionCreate, AgentSessionRef, AgentStream, EventsQuery, LoginRequest,
)


def _server(name: str, methods: tuple[str, ...], path: str, request: type[ApiModel] | None, summary: str,
            **kw: object) -> Route:
    return Route(name, methods, path, request, summary, owner="server", tabbed=False, **kw)  # type: ignore[arg-type]


ROUTES: tuple[Route, ...] = (
    _server("activity_log", ("GET",), "/api/activity", ActivityQuery,
            "Recent requests, oldest first: method, path, status, durationMs, agentId, tabId, action, target "
            "(a bounded log: observability.activity.maxEvents)", cli=("activity",)),
    _server("agents", ("GET",), "/api/agents", None, "The agents seen (X-Agent-Id), most recently active first",
            cli=("agents list",)),
    _server("agent", ("GET",), "/api/agents/{agent_id}", AgentRef, "One agent and its recent events",
            cli=("agents show",)),
    _server("agent_events", ("GET",), "/api/agents/{agent_id}/events", AgentStream,
            "One agent's events as server-sent events: its recent ones, then each as it happens"),
    _server("report_agent_event", ("POST",), "/api/agents/{agent_id}/events", AgentProgress,
            "An agent reports progress (a message) into its feed", status=201),
    _server("events", ("GET",), "/api/events", EventsQuery,
            "The dashboard's server-sent events: init (agents), action and progress (agent events), "
            "monitoring (instances and tabs, on change), system (instance lifecycle)"),
    _server("effective_config", ("GET",), "/api/config", None,
            "The server's configuration: {config, configPath, tokenConfigured, restartRequired, restartReasons} "
            "(write-only keys never shown: tokenSet says whether a token is set)"),
    _server("update_config", ("PUT",), "/api/config", ConfigUpdate,
            "Change the config (its file's shape, partial): checked, written to the server's config file, "
            "answered as GET; restartRequired names the keys that wait for a restart"),
    _server("login", ("POST",), "/api/auth/login", LoginRequest,
            "Check the server token and set the dashboard's HttpOnly session cookie"),
    _server("logout", ("POST",), "/api/auth/logout", None, "Clear the dashboard's session cookie"),
    # Agent sessions: Authorization: Session <token> in place of the server token (sessions.agent).
    _server("create_session", ("POST",), "/sessions", AgentSessionCreate,
            "A session for an agent: its sessionToken is answered this once (only its hash is kept)", status=201,
            cli=("sessions create",)),
    _server("agent_sessions", ("GET",), "/sessions", None, "Every agent session with its status", cli=("sessions list",)),
    _server("my_session", ("GET",), "/sessions/me", None, "The session the caller authenticated with"),
    _server("agent_session", ("GET",), "/sessions/{session_id}", AgentSessionRef, "One agent session"),
    _server("revoke_session", ("POST",), "/sessions/{session_id}/revoke", AgentSessionRef,
            "Revoke a session (the server token, or the session itself)", cli=("sessions revoke",)),
)
