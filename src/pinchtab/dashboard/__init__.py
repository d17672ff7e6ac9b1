"""The dashboard of ``pinchtab server``: the page (``assets``, ``static/``), the activity log of every
request with its agent (``activity``, fed by ``recorder``), the instances and tabs pushed as they
change (``monitor``), and the handlers of the ``/api/*`` routes (``service``).

Layering: the server app mounts the page and the recorder; the routes come from the route table
(``pinchtab.api.routes.dashboard``) like every other; nothing here drives a browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pinchtab.config import Config
from pinchtab.dashboard.activity import ActivityLog
from pinchtab.dashboard.monitor import Monitor
from pinchtab.dashboard.service import COOKIE, DashboardHandlers, cookie_value
from pinchtab.dashboard.sessions import SessionStore, session_may

__all__ = ["COOKIE", "Dashboard", "cookie_value", "session_may"]


class Dashboard:
    """What one server keeps for its dashboard."""

    def __init__(self, config: Config, manager: Any, locator: Any) -> None:
        self.enabled = config.observability.activity.enabled
        self.activity = ActivityLog(config.observability.activity.max_events)
        self.monitor = Monitor(manager, locator, self.activity)
        agent = config.sessions.agent
        self.sessions = (SessionStore(Path(config.server.state_dir) / "agent-sessions.json", agent.idle_timeout_sec,
                                      agent.max_lifetime_sec) if agent.enabled and agent.mode != "off" else None)
        self.sessions_required = self.sessions is not None and agent.mode == "required"
        self.handlers = DashboardHandlers(config, self.activity, self.monitor, self.sessions)

    async def close(self) -> None:
        await self.handlers.close()
