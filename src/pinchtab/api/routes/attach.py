"""The server's attach routes: bridges running elsewhere and external Chromes (``security.attach``)."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models.base import ApiModel
from pinchtab.models.attach import AttachBridge, AttachChrome
from pinchtab.models.orchestrator import InstanceRef


def _server(name: str, path: str, request: type[ApiModel], summary: str, **kw: object) -> Route:
    return Route(name, ("POST",), path, request, summary, owner="server", tabbed=False, **kw)  # type: ignore[arg-type]


ROUTES: tuple[Route, ...] = (
    _server("attach_bridge", "/instances/attach-bridge", AttachBridge,
            "Register a running bridge on another host after checking its /health and token (security.attach); "
            "200 when that origin was attached already", status=201, cli=("instances attach-bridge",)),
    _server("attach_chrome", "/instances/attach", AttachChrome,
            "An instance over an external Chrome's DevTools websocket (security.attach); the Chrome keeps running "
            "when the instance stops", status=201, cli=("instances attach",)),
    _server("detach_instance", "/instances/{instance_id}/detach", InstanceRef,
            "Forget an attached bridge (it keeps running), or stop the bridge of an attached Chrome",
            cli=("instances detach",)),
)
