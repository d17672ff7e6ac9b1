"""What a tab records: console, errors, network log and interception (each tool is its route)."""

from __future__ import annotations

from pinchtab.mcp.tools.common import route_tool

TOOLS = (
    route_tool("observe", "console", "pinchtab_console"),
    route_tool("observe", "errors", "pinchtab_errors"),
    route_tool("network", "network", "pinchtab_network"),
    route_tool("network", "network_clear", "pinchtab_network_clear"),
    route_tool("network", "network_route", "pinchtab_network_route"),
    route_tool("network", "network_unroute", "pinchtab_network_unroute"),
    route_tool("network", "network_detail", "pinchtab_network_detail"),
)
