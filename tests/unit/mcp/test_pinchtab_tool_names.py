"""Every MCP tool PinchTab documents (docs/reference/mcp-tools.md, 43 tools) is listed by
``pinchtab mcp --tools all``, under its name. The record tools are the dashboard's (another issue)."""

from __future__ import annotations

from pinchtab.mcp.tools import input_schema, select_tools

# PinchTab's docs/reference/mcp-tools.md, its tool names as the spec.
PINCHTAB_TOOLS = """
pinchtab_navigate pinchtab_snapshot pinchtab_frame pinchtab_screenshot pinchtab_capture pinchtab_get_text
pinchtab_click pinchtab_type pinchtab_press pinchtab_hover pinchtab_focus pinchtab_select pinchtab_scroll
pinchtab_scroll_into_view pinchtab_fill pinchtab_keyboard_type pinchtab_keyboard_inserttext pinchtab_keydown
pinchtab_keyup pinchtab_eval pinchtab_pdf pinchtab_find pinchtab_scrape pinchtab_list_tabs pinchtab_close_tab
pinchtab_health pinchtab_cookies pinchtab_connect_profile pinchtab_wait pinchtab_wait_for_selector
pinchtab_wait_for_text pinchtab_wait_for_url pinchtab_wait_for_load pinchtab_wait_for_function pinchtab_network
pinchtab_network_detail pinchtab_network_clear pinchtab_network_route pinchtab_network_unroute
pinchtab_record_start pinchtab_record_stop pinchtab_record_status pinchtab_dialog
""".split()
RECORD_TOOLS = {"pinchtab_record_start", "pinchtab_record_stop", "pinchtab_record_status"}


def test_every_pinchtab_tool_is_listed() -> None:
    assert len(PINCHTAB_TOOLS) == 43
    listed = {t.name for t in select_tools("all")}
    assert sorted(set(PINCHTAB_TOOLS) - RECORD_TOOLS - listed) == []


def test_frame_and_connect_profile_take_pinchtab_arguments() -> None:
    tools = {t.name: t for t in select_tools("all")}
    assert set(input_schema(tools["pinchtab_frame"])["properties"]) == {"tabId", "target"}
    profile = input_schema(tools["pinchtab_connect_profile"])
    assert set(profile["properties"]) == {"profile"} and profile["required"] == ["profile"]
