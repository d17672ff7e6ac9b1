"""What one route is: path, methods, request model, owner, gate and reply, declared once in the table."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from pinchtab.models import Gate, Leased

TAB_PREFIX = "/tabs/{tab_id}"
INSTANCE_PREFIX = "/instances/{instance_id}"
_PATH_PARAM = re.compile(r"{(\w+)}")


@dataclass(frozen=True)
class Route:
    """One operation of the HTTP API.

    ``name`` is the operation's one name: the ``BrowserService`` (bridge) or server handler that
    does the work, the client method, the OpenAPI operation id. A bridge route with ``tabbed`` is
    served at ``path`` (the shorthand, which acts on ``tabId`` or the current tab) and at
    ``/tabs/{tab_id}<path>``. Path parameters (``{profile_id}``) are fields of ``request``.
    """

    name: str
    methods: tuple[str, ...]
    path: str
    request: type[BaseModel] | None
    summary: str
    # bridge: served by bridges, proxied by the server; bridge_only: not proxied (it acts on a whole
    # browser); server: the orchestrator's own; both: each answers it itself (health, tabs).
    owner: Literal["bridge", "bridge_only", "server", "both"] = "bridge"
    tabbed: bool = True
    # The (small) JSON answer names the tab it acted on: the server learns who owns that tab.
    answers_tab: bool = False
    gate: Gate | None = None
    # How the handler's value goes out: JSON; "text" (a str as text/plain, else JSON); "binary"
    # (a Blob: its bytes when the request says raw=true, else JSON with base64); "stream" (an
    # EventStream: server-sent events).
    reply: Literal["json", "text", "binary", "stream"] = "json"
    status: int = 200
    # The server also serves it at ``/instances/{instance_id}<path>``, on that instance (PinchTab's
    # CLI runs an audit or scrape with --profile or --cookie there: tab, cookies, close, the run).
    per_instance: bool = False
    mcp: tuple[str, ...] = ()  # MCP tools that call this route
    cli: tuple[str, ...] = ()  # CLI commands that call it ("instances start" for a subcommand)
    description: str = ""
    path_params: tuple[str, ...] = field(init=False)
    # A locked tab (POST /tabs/{id}/lock) answers this route only for its lock's owner: the request
    # model says so by taking an ``owner`` (models.Leased). Read on every request, so set once here.
    leased: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "path_params", tuple(_PATH_PARAM.findall(self.path)))
        object.__setattr__(self, "leased", self.request is not None and issubclass(self.request, Leased))
        if self.tabbed and self.owner in ("server", "both", "bridge_only"):
            raise ValueError(f"route {self.name}: only bridge routes are tab routes")
        if self.per_instance and self.owner != "bridge":
            raise ValueError(f"route {self.name}: only proxied bridge routes are served per instance")

    @property
    def method(self) -> str:
        """The method clients use (the first one)."""
        return self.methods[0]

    @property
    def body_method(self) -> bool:
        return self.method in ("POST", "PUT", "PATCH")

    def paths(self) -> tuple[str, ...]:
        return (self.path, TAB_PREFIX + self.path) if self.tabbed else (self.path,)

    def instance_path(self) -> str | None:
        """Where the server serves it on one instance, or None."""
        return INSTANCE_PREFIX + self.path if self.per_instance else None


@dataclass(frozen=True)
class Socket:
    """A websocket of the API (``/screencast``): its query model and gate are read as a route's are;
    it has no JSON answer, so no client method, MCP tool or CLI command derives from it. The server
    passes it to the instance owning the tab, and serves ``/instances/{id}<path>`` and
    ``/instances/{id}/proxy<path>`` for one instance."""

    name: str
    path: str
    request: type[BaseModel]
    summary: str
    gate: Gate | None = None
    description: str = ""
