"""The MCP server: the ``ToolDef``s of ``tools.py`` registered on the SDK's ``MCPServer``.

``MCPServer`` usually derives a tool's schema and validation from a Python signature. Here each
tool has an explicit ``Param`` list instead, so we build the SDK's ``Tool`` ourselves from it: the
JSON schema the model sees (``input_schema``) and the pydantic model the SDK validates arguments
with (``argument_model``) come from the same ``Param``s. A missing or mistyped argument is then
reported by the SDK itself, as a tool error (``isError``), before our handler runs.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp_types import CallToolResult, ImageContent, TextContent, ToolAnnotations
from pydantic import BeforeValidator, ConfigDict, Field, create_model

import pinchtab
from pinchtab.client import AsyncClient, PinchtabClientError
from pinchtab.mcp.early import INSTRUCTIONS, NAME, TITLE
from pinchtab.mcp.tools import TOOLS, Param, ToolDef, ToolInputError, ToolOutput, error_text

log = logging.getLogger("pinchtab.mcp")

_JSON_TYPES = {str: "string", bool: "boolean", float: "number", int: "integer"}



def input_schema(tool: ToolDef) -> dict[str, Any]:
    """The JSON schema of the tool's arguments, as ``tools/list`` shows it."""
    props: dict[str, Any] = {}
    for p in tool.params:
        if p.schema is not None:
            props[p.name] = p.schema
            continue
        prop: dict[str, Any] = {"type": _JSON_TYPES[p.type], "description": p.description}
        if p.minimum is not None:
            prop["minimum"] = p.minimum
        if p.maximum is not None:
            prop["maximum"] = p.maximum
        props[p.name] = prop
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if tool.required:
        schema["required"] = list(tool.required)
    return schema


def _keep_json_text(value: Any) -> Any:
    """The SDK parses a string argument that holds JSON (``'{"a":1}'``) into an object before
    validation unless the field is exactly ``str``: a string parameter gets its text back."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) if isinstance(value, (dict, list)) else value


def _annotation(p: Param) -> Any:
    # A list or object parameter is checked by the server against its request model.
    field = Field(ge=p.minimum, le=p.maximum, description=p.description)
    if p.schema is None and p.type is str:
        typed = Annotated[str, BeforeValidator(_keep_json_text), field]
    else:
        typed = Annotated[Any if p.schema is not None else p.type, field]
    return typed if p.required else typed | None


class _DeferredArgs(ArgModelBase):
    # Built when a tool is first called, not for all 46 at start-up (most of build_server's time,
    # which tools/list waits for on a cold start).
    model_config = ConfigDict(defer_build=True)


def argument_model(tool: ToolDef) -> type[ArgModelBase]:
    """The pydantic model the SDK validates ``tools/call`` arguments with (absent optionals are None)."""
    fields: dict[str, Any] = {p.name: (_annotation(p), ... if p.required else None) for p in tool.params}
    return create_model(f"{tool.name}_arguments", __base__=_DeferredArgs, **fields)


def _content(out: ToolOutput) -> TextContent | ImageContent:
    if isinstance(out, ImageContent):
        return out
    if isinstance(out, str):
        return TextContent(type="text", text=out)
    return TextContent(type="text", text=json.dumps(out, ensure_ascii=False))


def _error(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def sdk_tool(tool: ToolDef, client: AsyncClient, before_call: Callable[[], Awaitable[None]] | None = None) -> Tool:
    """The SDK ``Tool`` for ``tool``, calling through ``client``."""

    async def handler(**args: Any) -> CallToolResult:
        try:
            if before_call is not None:
                await before_call()
            out = await tool.run(client, args)
        except ToolInputError as exc:
            return _error(str(exc))
        except PinchtabClientError as exc:
            log.info("%s failed: %s", tool.name, exc)
            return _error(error_text(exc))
        return CallToolResult(content=[_content(out)])

    annotations = ToolAnnotations(
        read_only_hint=tool.read_only or None, destructive_hint=True if tool.destructive else None,
        open_world_hint=True,
    )
    return Tool(
        fn=handler, name=tool.name, description=tool.description, parameters=input_schema(tool),
        fn_metadata=FuncMetadata(arg_model=argument_model(tool)), is_async=True, annotations=annotations,
    )


def build_server(client: AsyncClient, before_call: Callable[[], Awaitable[None]] | None = None,
                 log_level: str = "WARNING") -> MCPServer:
    """An MCP server exposing the 21 tools over ``client``. ``before_call`` runs before each tool
    (the CLI uses it to wait for a server it is starting)."""
    return MCPServer(
        name=NAME,
        title=TITLE,
        version=pinchtab.__version__,
        instructions=INSTRUCTIONS,
        tools=[sdk_tool(t, client, before_call) for t in TOOLS],
        log_level=log_level,  # type: ignore[arg-type]
    )
