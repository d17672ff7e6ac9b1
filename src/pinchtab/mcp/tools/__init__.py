"""The MCP tools, one ``ToolDef`` each, by family (one module per family): the 21 of
``shared/spec/mcp-tools.md`` and those that routes of ``pinchtab.api`` name with ``mcp=``.

A ``ToolDef`` is the single definition of a tool: its name, description and arguments (projected
from the route's request model, see ``registry``) drive both the JSON schema shown to the model
and the argument validation, and its ``run`` maps the validated arguments to one ``AsyncClient``
call of its ``route``. The MCP server holds no browser state: every tool is one HTTP call to a
pinchtab server or bridge.

Errors come back as tool results with ``isError`` set, never as protocol errors, and their text
starts with the spec's wording (see ``error_text``).
"""

from __future__ import annotations

from pinchtab.mcp.tools import actions, content, files, inspection, media, navigation, observe, snapshot, tabs, waits
from pinchtab.mcp.tools.common import INVALID_URL, ToolInputError, check_url, error_fields, error_text
from pinchtab.mcp.tools.registry import TOOL_ROUTES, Arg, ToolDef, ToolOutput, argument_model, input_schema
from pinchtab.mcp.tools.waits import LOCAL_TOOLS

# Every tool, family by family (the order tools/list shows them in).
TOOLS: tuple[ToolDef, ...] = (
    navigation.TOOLS + snapshot.TOOLS + actions.TOOLS + content.TOOLS + tabs.TOOLS + waits.TOOLS
    + observe.TOOLS + files.TOOLS + inspection.TOOLS + media.TOOLS
)
# What `pinchtab mcp --tools` takes besides `all`: the default set, then each family.
FAMILIES: tuple[str, ...] = ("core", *dict.fromkeys(t.family for t in TOOLS))
DEFAULT_TOOLS = "core"


def select_tools(spec: str) -> tuple[ToolDef, ...]:
    """The tools of ``spec``: ``all``, or a comma list of ``core`` (the default set, small enough
    to cost little context on every turn) and family names (``core,network,files``)."""
    names = {n.strip() for n in spec.split(",") if n.strip()}
    if "all" in names:
        return TOOLS
    unknown = sorted(names - set(FAMILIES))
    if unknown or not names:
        raise ValueError(f"unknown tool set {', '.join(unknown) or repr(spec)}: use all, or a comma list of "
                         f"{', '.join(FAMILIES)}")
    return tuple(t for t in TOOLS if t.family in names or (t.core and "core" in names))

__all__ = ["DEFAULT_TOOLS", "FAMILIES", "INVALID_URL", "LOCAL_TOOLS", "TOOLS", "TOOL_ROUTES", "Arg", "ToolDef", "ToolInputError", "ToolOutput",
           "argument_model", "check_url", "error_fields", "error_text", "input_schema", "select_tools"]
