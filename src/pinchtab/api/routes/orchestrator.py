"""The server's own routes: persistent profiles and browser instances."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models.base import ApiModel
from pinchtab.models.orchestrator import (
    InstanceLogs, InstanceRef, InstanceStart, InstanceTabOpen, ProfileCreate, ProfileRef,
)


def _server(name: str, methods: tuple[str, ...], path: str, request: type[ApiModel] | None, summary: str,
            **kw: object) -> Route:
    return Route(name, methods, path, request, summary, owner="server", tabbed=False, **kw)  # type: ignore[arg-type]


ROUTES: tuple[Route, ...] = (
    _server("profiles", ("GET",), "/profiles", None, "Persistent profiles (Chrome user-data dirs)",
            cli=("profiles list",)),
    _server("create_profile", ("POST",), "/profiles", ProfileCreate, "Create a profile", status=201,
            cli=("profiles create",)),
    _server("profile", ("GET",), "/profiles/{profile_id}", ProfileRef, "One profile (by id or name)"),
    _server("profile_instance", ("GET",), "/profiles/{profile_id}/instance", ProfileRef,
            "The profile's instance: name, running, status (running, starting or stopped), port, id, url",
            mcp=("pinchtab_connect_profile",)),
    _server("delete_profile", ("DELETE",), "/profiles/{profile_id}", ProfileRef,
            "Delete a profile and its data (409 while an instance uses it)", cli=("profiles delete",)),
    _server("instances", ("GET",), "/instances", None, "Instances with their status, port and pid",
            cli=("instances list",)),
    _server("start_instance", ("POST",), "/instances/start", InstanceStart,
            "Start an instance (waits until it answers)", status=201, cli=("instances start",)),
    _server("instance", ("GET",), "/instances/{instance_id}", InstanceRef, "One instance"),
    _server("stop_instance", ("POST",), "/instances/{instance_id}/stop", InstanceRef,
            "Stop an instance (its bridge and Chromium)", cli=("instances stop",)),
    _server("restart_instance", ("POST",), "/instances/{instance_id}/restart", InstanceRef,
            "Restart an instance in place (same id and profile); also brings back one in error"),
    _server("start_stopped_instance", ("POST",), "/instances/{instance_id}/start", InstanceRef,
            "Same as /restart"),
    _server("instance_tabs", ("GET",), "/instances/{instance_id}/tabs", InstanceRef, "The tabs of one instance"),
    _server("open_tab_in_instance", ("POST",), "/instances/{instance_id}/tabs/open", InstanceTabOpen,
            "Open a tab in that instance"),
    _server("instance_logs", ("GET",), "/instances/{instance_id}/logs", InstanceLogs,
            "The last lines the instance's bridge logged"),
)
