"""Acting on the page: one tool per action kind of ``models.ACTION_SPECS`` (plus the mouse, which
takes four kinds, and the dialog route).

A kind's tool takes its arguments from the declaration: the target (ref, selector, and x/y for a
"point" kind), the kind's own fields and those of ``COMMON_FIELDS`` it keeps; its description
starts with the kind's summary. The tools of PinchTab's spec keep exactly the spec's arguments
(``only``), named and typed as the spec has them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Literal

from pinchtab import models
from pinchtab.client import AsyncClient
import pinchtab.mcp.tools.views as views
from pinchtab.mcp.tools.common import TAB, route_tool
from pinchtab.mcp.tools.registry import Arg, Runner, ToolDef, ToolOutput, define, field, model_fields, own
from pinchtab.models.refs import is_ref

tool = define("actions")
A = models.ActionRequest
_TARGETS = {"element": ("ref", "selector"), "point": ("ref", "selector", "x", "y"), "optional": ("ref", "selector")}
# Arguments that take a ref or, when not e<N>, a selector: the action fields each goes to.
_REF_SELECTOR = {"ref": ("ref", "selector"), "toRef": ("to_ref", "to_selector")}
# The agent's words for what the model describes for several kinds at once.
ARG_WORDS = {
    "ref": "Element ref (e.g. e5) or CSS selector.",
    "selector": "CSS selector, instead of ref.",
    # short: every action tool carries them, and tools/list is read on every turn
    "snap": "Answer with the page after it.",
    "snap_diff": "Answer with only what changed.",
}


def kind_args(kind: str, only: Iterable[str] | None = None, *, required: Iterable[str] = (),
              described: dict[str, str] | None = None, typed: dict[str, type] | None = None) -> tuple[Arg, ...]:
    """The arguments of kind ``kind``: its target, its fields and the common ones (``only``: those
    attributes, in that order), then ``tabId``."""
    spec = models.ACTION_SPECS_BY_NAME[kind]
    names = [*(only if only is not None else (*_TARGETS[spec.target], *spec.fields)), *SNAP_ARGS]
    allowed = set(_TARGETS["point"]) | set(spec.fields) | set(models.COMMON_FIELDS)
    unknown = [n for n in names if n not in allowed]
    if unknown:
        raise ValueError(f"{kind}: {unknown} are not fields of the kind")
    described, typed, required = described or {}, typed or {}, set(required)
    return tuple(field(A, n, description=described.get(n, ARG_WORDS.get(n)), type=typed.get(n),
                       required=True if n in required else None) for n in names) + (TAB,)


def act(kind: str, args: tuple[Arg, ...], *, selector_in_ref: bool = True) -> Runner:
    """A run that sends the arguments as one action of ``kind``; with ``selector_in_ref`` a ref
    that is not e<N> is taken as a selector (a ``selector`` argument, given, wins)."""

    async def run(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
        fields = model_fields(args, a, skip=("tabId", "action", *_REF_SELECTOR, *_SNAP_NAMES))
        target: dict[str, Any] = {}
        for ref_arg, (ref_attr, selector_attr) in _REF_SELECTOR.items():
            ref = a.get(ref_arg)
            if not ref:
                continue
            if selector_in_ref:
                ref = ref.strip()
                target[ref_attr if is_ref(ref) else selector_attr] = ref
            else:
                target[ref_attr] = ref
        kind_now = kind if kind != "mouse" else "mouse-" + a["action"]
        # A selector argument, given, wins over a selector written in ref.
        return await with_page(c, await c.action(kind_now, tab_id=a.get("tabId"), **{**target, **fields}), a.get("tabId"), a)

    return run


# Every action tool can answer with the page after it (PinchTab's snap; snapDiff beyond it).
SNAP_ARGS = ("snap", "snap_diff")
_SNAP_NAMES = ("snap", "snapDiff")


async def with_page(c: AsyncClient, answer: dict[str, Any], tab_id: str | None, a: dict[str, Any]) -> ToolOutput:
    """MCP's snap and snapDiff: the step's answer, then the page after it as the outline (its text
    too, so the answer shows what the step did: a message, a new page), or what changed in it.
    snap shows a page the session has seen as what changed since (views.py); snapDiff is the
    bridge's diff against the tab's previous snapshot. HTTP's snap stays PinchTab's interactive
    compact snapshot."""
    if a.get("snapDiff"):
        page = await c.snapshot(tab_id, format="outline", diff=True)
        views.forget(c)  # the session's view is now one snap would not know how to diff against
    elif a.get("snap"):
        # views are kept by the tab the agent names (none: the current tab, as its next step will)
        page = views.since_seen(c, a.get("tabId"), await c.snapshot(tab_id, format="outline"), acted(a))
    else:
        return answer
    return with_snapshot({**news(answer, a.get("dialogAction")), "snapshot": page})


def acted(a: dict[str, Any]) -> set[str]:
    """The refs a step named (its target, a drag's goal, each of a batch's steps)."""
    steps = [a, *(s for s in a.get("actions") or () if isinstance(s, dict))]
    return {s[k] for s in steps for k in ("ref", "toRef") if isinstance(s.get(k), str)}


# What an action's answer says that a snapshot after it does not: "success" (a failure is an
# error), the kind and ref the agent sent, and the URL and title the outline's header carries.
_ECHO = ("success", "kind", "ref", "url", "title")


def news(answer: dict[str, Any], dialog_action: str | None = None) -> dict[str, Any]:
    """``answer`` without its echo of the request (a batch's steps too: a step that says nothing
    more goes, one that does keeps its kind and ref). A select's result (the option now chosen)
    is the combobox's value in the page, a dialog's URL the page's, and its action the
    ``dialog_action`` the agent sent."""
    out = {k: v for k, v in answer.items() if k not in _ECHO or (k == "success" and v is not True)}
    if isinstance(out.get("dialog"), dict):
        out["dialog"] = {k: v for k, v in out["dialog"].items()
                         if k != "url" and not (k == "action" and v == dialog_action)}
    results = out.pop("results", None)
    if isinstance(results, list):
        # a step's url and title (the page it led to): the outline's header names the last one
        results = [{k: v for k, v in r.items() if not (k == "result" and r.get("kind") == "select")
                    and k not in ("url", "title")} if isinstance(r, dict) else r for r in results]
        kept = [{k: v for k, v in r.items() if k != "success" or v is not True} for r in results
                if isinstance(r, dict) and (r.get("success") is not True or set(r) - {"success", "kind", "ref", "index"})]
        if kept:
            out["results"] = kept
    return out


def with_snapshot(answer: dict[str, Any]) -> ToolOutput:
    """The answer as JSON, and a snapshot it carries as plain text after it (not escaped in JSON);
    with nothing but the snapshot to say, the snapshot alone."""
    if not isinstance(answer, dict) or "snapshot" not in answer:
        return answer
    rest = {k: v for k, v in answer.items() if k != "snapshot"}
    head = json.dumps(rest, separators=(",", ":")) + "\n" if rest else ""
    return head + str(answer["snapshot"])


def action_tool(name: str, kind: str, more: str = "", *, only: Iterable[str] | None = None,
                required: Iterable[str] = (), described: dict[str, str] | None = None,
                typed: dict[str, type] | None = None, selector_in_ref: bool = True, core: bool = False) -> ToolDef:
    """The tool of one action kind: the kind's summary (and ``more``) as description."""
    args = kind_args(kind, only, required=required, described=described, typed=typed)
    summary = models.ACTION_SPECS_BY_NAME[kind].summary + "."
    return tool(name=name, description=f"{summary} {more}".strip(), args=args,
                run=act(kind, args, selector_in_ref=selector_in_ref), core=core)


