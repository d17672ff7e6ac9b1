"""Inspecting and shaping the page: capture, timing, emulation (each tool is its route)."""

from __future__ import annotations

from pinchtab.mcp.tools.common import route_tool

TOOLS = (
    route_tool("inspect", "capture", "pinchtab_capture"),
    route_tool("inspect", "timing", "pinchtab_timing"),
    route_tool("inspect", "emulate", "pinchtab_emulate"),
)
