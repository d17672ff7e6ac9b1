"""The HTTP API as data: every route once (path, methods, request model, tab scoping, gate, the
MCP tool and CLI command that expose it). The bridge, the server's proxy, ``/openapi.json``, the
MCP tools, the CLI and the client all derive from ``ROUTES``.

Importing this package loads pydantic models only (no web framework, no browser), so the client
and the MCP server stay quick to import.
"""

from pinchtab.api.route import Route, Socket
from pinchtab.models import Blob, Gate, Reply
from pinchtab.api.routes import ROUTES, ROUTES_BY_NAME, SOCKETS, bridge_routes, proxied_routes, route, server_routes

__all__ = ["Blob", "Gate", "Reply", "Route", "Socket", "SOCKETS", "ROUTES", "ROUTES_BY_NAME", "bridge_routes", "proxied_routes", "route", "server_routes"]
