"""The registry of MCP tools: one ``ToolDef`` per tool, its arguments projected from the request
models of the route table.

A tool's arguments are ``Arg``s: most are a field of a request model under the tool's name for it
(``field(models.PdfRequest, "page_ranges")`` is ``pageRanges``), restricted to what the tool takes;
a few are the tool's own (``own("compact", bool, ...)``). From the one list come both

- the JSON schema ``tools/list`` shows (``input_schema``): the model's ``model_json_schema``,
  cut to those fields and renamed, so limits and choices are the HTTP API's; and
- the pydantic model the SDK validates ``tools/call`` arguments with (``argument_model``): the
  model field's type and constraints, built on first call (not for every tool at start-up).
"""

from __future__ import annotations

import functools
import json
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model

from pinchtab.api import ROUTES
from pinchtab.client import AsyncClient

if TYPE_CHECKING:
    # The MCP SDK (1-1.4 s of CPU to import) is loaded by the server that serves the tools, not by
    # whoever imports their definitions (the CLI, the docs generator, test collection).
    from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
    from mcp_types import ImageContent

# What a tool's ``run`` may answer: text as is, JSON values dumped to text, an image block, or a tuple
# of those (one content block each).
ToolOutput: TypeAlias = "str | dict[str, Any] | list[Any] | ImageContent | tuple[Any, ...]"
Runner = Callable[[AsyncClient, dict[str, Any]], Awaitable[ToolOutput]]

_JSON_TYPES = {str: "string", bool: "boolean", float: "number", int: "integer", list: "array"}
# The route each tool calls, from the table's ``mcp=`` names.
TOOL_ROUTES: dict[str, str] = {tool: r.name for r in ROUTES for tool in r.mcp}


@dataclass(frozen=True)
class Arg:
    """One argument of a tool: field ``attr`` of ``model`` (its type, limits and description unless
    given here), or the tool's own when ``model`` is None (then ``type`` and ``description`` are)."""

    name: str
    model: type[BaseModel] | None = None
    attr: str | None = None
    type: Any = None  # the JSON type the spec gives, when it is not the model's (quality: number)
    description: str | None = None
    required: bool | None = None  # None: as the model says

    @property
    def is_required(self) -> bool:
        if self.required is not None:
            return self.required
        return self.model is not None and self.model.model_fields[self.attr or ""].is_required()


def field(model: type[BaseModel], attr: str, *, name: str | None = None, type: Any = None,
          description: str | None = None, required: bool | None = None) -> Arg:
    """Field ``attr`` of ``model`` as an argument named as on the wire (``dialog_text`` -> ``dialogText``)."""
    info = model.model_fields[attr]
    return Arg(name or info.alias or attr, model, attr, type, description, required)


def own(name: str, type: Any, description: str, *, required: bool = False) -> Arg:
    """An argument with no HTTP field behind it (``compact`` of pinchtab_snapshot, the mouse's ``action``)."""
    return Arg(name, None, None, type, description, required)


@dataclass(frozen=True)
class ToolDef:
    """One MCP tool: what the model reads (name, description, arguments) and what it does (``run``:
    the validated arguments, absent ones None, to one client call)."""

    name: str
    family: str
    description: str
    args: tuple[Arg, ...]
    run: Runner
    read_only: bool = False
    destructive: bool = False  # side effects outside the page (closing a tab loses its state)
    core: bool = False  # in the default tool set (``pinchtab mcp --tools core``)
    # The route of pinchtab.api the tool calls, from the table's ``mcp=`` names (None: no HTTP call).
    route: str | None = dc_field(init=False, default=None)
    required: tuple[str, ...] = dc_field(init=False, default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "route", TOOL_ROUTES.get(self.name))
        object.__setattr__(self, "required", tuple(a.name for a in self.args if a.is_required))


def define(family: str) -> Callable[..., ToolDef]:
    """The tool constructor of one family module: ``tool = define("content")``."""
    return functools.partial(ToolDef, family=family)


# -- the JSON schema ---------------------------------------------------------------------------------

