"""Actions: the kinds an agent can ask for and the one request model that carries them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from pinchtab.models.base import (
    MAX_ACTIONS, MAX_COORD, MAX_KEY_CHARS, MAX_SELECTOR_CHARS, MAX_TEXT_CHARS, Leased, TabScoped,
)

ActionFamily = Literal["pointer", "form", "keyboard", "scroll", "lowlevel"]
# What a kind acts on: "element" needs a ref or selector; "point" also takes x and y; "optional" acts on
# the page, the focus or the pointer when no target is given.
ActionTarget = Literal["element", "point", "optional"]


@dataclass(frozen=True)
class ActionKindSpec:
    """One action kind as callers see it: the one declaration the request model, the MCP tools, the
    CLI and the docs read. Its implementation is registered under the same name in the browser's
    input package (``@action("click")``); a unit test checks that the two sets are equal."""

    name: str
    family: ActionFamily
    target: ActionTarget
    fields: tuple[str, ...]  # ActionRequest fields the kind reads besides the target and COMMON_FIELDS
    summary: str


ACTION_SPECS: tuple[ActionKindSpec, ...] = (
    ActionKindSpec("click", "pointer", "point", ("mode", "button", "modifiers", "frame_w", "frame_h"),
                   "Click an element with real mouse events"),
    ActionKindSpec("dblclick", "pointer", "point", (), "Double-click an element"),
    ActionKindSpec("hover", "pointer", "point", (), "Move the mouse over an element"),
    ActionKindSpec("drag", "pointer", "point", ("to_ref", "to_selector", "to_x", "to_y", "drag_x", "drag_y"),
                   "Drag from an element or point to another (HTML5 drag and drop included)"),
    ActionKindSpec("type", "form", "element", ("text",), "Focus an element and type text with key events"),
    ActionKindSpec("fill", "form", "element", ("value",), "Set an input's, textarea's or editable's value at once"),
    ActionKindSpec("select", "form", "element", ("value",), "Choose a <select> option by value or visible text"),
    ActionKindSpec("check", "form", "element", (), "Check a checkbox, radio or switch (no-op when checked)"),
    ActionKindSpec("uncheck", "form", "element", (), "Uncheck a checkbox or switch (no-op when unchecked)"),
    ActionKindSpec("focus", "form", "element", (), "Focus an element"),
    ActionKindSpec("press", "keyboard", "optional", ("key", "modifiers"), "Press a key or combination (Enter, Control+a)"),
    ActionKindSpec("keydown", "keyboard", "optional", ("key",), "Hold a key down until keyup"),
    ActionKindSpec("keyup", "keyboard", "optional", ("key",), "Release a held key"),
    ActionKindSpec("keyboard-type", "keyboard", "optional", ("text",), "Type text at the focused element"),
    ActionKindSpec("keyboard-inserttext", "keyboard", "optional", ("text",),
                   "Insert text at the focus in one step, without key events"),
    ActionKindSpec("scroll", "scroll", "optional", ("pixels", "direction"), "Scroll an element or the page"),
    ActionKindSpec("scrollintoview", "scroll", "element", (), "Scroll an element to the middle of its scrollers"),
    ActionKindSpec("mouse-wheel", "scroll", "optional", ("delta_x", "delta_y"),
                   "Turn the mouse wheel over an element, a point or the pointer"),
    ActionKindSpec("mouse-move", "lowlevel", "point", (), "Move the pointer to an element or point"),
    ActionKindSpec("mouse-down", "lowlevel", "optional", ("button",), "Press a mouse button (at a target or the pointer)"),
    ActionKindSpec("mouse-up", "lowlevel", "optional", ("button",), "Release a mouse button"),
)
ACTION_SPECS_BY_NAME: dict[str, ActionKindSpec] = {s.name: s for s in ACTION_SPECS}
ACTION_KINDS: tuple[str, ...] = tuple(ACTION_SPECS_BY_NAME)
ActionKind = Literal[ACTION_KINDS]  # type: ignore[valid-type]
# Fields every kind takes: where it acts, who acts, and what happens around it.
COMMON_FIELDS = ("tab_id", "owner", "ref", "selector", "x", "y", "wait_nav", "dialog_action", "dialog_text",
                 "auto_switch", "snap", "snap_diff")
SNAP = "Answer with the interactive compact snapshot of the tab after the step (one round trip, not two)."
SNAP_DIFF = ("Answer with only what the step added, changed or removed since the tab's previous snapshot "
             "(interactive, compact; refs stay valid).")


# Wheel deltas and drag offsets: finite and within the coordinates Chromium takes (a delta of 4e38, past
# float32, wedged the tab's input until a reload).
_OFFSET: dict = {"ge": -MAX_COORD, "le": MAX_COORD, "allow_inf_nan": False}


class ActionRequest(TabScoped, Leased):
    kind: ActionKind = Field(..., description="What to do: " + ", ".join(ACTION_KINDS) + ".")
    ref: str | None = Field(None, description="Element ref from the last snapshot or find (e.g. e5).")
    selector: str | None = Field(None, max_length=MAX_SELECTOR_CHARS, description="CSS selector, instead of ref.")
    x: float | None = Field(None, ge=0, le=MAX_COORD, allow_inf_nan=False,
                            description="Viewport x coordinate (CSS pixels), instead of ref/selector.")
    y: float | None = Field(None, ge=0, le=MAX_COORD, allow_inf_nan=False,
                            description="Viewport y coordinate (CSS pixels), instead of ref/selector.")
    text: str | None = Field(None, max_length=MAX_TEXT_CHARS, description="Text to type (type), or value to fill/select.")
    value: str | None = Field(None, max_length=MAX_TEXT_CHARS, description="Value for fill and select (option value, then visible text).")
    key: str | None = Field(None, max_length=MAX_KEY_CHARS, description="Key for press: Enter, Tab, Escape, ArrowDown, Backspace, a, Control+a, ...")
    pixels: int | None = Field(None, ge=-MAX_COORD, le=MAX_COORD, description="Pixels to scroll (scroll); positive down/right, negative up/left. Default 300.")
    direction: Literal["up", "down", "left", "right"] | None = Field(None, description="Scroll direction (scroll).")
    wait_nav: bool = Field(False, description="After the action, wait for the navigation it starts.")
    button: Literal["left", "right", "middle"] = Field("left", description="Mouse button (mouse-down, mouse-up, click).")
    delta_x: float | None = Field(None, **_OFFSET, description="Horizontal wheel delta in pixels (mouse-wheel).")
    delta_y: float | None = Field(None, **_OFFSET, description="Vertical wheel delta in pixels (mouse-wheel; positive scrolls down).")
    drag_x: float | None = Field(None, **_OFFSET, description="drag: horizontal offset from the source, in pixels.")
    drag_y: float | None = Field(None, **_OFFSET, description="drag: vertical offset from the source, in pixels.")
    to_ref: str | None = Field(None, description="drag: the target element's ref.")
    to_selector: str | None = Field(None, description="drag: the target's CSS selector.")
    to_x: float | None = Field(None, **_OFFSET, description="drag: the target's viewport x.")
    to_y: float | None = Field(None, **_OFFSET, description="drag: the target's viewport y.")
    modifiers: int = Field(0, ge=0, le=15, description="Modifier keys held during a click or press, CDP's bit mask "
                           "(Alt=1, Control=2, Meta=4, Shift=8), as the screencast take-over sends them.")
    frame_w: float | None = Field(None, gt=0, le=MAX_COORD, allow_inf_nan=False,
                                  description="click: x and y are pixels of a screencast frame this wide; they are "
                                              "scaled to the CSS viewport (HiDPI frames are larger).")
    frame_h: float | None = Field(None, gt=0, le=MAX_COORD, allow_inf_nan=False,
                                  description="click: the screencast frame's height, with frameW.")
    mode: Literal["dom", "dispatch"] | None = Field(
        None, description="click delivery: omit for a real click (fails on a covered target), dom for "
        "element.click(), dispatch for synthetic pointer and mouse events on the target.")
    dialog_action: Literal["accept", "dismiss"] | None = Field(
        None, description="Answer a JavaScript dialog this action opens (accept or dismiss).")
    dialog_text: str | None = Field(None, max_length=8192, description="Prompt text when dialogAction is accept.")
    snap: bool = Field(False, description=SNAP)
    snap_diff: bool = Field(False, description=SNAP_DIFF)
    auto_switch: bool = Field(
        True, description="A tab this action opens (target=_blank, window.open) becomes the current tab "
                          "(result.switchedToTab), as in PinchTab; false closes it and the current tab stays.")


class ActionsRequest(TabScoped, Leased):
    actions: list[ActionRequest] = Field(..., min_length=1, max_length=MAX_ACTIONS, description="Actions run in order; stops at the first failure.")
    stop_on_error: bool | None = Field(
        None, description="PinchTab's batch: given, every action's outcome is in `results` ({index, success, "
                          "result | error}) with total/successful/failed, and the answer is 200; false runs on past "
                          "a failure, true stops after it. Omitted: the first failure is the answer (its status).")
    snap: bool = Field(False, description="After the whole batch: " + SNAP)
    snap_diff: bool = Field(False, description="After the whole batch: " + SNAP_DIFF)
