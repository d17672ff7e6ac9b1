"""The MCP server: the ``ToolDef``s of ``mcp.tools`` registered on the SDK's ``MCPServer``.

``MCPServer`` usually derives a tool's schema and validation from a Python signature. Here each
tool's arguments are projected from the request models (``mcp.tools.registry``), so we build the
SDK's ``Tool`` ourselves: the JSON schema the model sees (``input_schema``) and the pydantic model
the SDK validates arguments with (``argument_model``) come from the same ``Arg``s. A missing or
mistyped argument is then reported by the SDK itself, as a tool error (``isError``), before our
handler runs.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp_types import CallToolResult, ImageContent, TextContent, ToolAnnotations
from pydantic import PrivateAttr

import pinchtab
from pinchtab.client import AsyncClient, PinchtabClientError, calling_agent
from pinchtab.mcp.early import INSTRUCTIONS, NAME, TITLE
from pinchtab.mcp.tools import (
    TOOLS, ToolDef, ToolInputError, ToolOutput, argument_model, error_fields, error_text, input_schema,
)

log = logging.getLogger("pinchtab.mcp")

__all__ = ["argument_model", "build_server", "input_schema", "sdk_tool"]


def _content(out: ToolOutput) -> TextContent | ImageContent:
    if isinstance(out, ImageContent):
        return out
    if isinstance(out, str):
        return TextContent(type="text", text=out)
    return TextContent(type="text", text=json.dumps(out, ensure_ascii=False))


def _error(text: str, fields: dict[str, Any] | None = None) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=fields, is_error=True)


class _ArgsOnFirstCall(FuncMetadata):
    """The SDK's ``FuncMetadata`` with the tool's argument model built on its first call (the SDK
    reads ``arg_model`` on each call): a session calls few of the tools, and building one model
    for each at start-up was a third of ``build_server``."""

    _tool: ToolDef | None = PrivateAttr(default=None)

    @classmethod
    def of(cls, tool: ToolDef) -> _ArgsOnFirstCall:
        meta = cls(arg_model=ArgModelBase)  # replaced before it validates anything
        meta._tool = tool
        return meta

    def validate_arguments(self, arguments_to_validate: dict[str, Any]) -> dict[str, Any]:
        if self._tool is not None:
            self.arg_model = argument_model(self._tool)
            self._tool = None
        return super().validate_arguments(arguments_to_validate)


def sdk_tool(tool: ToolDef, client: AsyncClient, before_call: Callable[[], Awaitable[None]] | None = None) -> Tool:
    """The SDK ``Tool`` for ``tool``, calling through ``client``."""

    async def handler(ctx: Context, **args: Any) -> CallToolResult:
        try:
            if before_call is not None:
                await before_call()
            calling_agent.set(client_name(ctx))
            out = await tool.run(client, args)
        except ToolInputError as exc:
            return _error(str(exc))
        except PinchtabClientError as exc:
            log.info("%s failed: %s", tool.name, exc)
            return _error(error_text(exc), error_fields(exc))
        # A tuple is several blocks (an annotated screenshot: the image, then its annotations).
        return CallToolResult(content=[_content(o) for o in out] if isinstance(out, tuple) else [_content(out)])

    annotations = ToolAnnotations(
        read_only_hint=tool.read_only or None, destructive_hint=True if tool.destructive else None,
        open_world_hint=True,
    )
    return Tool(
        fn=handler, name=tool.name, description=tool.description, parameters=input_schema(tool),
        fn_metadata=_ArgsOnFirstCall.of(tool), is_async=True, annotations=annotations,
        context_kwarg="ctx",
    )


def client_name(ctx: Context) -> str | None:
    """The MCP client's name from its ``initialize`` (``clientInfo.name``): the agent id its calls
    carry (X-Agent-Id) unless ``pinchtab mcp --agent-id`` names one."""
    try:
        params = ctx.session.client_params
    except (AttributeError, LookupError, ValueError):
        return None
    info = getattr(params, "client_info", None)
    return getattr(info, "name", None) or None


def build_server(client: AsyncClient, before_call: Callable[[], Awaitable[None]] | None = None,
                 log_level: str = "WARNING", tools: tuple[ToolDef, ...] = TOOLS) -> MCPServer:
    """An MCP server exposing ``tools`` (all by default) over ``client``. ``before_call`` runs
    before each tool (the CLI uses it to wait for a server it is starting)."""
    return MCPServer(
        name=NAME,
        title=TITLE,
        version=pinchtab.__version__,
        instructions=INSTRUCTIONS,
        tools=[sdk_tool(t, client, before_call) for t in tools],
        log_level=log_level,  # type: ignore[arg-type]
    )