@functools.cache
def _model_schema(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema(by_alias=True)


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with ``#/$defs/X`` references replaced by X (request models are not recursive)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline(defs[ref.rsplit("/", 1)[1]], defs)
        # A "title" string is pydantic's label of a schema (a property named title is a dict).
        return {k: _inline(v, defs) for k, v in node.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def _property(arg: Arg) -> dict[str, Any]:
    if arg.model is None and typing.get_origin(arg.type) is typing.Literal:
        return {"type": "string", "enum": list(typing.get_args(arg.type)), "description": arg.description}
    if arg.model is None and arg.type is list:  # a list of objects (pinchtab_actions' steps)
        return {"type": "array", "items": {"type": "object"}, "description": arg.description}
    if arg.model is None:
        return {"type": _JSON_TYPES[arg.type], "description": arg.description}
    schema = _model_schema(arg.model)
    info = arg.model.model_fields[arg.attr or ""]
    prop = _inline(schema["properties"][info.alias or arg.attr], schema.get("$defs", {}))
    prop.pop("default", None)
    # An optional field is "X or null" in the model; a tool's argument is X, or left out.
    variants = [v for v in prop.pop("anyOf", ()) if v != {"type": "null"}]
    if len(variants) == 1:
        prop = {**variants[0], **prop}
    elif variants:
        prop["anyOf"] = variants
    # Length caps guard the server against huge inputs; an agent never nears them, and they cost
    # characters on every turn: validated (argument_model), not shown.
    prop.pop("maxLength", None)
    if arg.type is not None:
        prop["type"] = _JSON_TYPES[arg.type]
    prop["description"] = arg.description or info.description or ""
    return {"type": prop.pop("type"), **prop} if "type" in prop else prop


def input_schema(tool: ToolDef) -> dict[str, Any]:
    """The JSON schema of the tool's arguments, as ``tools/list`` shows it."""
    schema: dict[str, Any] = {"type": "object", "properties": {a.name: _property(a) for a in tool.args}}
    if tool.required:
        schema["required"] = list(tool.required)
    return schema


# -- argument validation --------------------------------------------------------------------------

def _keep_json_text(value: Any) -> Any:
    """The SDK parses a string argument that holds JSON (``'{"a":1}'``) into an object before
    validation unless the field is exactly ``str``: a string argument gets its text back."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) if isinstance(value, (dict, list)) else value


def _unwrap_optional(annotation: Any) -> Any:
    args = getattr(annotation, "__args__", ())
    if type(None) in args and len(args) == 2:
        return next(a for a in args if a is not type(None))
    return annotation


def _annotation(arg: Arg) -> Any:
    if arg.model is None:
        base = list[dict[str, Any]] if arg.type is list else arg.type
        metadata = [Field(description=arg.description)]
    else:
        info = arg.model.model_fields[arg.attr or ""]
        base = arg.type or _unwrap_optional(info.annotation)
        metadata = [*info.metadata, Field(description=arg.description or info.description)]
    if base is str:
        metadata.insert(0, BeforeValidator(_keep_json_text))
    typed = Annotated[(base, *metadata)]  # type: ignore[valid-type]
    return typed if arg.is_required else typed | None


@functools.cache
def _deferred_args() -> type[ArgModelBase]:
    """The base of the argument models: the SDK's (its ``FuncMetadata`` takes nothing else), built
    when a tool is first called, not for every tool at start-up (most of build_server's time,
    which tools/list waits for on a cold start)."""
    from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase

    class _DeferredArgs(ArgModelBase):
        model_config = ConfigDict(defer_build=True)

    return _DeferredArgs


def argument_model(tool: ToolDef) -> type[ArgModelBase]:
    """The pydantic model the SDK validates ``tools/call`` arguments with (absent optionals are None)."""
    fields: dict[str, Any] = {a.name: (_annotation(a), ... if a.is_required else None) for a in tool.args}
    return create_model(f"{tool.name}_arguments", __base__=_deferred_args(), **fields)


def model_fields(tool_args: tuple[Arg, ...], values: dict[str, Any], *, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The given arguments as fields of their model (python names); a number the spec types as
    "number" goes as an int where the model's field is one (quality, pixels)."""
    out: dict[str, Any] = {}
    for arg in tool_args:
        value = values.get(arg.name)
        if value is None or arg.name in skip or arg.model is None:
            continue
        if isinstance(value, float) and _unwrap_optional(arg.model.model_fields[arg.attr or ""].annotation) is int:
            value = int(round(value))
        out[arg.attr or arg.name] = value
    return out
