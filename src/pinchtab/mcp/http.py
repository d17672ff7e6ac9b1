"""The MCP tools over the SDK's Streamable HTTP transport, for agents on other machines.

The same ``MCPServer`` as on stdio, served by uvicorn at ``http://HOST:PORT/mcp`` behind a bearer
token (``web.TokenAuth``: every request but ``GET /health`` needs ``Authorization: Bearer <token>``,
compared in constant time). A token is required whatever the address: an MCP endpoint drives a
browser, and the SDK's DNS-rebinding check alone does not keep other local users out.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

from pinchtab.config import LOOPBACK_HOSTS
from pinchtab.web import TokenAuth

MCP_PATH = "/mcp"


class _Health:
    """``GET /health`` (public, for container and Kubernetes probes); the rest goes to the MCP app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/health":
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": b'{"status":"ok","mode":"mcp"}'})
            return
        await self.app(scope, receive, send)


def check_token(token: str | None) -> str:
    """The token, or ValueError saying why it cannot protect the endpoint."""
    if not token:
        raise ValueError("--transport http needs a token: pass --mcp-token (or set PINCHTAB_MCP_TOKEN); "
                         "clients then send Authorization: Bearer <token>")
    if token != token.strip() or len(token) < 8:
        raise ValueError("the MCP token must be at least 8 characters, without spaces around it")
    return token


def http_app(server: MCPServer, *, host: str, token: str) -> ASGIApp:
    """The Streamable HTTP app of ``server`` behind ``token``."""
    security = None
    if host not in LOOPBACK_HOSTS:
        # Reached by its address from other machines: the token guards it, not the Host header.
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app: Any = server.streamable_http_app(streamable_http_path=MCP_PATH, transport_security=security, host=host)
    return _Health(TokenAuth(app, token=check_token(token)))


def serve_http(server: MCPServer, *, host: str, port: int, token: str, log_level: str) -> None:
    import uvicorn

    uvicorn.run(http_app(server, host=host, token=token), host=host, port=port, log_level=log_level.lower(),
                access_log=False)
