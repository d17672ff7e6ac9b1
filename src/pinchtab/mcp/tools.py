"""The MCP tools, one ``ToolDef`` each: the 21 of ``shared/spec/mcp-tools.md`` and those that
routes of ``pinchtab.api`` name with ``mcp=``.

A ``ToolDef`` is the single definition of a tool: its name, description and parameters drive
both the JSON schema shown to the model and the argument validation (``mcp.server`` builds both
from ``params``), and its ``run`` maps the validated arguments to one ``AsyncClient`` call of its
``route``. The MCP server holds no browser state: every tool is one HTTP call to a pinchtab
server or bridge.

Parameters that are the same as an HTTP parameter take their description and limits from the
route's request model (``from_model``); the JSON types of the spec's tools follow the spec (e.g.
``quality`` is a "number" there though the HTTP query takes an integer, so it is rounded here).
A route named by ``mcp=`` without a hand-written tool here gets one from ``tool_for_route``:
every field of its request model is a parameter.

Errors come back as tool results with ``isError`` set, never as protocol errors, and their text
starts with the spec's wording (see ``error_text``).
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import types
import typing

import annotated_types
from mcp_types import ImageContent
from pydantic import BaseModel

from pinchtab import models
from pinchtab.api import ROUTES, ROUTES_BY_NAME
from pinchtab.client import AsyncClient, PinchtabClientError

# What a tool's ``run`` may answer: text as is, JSON values dumped to text, or an image block.
ToolOutput = str | dict[str, Any] | list[Any] | ImageContent

INVALID_URL = "invalid URL: must start with http:// or https://"
MAX_WAIT_MS = models.MAX_WAIT_MS
DEFAULT_WAIT_FOR_SELECTOR_MS = 10000
_REF = re.compile(r"e\d+")


class ToolInputError(Exception):
    """Arguments the schema accepts but the tool refuses before any HTTP call (e.g. a file: URL)."""


@dataclass(frozen=True)
class Param:
    """One tool parameter: its JSON name, Python type (str, bool, int, float), limits and
    description; ``schema`` instead of ``type`` for a list or object (or a choice of values)."""

    name: str
    type: type
    description: str
    required: bool = False
    minimum: float | None = None
    maximum: float | None = None
    schema: dict[str, Any] | None = None


def from_model(model: type[BaseModel], attr: str, name: str, type: type = str, *, required: bool = False,
               description: str | None = None) -> Param:
    """A parameter that is the HTTP field ``model.attr``: its description and ge/le limits."""
    info = model.model_fields[attr]
    lo = next((m.ge for m in info.metadata if isinstance(m, annotated_types.Ge)), None)
    hi = next((m.le for m in info.metadata if isinstance(m, annotated_types.Le)), None)
    return Param(name, type, description or info.description or "", required, lo, hi)


@dataclass(frozen=True)
class ToolDef:
    name: str
    description: str
    params: tuple[Param, ...]
    run: Callable[[AsyncClient, dict[str, Any]], Awaitable[ToolOutput]]
    read_only: bool = False
    # Side effects outside the page (closing a tab loses its state).
    destructive: bool = False
    required: tuple[str, ...] = field(init=False)
    # The route of pinchtab.api the tool calls, from the table's ``mcp=`` names (None: no HTTP call).
    route: str | None = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "required", tuple(p.name for p in self.params if p.required))
        object.__setattr__(self, "route", TOOL_ROUTES.get(self.name))


TOOL_ROUTES: dict[str, str] = {tool: r.name for r in ROUTES for tool in r.mcp}
# Tools that make no HTTP call.
LOCAL_TOOLS = frozenset({"pinchtab_wait"})


# -- parameters shared by many tools ---------------------------------------------------------------

TAB = Param("tabId", str, "Target tab ID (from pinchtab_list_tabs or pinchtab_navigate). Uses the current tab if omitted.")
REF = Param("ref", str, "Element ref from the last pinchtab_snapshot or pinchtab_find (e.g. e5).", required=True)


def _choice(name: str, description: str, *values: str, required: bool = False) -> Param:
    """A string parameter with a fixed set of values."""
    return Param(name, str, description, required,
                 schema={"type": "string", "enum": list(values), "description": description})


def _int(value: float | None) -> int | None:
    return None if value is None else int(round(value))


def _check_url(url: str) -> str:
    url = url.strip()
    if not url.lower().startswith(("http://", "https://")):
        raise ToolInputError(INVALID_URL)
    return url


# -- handlers that shape an answer (the rest are one-line lambdas in TOOLS) -----------------------

# The tab each MCP session (its client) last navigated: pinchtab_navigate without tabId reuses it
# ("uses current tab if omitted"), and opens a tab only when the session has none (or it closed).
_SESSION_TAB: "weakref.WeakKeyDictionary[AsyncClient, str]" = weakref.WeakKeyDictionary()


async def _navigate(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    url = _check_url(a["url"])
    tab = a["tabId"] or _SESSION_TAB.get(c)
    try:
        res = await c.navigate(url, tab_id=tab)
    except PinchtabClientError as exc:
        if a["tabId"] or not tab or exc.status != 404:
            raise
        res = await c.navigate(url)  # the session's tab was closed: a new one
    _SESSION_TAB[c] = res["tabId"]
    return {"tabId": res["tabId"], "url": res["url"], "title": res["title"]}


async def _snapshot(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    return await c.snapshot(
        a["tabId"], interactive=bool(a["interactive"]), format="compact" if a["compact"] else "text",
        diff=bool(a["diff"]), selector=a["selector"],
    )


async def _screenshot(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    quality = _int(a["quality"])
    fmt = "png" if quality is None else "jpeg"
    data = await c.screenshot(a["tabId"], format=fmt, quality=quality)
    return ImageContent(type="image", data=base64.b64encode(data).decode(), mime_type=f"image/{fmt}")


async def _get_text(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    return (await c.text(a["tabId"], raw=bool(a["raw"])))["text"]


async def _fill(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    # The spec lets `ref` be a CSS selector too: anything that is not e<N> goes as a selector.
    target = a["ref"].strip()
    if _REF.fullmatch(target):
        return await c.action("fill", ref=target, tab_id=a["tabId"], value=a["value"])
    return await c.action("fill", selector=target, tab_id=a["tabId"], value=a["value"])


async def _eval(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    return json.dumps(await c.evaluate(a["expression"], a["tabId"]), ensure_ascii=False)


async def _pdf(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    data = await c.pdf(a["tabId"], landscape=bool(a["landscape"]), scale=a["scale"], page_ranges=a["pageRanges"])
    return base64.b64encode(data).decode()


async def _list_tabs(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    return [{"tabId": t["id"], "url": t["url"], "title": t["title"]} for t in await c.tabs()]


async def _wait(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    ms = min(a["ms"], MAX_WAIT_MS)
    await asyncio.sleep(ms / 1000)
    return {"waitedMs": _int(ms)}


async def _wait_for_selector(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    timeout = min(_int(a["timeout"]) if a["timeout"] is not None else DEFAULT_WAIT_FOR_SELECTOR_MS, MAX_WAIT_MS)
    res = await c.wait(selector=a["selector"], timeout=timeout, tab_id=a["tabId"])
    return {"present": bool(res["present"])}


# -- the tools ----------------------------------------------------------------------------------------

TOOLS: tuple[ToolDef, ...] = (
    # Navigation
    ToolDef(
        "pinchtab_navigate",
        "Navigate the browser to a URL and wait until the page has loaded. Returns {tabId, url, title}. "
        "Then call pinchtab_snapshot (or pinchtab_find) to get element refs to act on.",
        (Param("url", str, "Full URL including scheme (http:// or https://).", required=True), TAB),
        _navigate,
    ),
    ToolDef(
        "pinchtab_snapshot",
        "Get an accessibility tree snapshot of the current page: one line per element with its ref "
        "(e.g. e5), role and name. This is the primary way to understand page structure and discover "
        "the refs that interaction tools (click, type, fill, ...) take; a ref names the same element in every "
        "later snapshot and find result. Iframes of every origin appear as Iframe nodes (with the frame's URL) "
        "followed by their content, whose refs work like any other. Use interactive and compact to save tokens.",
        (
            TAB,
            Param("interactive", bool, "Only return interactive elements (buttons, links, inputs)."),
            Param("compact", bool, "Compact format: one line per element, fewest tokens."),
            from_model(models.SnapshotQuery, "diff", "diff", bool),
            from_model(models.SnapshotQuery, "selector", "selector"),
        ),
        _snapshot,
        read_only=True,
    ),
    ToolDef(
        "pinchtab_screenshot",
        "Capture a screenshot of the current page (viewport) as an image. PNG by default; JPEG when quality is given.",
        (TAB, from_model(models.ScreenshotQuery, "quality", "quality", float,
                         description="JPEG quality 0-100 (default: PNG).")),
        _screenshot,
        read_only=True,
    ),
    ToolDef(
        "pinchtab_get_text",
        "Extract the readable text content of the page (main content), suitable for summarisation and Q&A.",
        (TAB, Param("raw", bool, "Return all of the page's raw innerText instead of the readable main content.")),
        _get_text,
        read_only=True,
    ),
    # Interaction
    ToolDef(
        "pinchtab_click",
        "Click an element by its ref (from pinchtab_snapshot or pinchtab_find), with real mouse events. "
        "mode=dom (element.click()) or dispatch (synthetic events) reach a target covered by an overlay; "
        "dialogAction answers a dialog the click opens.",
        (REF, TAB, _choice("mode", models.ActionRequest.model_fields["mode"].description or "", "dom", "dispatch"),
         _choice("dialogAction", "Answer a JavaScript dialog the click opens: accept or dismiss.", "accept", "dismiss"),
         from_model(models.ActionRequest, "dialog_text", "dialogText")),
        lambda c, a: c.click(a["ref"], tab_id=a["tabId"], mode=a["mode"], dialog_action=a["dialogAction"],
                             dialog_text=a["dialogText"]),
    ),
    ToolDef(
        "pinchtab_type",
        "Type text into an input element, simulating keystrokes one by one (appends to what is there).",
        (REF, Param("text", str, "Text to type.", required=True), TAB),
        lambda c, a: c.type(a["ref"], a["text"], tab_id=a["tabId"]),
    ),
    ToolDef(
        "pinchtab_press",
        "Press a named keyboard key in the focused element, e.g. Enter to submit a form.",
        (from_model(models.ActionRequest, "key", "key", required=True,
                    description="Key name: Enter, Tab, Escape, ArrowDown, Backspace, etc."), TAB),
        lambda c, a: c.press(a["key"], tab_id=a["tabId"]),
    ),
    ToolDef(
        "pinchtab_hover",
        "Hover the mouse over an element (triggers :hover styles, menus and tooltips).",
        (REF, TAB),
        lambda c, a: c.hover(a["ref"], tab_id=a["tabId"]),
    ),
    ToolDef(
        "pinchtab_focus",
        "Give keyboard focus to an element.",
        (REF, TAB),
        lambda c, a: c.focus(a["ref"], tab_id=a["tabId"]),
    ),
    ToolDef(
        "pinchtab_select",
        "Select an option from a <select> dropdown, by option value (then by visible text).",
        (Param("ref", str, "<select> element ref.", required=True),
         Param("value", str, "Option value to select.", required=True), TAB),
        lambda c, a: c.select(a["ref"], a["value"], tab_id=a["tabId"]),
    ),
    ToolDef(
        "pinchtab_scroll",
        "Scroll the page, or scroll a specific element into view.",
        (
            Param("ref", str, "Element ref. Omit to scroll the whole page."),
            from_model(models.ActionRequest, "pixels", "pixels", float),
            TAB,
        ),
        lambda c, a: c.scroll(a["ref"], pixels=_int(a["pixels"]), tab_id=a["tabId"]),
    ),
    ToolDef(
        "pinchtab_fill",
        "Fill an input field by setting its value and dispatching input/change events. Works with React, "
        "Vue, Angular and other frameworks that intercept native input events; prefer it over "
        "pinchtab_type when a frontend framework ignores simulated keystrokes. Replaces the current value.",
        (Param("ref", str, "Element ref (e.g. e5) or a selector: CSS, label:Email, placeholder:..., "
                           "role:textbox Name, text:..., xpath:..., first:/last:/nth:<n>: wrappers.", required=True),
         Param("value", str, "Value to set.", required=True), TAB),
        _fill,
    ),
    # Content
    ToolDef(
        "pinchtab_eval",
        "Execute a JavaScript expression in the page and return its JSON-serialised result (promises are "
        "awaited). Requires security.allowEvaluate: true in the PinchTab config; answers HTTP 403 otherwise.",
        (from_model(models.EvaluateRequest, "expression", "expression", required=True,
                    description="JavaScript expression to evaluate, e.g. document.title."), TAB),
        _eval,
    ),
    ToolDef(
        "pinchtab_pdf",
        "Export the current page as a PDF document; returns the PDF bytes base64-encoded.",
        (
            TAB,
            from_model(models.PdfRequest, "landscape", "landscape", bool,
                       description="Landscape orientation (default portrait)."),
            from_model(models.PdfRequest, "scale", "scale", float, description="Print scale 0.1-2.0 (default 1.0)."),
            from_model(models.PdfRequest, "page_ranges", "pageRanges"),
        ),
        _pdf,
        read_only=True,
    ),
    ToolDef(
        "pinchtab_find",
        "Find elements by a natural-language description (e.g. 'login button', 'email field') or their "
        "text, using semantic matching over the page's accessibility tree. Returns best_ref (pass it to "
        "click, type, fill, ...), its confidence and score, and the top matches with role and name.",
        (from_model(models.FindRequest, "query", "query", required=True,
                    description="Description or text content of the element, e.g. 'login button'."), TAB),
        lambda c, a: c.find(a["query"], tab_id=a["tabId"]),
        read_only=True,
    ),
    # Tab management
    ToolDef(
        "pinchtab_list_tabs",
        "List all open browser tabs: an array of {tabId, url, title}.",
        (),
        _list_tabs,
        read_only=True,
    ),
    ToolDef(
        "pinchtab_close_tab",
        "Close a browser tab.",
        (Param("tabId", str, "Tab to close. Closes the current tab if omitted."),),
        lambda c, a: c.close_tab(a["tabId"]),
        destructive=True,
    ),
    ToolDef(
        "pinchtab_health",
        "Check whether the PinchTab server is reachable and healthy. Returns {\"status\":\"ok\", ...}.",
        (),
        lambda c, a: c.health(),
        read_only=True,
    ),
    ToolDef(
        "pinchtab_cookies",
        "Get the cookies of the current page: an array of {name, value, domain, path, expires, httpOnly, "
        "secure, sameSite}. Requires security.allowCookies in the PinchTab config.",
        (TAB,),
        lambda c, a: c.cookies(a["tabId"]),
        read_only=True,
    ),
    # Utility
    ToolDef(
        "pinchtab_wait",
        "Wait for a fixed duration. Use sparingly: prefer pinchtab_wait_for_selector when possible.",
        (Param("ms", float, f"Milliseconds to wait. Maximum {MAX_WAIT_MS} (longer waits are capped).",
               required=True, minimum=0),),
        _wait,
        read_only=True,
    ),
    ToolDef(
        "pinchtab_wait_for_selector",
        "Wait for a CSS selector to appear on the page (polls every 250 ms). "
        "Returns {\"present\": true} when found, {\"present\": false} on timeout.",
        (
            Param("selector", str, "CSS selector to wait for.", required=True),
            Param("timeout", float, f"Timeout in milliseconds. Default {DEFAULT_WAIT_FOR_SELECTOR_MS}, "
                  f"maximum {MAX_WAIT_MS} (longer timeouts are capped).", minimum=0),
            TAB,
        ),
        _wait_for_selector,
        read_only=True,
    ),
)



def _wait_tool(name: str, field: str, what: str) -> ToolDef:
    """A wait on one condition of POST /wait; answers the wait's JSON (waited, elapsed, match or error)."""

    async def run(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
        timeout = min(_int(a["timeout"]) if a["timeout"] is not None else DEFAULT_WAIT_FOR_SELECTOR_MS, MAX_WAIT_MS)
        return await c.wait(**{field: a[field]}, timeout=timeout, tab_id=a["tabId"])

    return ToolDef(name, what, (
        from_model(models.WaitRequest, field, models.WaitRequest.model_fields[field].alias or field, required=True),
        Param("timeout", float, f"Timeout in milliseconds. Default {DEFAULT_WAIT_FOR_SELECTOR_MS}, maximum {MAX_WAIT_MS}.",
              minimum=0),
        TAB,
    ), run, read_only=True)


TOOLS = TOOLS + (
    _wait_tool("pinchtab_wait_for_text", "text", "Wait until the page's text contains this text. "
               "Returns {waited, elapsed, match} or {waited: false, error} on timeout."),
    _wait_tool("pinchtab_wait_for_url", "url", "Wait until the tab's URL matches a glob (** any, * any but /, ? one)."),
    _wait_tool("pinchtab_wait_for_load", "load", "Wait for a load state: ready-state (readyState complete), "
               "content-loaded (interactive or complete) or network-idle (no request for 500 ms)."),
    _wait_tool("pinchtab_wait_for_function", "fn", "Wait until a JavaScript expression is truthy "
               "(needs security.allowEvaluate)."),
)


# -- low-level input: PinchTab's keyboard tools, scroll into view, drag and the mouse ----------------

def _target(a: dict[str, Any], ref: str = "ref", selector: str = "selector") -> dict[str, Any]:
    """ref and selector parameters as action fields; a ref that is not e<N> is taken as a selector."""
    out: dict[str, Any] = {}
    if a.get(ref):
        value = a[ref].strip()
        out["ref" if _REF.fullmatch(value) else "selector"] = value
    if a.get(selector):
        out["selector"] = a[selector]
    return out


def _act(kind: str, **fixed: Any) -> Callable[[AsyncClient, dict[str, Any]], Awaitable[ToolOutput]]:
    async def run(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
        fields = {k: v for k, v in a.items() if v is not None and k not in ("tabId", "ref", "selector", "action")}
        return await c.call("action", a.get("tabId"), kind=kind, **_target(a), **fields, **fixed)
    return run


async def _mouse(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    return await _act("mouse-" + a["action"])(c, a)


async def _drag(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    fields = {k: a[k] for k in ("x", "y", "toX", "toY", "dragX", "dragY") if a.get(k) is not None}
    to = _target(a, "toRef", "toSelector")
    fields.update({"toRef" if k == "ref" else "toSelector": v for k, v in to.items()})
    return await c.call("action", a.get("tabId"), kind="drag", **_target(a), **fields)


_TEXT = Param("text", str, "Text to enter at the focused element.", required=True)
_KEY = from_model(models.ActionRequest, "key", "key", required=True,
                  description="Key to hold or release: Shift, Control, Alt, Meta, or any key name.")
_EREF = Param("ref", str, "Element ref (e.g. e5) or CSS selector.")
_ESEL = Param("selector", str, "CSS selector, instead of ref.")
_X = Param("x", float, "Viewport x, instead of ref/selector.")
_Y = Param("y", float, "Viewport y, instead of ref/selector.")

INTERACTION_TOOLS: tuple[ToolDef, ...] = (
    ToolDef("pinchtab_keyboard_type", "Type text at the currently focused element with real key events "
            "(keydown, keypress, input, keyup for each character).", (_TEXT, TAB), _act("keyboard-type")),
    ToolDef("pinchtab_keyboard_inserttext", "Insert text at the focused element like a paste: one input, "
            "no key events (fast).", (_TEXT, TAB), _act("keyboard-inserttext")),
    ToolDef("pinchtab_keydown", "Hold a key down (e.g. Shift) until pinchtab_keyup; held modifiers apply to "
            "later typing and clicks.", (_KEY, TAB), _act("keydown")),
    ToolDef("pinchtab_keyup", "Release a key held with pinchtab_keydown.", (_KEY, TAB), _act("keyup")),
    ToolDef("pinchtab_scroll_into_view", "Scroll an element into view (to the middle of its scrollers), before "
            "pointer actions at its position.", (_EREF, _ESEL, TAB), _act("scrollintoview")),
    ToolDef("pinchtab_drag", "Drag from a source (ref, selector or x/y) to a target (toRef, toSelector, toX/toY, "
            "or dragX/dragY offsets) with real pointer events; HTML5 drag-and-drop lists work too.",
            (_EREF, _ESEL, _X, _Y,
             Param("toRef", str, "Target element ref (or CSS selector)."),
             Param("toSelector", str, "Target CSS selector."),
             Param("toX", float, "Target viewport x."), Param("toY", float, "Target viewport y."),
             Param("dragX", float, "Horizontal offset from the source, instead of a target."),
             Param("dragY", float, "Vertical offset from the source, instead of a target."), TAB),
            _drag),
    ToolDef("pinchtab_mouse", "Low-level pointer: move to a ref, selector or x/y; press or release a button "
            "(at a target or the current pointer); or turn the wheel. A sequence move, down, move..., up "
            "draws a path (canvas, sliders, maps).",
            (_choice("action", "move, down, up or wheel.", "move", "down", "up", "wheel", required=True),
             _EREF, _ESEL, _X, _Y,
             _choice("button", "left (default), right or middle.", "left", "right", "middle"),
             from_model(models.ActionRequest, "delta_x", "deltaX", float),
             from_model(models.ActionRequest, "delta_y", "deltaY", float), TAB),
            _mouse),
)


# -- tools derived from the route table ---------------------------------------------------------

_SCALARS: dict[Any, type] = {str: str, bool: bool, int: int, float: float}


def _param_from_field(model: type[BaseModel], attr: str) -> Param:
    info = model.model_fields[attr]
    wire = info.alias or attr
    annotation = info.annotation
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        annotation = rest[0] if len(rest) == 1 else annotation
    if annotation in _SCALARS:
        return from_model(model, attr, wire, _SCALARS[annotation], required=info.is_required())
    schema = model.model_json_schema(by_alias=True)
    prop = _inline_refs(schema["properties"].get(wire, {}), schema.get("$defs", {}))
    prop = {k: v for k, v in prop.items() if k not in ("title", "default")}
    prop.setdefault("description", info.description or "")
    return Param(wire, object, info.description or "", info.is_required(), schema=prop)


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with ``#/$defs/X`` references replaced by X (request models are not recursive)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline_refs(defs[ref.rsplit("/", 1)[1]], defs)
        return {k: _inline_refs(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    return node


def tool_for_route(route_name: str, tool_name: str, description: str = "", *, read_only: bool = False,
                   destructive: bool = False) -> ToolDef:
    """A tool whose parameters are the fields of the route's request model (``tabId`` first)."""
    route = ROUTES_BY_NAME[route_name]
    model = route.request
    params: list[Param] = []
    if model is not None:
        for attr in model.model_fields:
            params.append(TAB if attr == "tab_id" else _param_from_field(model, attr))

    async def run(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
        fields = {k: v for k, v in a.items() if v is not None}
        tab = fields.pop("tabId", None) if route.tabbed else None
        out = await c.call(route.name, tab, **fields)
        return base64.b64encode(out).decode() if isinstance(out, bytes) else out

    return ToolDef(tool_name, description or route.summary + ".", tuple(params), run, read_only=read_only,
                   destructive=destructive)


def _derived_tools(written: tuple[ToolDef, ...]) -> tuple[ToolDef, ...]:
    have = {t.name for t in written}
    return tuple(tool_for_route(r.name, name, read_only=r.method == "GET")
                 for r in ROUTES for name in r.mcp if name not in have)


TOOLS = TOOLS + INTERACTION_TOOLS + _derived_tools(TOOLS + INTERACTION_TOOLS)


# -- errors ---------------------------------------------------------------------------------------

def error_text(exc: PinchtabClientError) -> str:
    """The text of the tool error for a failed HTTP call.

    The spec's error table is binding on how the text starts, so MCP clients and agents written
    against PinchTab recognise it. In particular an unknown or stale ref answers ``HTTP 500: ref
    not found`` although our bridge answers 404 (``ref_not_found``/``stale_ref``), as the HTTP API
    contract asks: the MCP wording follows the spec, the HTTP status follows the HTTP contract, and
    the server's own message follows in parentheses.
    """
    if exc.code == "server_unreachable":
        return f"Connection refused: {exc.message}" if not exc.message.startswith("Connection refused") else exc.message
    if exc.code in ("ref_not_found", "stale_ref"):
        return f"HTTP 500: ref not found ({exc.message})"
    if exc.code == "evaluate_disabled":
        return f"HTTP 403: evaluate not allowed ({exc.message})"
    if not exc.status:  # timeout or transport failure: no HTTP status to show
        return exc.message
    return f"HTTP {exc.status}: {exc.message}"
