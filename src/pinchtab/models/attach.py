"""The server's attach routes: bridges running elsewhere and external Chromes (``security.attach``)."""

from __future__ import annotations

from pydantic import Field

from pinchtab.models.base import ApiModel


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