REF = "Element ref (e.g. e5) from pinchtab_snapshot or pinchtab_find."


async def _batch(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    return await with_page(c, await c.actions(a["actions"], tab_id=a["tabId"]), a["tabId"], a)
_MOUSE_ARGS = (own("action", Literal["move", "down", "up", "wheel"], "move, down, up or wheel.", required=True),
               *(field(A, n, description=ARG_WORDS.get(n)) for n in ("ref", "selector", "x", "y", "button",
                                                                    "delta_x", "delta_y")), TAB)

TOOLS = (
    action_tool("pinchtab_click", "click", "dialogAction answers a dialog the click opens.",
                only=("ref", "mode", "dialog_action", "dialog_text"), required=("ref",),
                described={"ref": REF, "mode": "dom (element.click()) or dispatch (synthetic events): reach a "
                                                "target under an overlay."},
                selector_in_ref=False, core=True),
    action_tool("pinchtab_type", "type", "Keystrokes one by one; appends to what is there.",
                only=("ref", "text"), required=("ref", "text"), described={"ref": REF, "text": "Text to type."},
                selector_in_ref=False, core=True),
    action_tool("pinchtab_press", "press", "The key goes to the focused element; Enter submits a form.",
                only=("key",), required=("key",),
                described={"key": "Key name: Enter, Tab, Escape, ArrowDown, Backspace, etc."}, core=True),
    action_tool("pinchtab_hover", "hover", "Triggers :hover styles, menus and tooltips.", only=("ref",),
                required=("ref",), described={"ref": REF}, selector_in_ref=False, core=True),
    action_tool("pinchtab_focus", "focus", "", only=("ref",), required=("ref",), described={"ref": REF},
                selector_in_ref=False),
    action_tool("pinchtab_select", "select", "", only=("ref", "value"), required=("ref", "value"),
                described={"ref": "<select> element ref.", "value": "Option value to select."}, selector_in_ref=False, core=True),
    action_tool("pinchtab_scroll", "scroll", "With a ref, scrolls that element into view.", only=("ref", "pixels"),
                described={"ref": "Element ref. Omit to scroll the whole page."}, typed={"pixels": float},
                selector_in_ref=False, core=True),
    action_tool("pinchtab_fill", "fill", "Replaces the value and dispatches input/change events, so it works "
                "where a framework (React, Vue, ...) ignores simulated keystrokes.",
                only=("ref", "value"), required=("ref", "value"),
                described={"ref": "Element ref (e.g. e5) or a selector: CSS, label:Email, placeholder:..., "
                                  "role:textbox Name, text:..., xpath:..., first:/last:/nth:<n>: wrappers.",
                           "value": "Value to set."}, core=True),
    action_tool("pinchtab_keyboard_type", "keyboard-type", "Real key events (keydown, keypress, input, keyup for "
                "each character).", only=("text",), required=("text",),
                described={"text": "Text to enter at the focused element."}),
    action_tool("pinchtab_keyboard_inserttext", "keyboard-inserttext", "Like a paste: one input event (fast).",
                only=("text",), required=("text",), described={"text": "Text to enter at the focused element."}),
    action_tool("pinchtab_keydown", "keydown", "Held modifiers (e.g. Shift) apply to later typing and clicks.", only=("key",), required=("key",),
                described={"key": "Key to hold or release: Shift, Control, Alt, Meta, or any key name."}),
    action_tool("pinchtab_keyup", "keyup", "Pairs with pinchtab_keydown.", only=("key",), required=("key",),
                described={"key": "Key to hold or release: Shift, Control, Alt, Meta, or any key name."}),
    action_tool("pinchtab_scroll_into_view", "scrollintoview", "Use it before pointer actions at its position."),
    action_tool("pinchtab_drag", "drag", "Source: ref, selector or x/y; target: toRef, toSelector, toX/toY, or "
                "dragX/dragY offsets; real pointer events.",
                described={"to_ref": "Target element ref (or CSS selector)."}),
    tool(name="pinchtab_mouse", description="Low-level pointer: move to a ref, selector or x/y; press or release a "
         "button (at a target or the current pointer); or turn the wheel. A sequence move, down, move..., up "
         "draws a path (canvas, sliders, maps).", args=_MOUSE_ARGS, run=act("mouse", _MOUSE_ARGS)),
    route_tool("actions", "dialog", "pinchtab_dialog"),
    tool(name="pinchtab_actions", description="Several actions in one call, in order, stopping at the first "
         "that fails: fill a form and submit it in one step.",
         args=(own("actions", list, "Each {kind: click|fill|select|type|press|hover|check|uncheck, ref, "
                   "value|text|key}."),
               *(field(models.ActionsRequest, n, description=ARG_WORDS[n]) for n in SNAP_ARGS), TAB),
         run=_batch, core=True),
)
