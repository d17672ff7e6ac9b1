"""The server's attach routes: bridges running elsewhere and external Chromes (``security.attach``)."""

from __future__ import annotations

from pydantic import Field

from pinchtab.api.route import Route
from pinchtab.api.routes.orchestrator import InstanceRef
from pinchtab.models import ApiModel


class AttachBridge(ApiModel):
    base_url: str | None = Field(None, description="The bridge's bare origin, e.g. http://10.0.12.24:9867 (PinchTab's name for it).")
    url: str | None = Field(None, description="Same as baseUrl.")
    # "token" on the wire (PinchTab's name); bridge_token here, so the CLI's --token stays the server's.
    bridge_token: str | None = Field(None, alias="token",
                                     description="The bridge's own token: the server sends it; clients never need it.")
    name: str | None = Field(None, description="A name for the instance (default bridge-<host>).")


class AttachChrome(ApiModel):
    cdp_url: str = Field(..., description="The browser's DevTools websocket (ws://host:port/devtools/browser/<id>) "
                                          "or http://host:port (resolved through /json/version).")
    name: str | None = Field(None, description="A name for the instance (default attached-chrome).")


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
