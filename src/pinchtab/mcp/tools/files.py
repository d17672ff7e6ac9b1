"""Files in and out of the page: uploads and downloads (each tool is its route)."""

from __future__ import annotations

from pinchtab.mcp.tools.common import route_tool

TOOLS = (
    route_tool("files", "upload", "pinchtab_upload"),
    route_tool("files", "download", "pinchtab_download"),
)
