"""The tool registry: arguments projected from the request models, action tools from ACTION_SPECS."""

from __future__ import annotations

import json
import subprocess
import sys

import pydantic
import pytest

from pinchtab import models
from pinchtab.mcp.tools import TOOLS, argument_model, input_schema
from pinchtab.mcp.tools.actions import kind_args

BY_NAME = {t.name: t for t in TOOLS}
# Action tools that are one kind each (pinchtab_mouse takes four).
ONE_KIND = {"pinchtab_click": "click", "pinchtab_type": "type", "pinchtab_press": "press", "pinchtab_hover": "hover",
            "pinchtab_focus": "focus", "pinchtab_select": "select", "pinchtab_scroll": "scroll",
            "pinchtab_fill": "fill", "pinchtab_keyboard_type": "keyboard-type",
            "pinchtab_keyboard_inserttext": "keyboard-inserttext", "pinchtab_keydown": "keydown",
            "pinchtab_keyup": "keyup", "pinchtab_scroll_into_view": "scrollintoview", "pinchtab_drag": "drag"}


@pytest.mark.parametrize("name", sorted(ONE_KIND))
def test_action_tools_follow_the_kind_declaration(name: str) -> None:
    tool, spec = BY_NAME[name], models.ACTION_SPECS_BY_NAME[ONE_KIND[name]]
    assert tool.family == "actions" and tool.route == "action"
    assert tool.description.startswith(spec.summary + ".")
    takes = {"ref", "selector", "x", "y", *spec.fields, *models.COMMON_FIELDS}
    assert {a.attr for a in tool.args} <= takes


def test_a_kind_without_restriction_takes_its_declared_fields() -> None:
    args = kind_args("drag")
    assert [a.name for a in args] == ["ref", "selector", "x", "y", "toRef", "toSelector", "toX", "toY", "dragX",
                                      "dragY", "snap", "snapDiff", "tabId"]
    with pytest.raises(ValueError, match="not fields of the kind"):
        kind_args("press", ("key", "value"))


def test_projected_arguments_keep_the_models_limits_in_schema_and_validation() -> None:
    drag = BY_NAME["pinchtab_drag"]
    x = input_schema(drag)["properties"]["x"]
    assert (x["type"], x["minimum"], x["maximum"]) == ("number", 0, models.MAX_COORD)
    with pytest.raises(pydantic.ValidationError):
        argument_model(drag).model_validate({"x": -1})
    key = argument_model(BY_NAME["pinchtab_press"])
    with pytest.raises(pydantic.ValidationError):  # the model's cap, validated though not shown
        key.model_validate({"key": "k" * (models.MAX_KEY_CHARS + 1)})
    assert "maxLength" not in input_schema(BY_NAME["pinchtab_press"])["properties"]["key"]


def test_every_tool_belongs_to_a_family() -> None:
    families = {t.family for t in TOOLS}
    assert {"navigation", "snapshot", "actions", "content", "tabs", "waits", "observe", "network", "files"} <= families


def test_tool_sets_core_families_and_all() -> None:
    from pinchtab.mcp.tools import DEFAULT_TOOLS, FAMILIES, select_tools

    core = select_tools(DEFAULT_TOOLS)
    assert {t.name for t in core} == {
        "pinchtab_navigate", "pinchtab_snapshot", "pinchtab_find", "pinchtab_click", "pinchtab_type", "pinchtab_fill",
        "pinchtab_press", "pinchtab_select", "pinchtab_hover", "pinchtab_scroll", "pinchtab_get_text",
        "pinchtab_screenshot", "pinchtab_list_tabs", "pinchtab_close_tab", "pinchtab_wait_for_selector", "pinchtab_actions"}
    assert select_tools("all") == TOOLS
    assert set(select_tools(",".join(FAMILIES))) == set(TOOLS)  # every tool is in some family
    network = select_tools("core, network")
    assert {t.name for t in network} == {t.name for t in core} | {t.name for t in TOOLS if t.family == "network"}
    assert [t.name for t in network] == [t.name for t in TOOLS if t in network]  # the order of TOOLS
    for bad in ("", "netwrk", "core,nope"):
        with pytest.raises(ValueError, match="unknown tool set"):
            select_tools(bad)


def test_default_tool_list_is_small() -> None:
    """tools/list is read on every turn: the default set's JSON stays under half of Playwright
    MCP's (21.3k characters, issue 24); all tools remain a flag away."""
    from pinchtab.mcp.tools import DEFAULT_TOOLS, select_tools

    def size(tools) -> int:
        return sum(len(json.dumps({"name": t.name, "description": t.description, "inputSchema": input_schema(t)},
                                  separators=(",", ":"))) for t in tools)

    assert size(select_tools(DEFAULT_TOOLS)) < 21_300 // 2 < size(TOOLS)


def test_config_key_names_the_default_tool_set() -> None:
    from pinchtab.config import load_config

    assert load_config(environ={}).mcp.tools == "core"
    assert load_config({"mcp": {"tools": "all"}}, environ={}).mcp.tools == "all"


def test_the_tool_definitions_do_not_load_the_sdk() -> None:
    # The MCP SDK (1-1.4 s of CPU) is the server's to load: the CLI, the reference generator and
    # every test worker's collection import the tool definitions without it.
    code = "import sys, pinchtab.mcp.tools; print(sorted({m.split('.')[0] for m in sys.modules} & {'mcp', 'mcp_types'}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
