"""Input events to Chromium (``Input.dispatchMouseEvent``, ``Input.dispatchKeyEvent``) and the
per-tab input state.

Each tab keeps its pointer position, pressed buttons and held modifier keys between requests, so
``mouse-down`` then ``mouse-move`` then ``mouse-up`` draw one path, and ``keydown Shift`` holds
Shift for the actions that follow until ``keyup Shift``. Events that Chromium does not take in time
reset the tab's input, so its next action does not queue behind a half-done gesture.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pinchtab.errors import BadRequest, Timeout

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab
    from pinchtab.models import ActionRequest

INPUT_TIMEOUT_S = 10.0
BUTTON_BITS = {"left": 1, "right": 2, "middle": 4}

VIEWPORT_JS = "() => [window.innerWidth, window.innerHeight]"


@dataclass
class InputState:
    x: float | None = None
    y: float | None = None
    buttons: int = 0  # pressed mouse buttons (CDP bit mask)
    modifiers: int = 0  # held modifier keys (CDP bit mask)


_STATE: "weakref.WeakKeyDictionary[Tab, InputState]" = weakref.WeakKeyDictionary()


def state(tab: "Tab") -> InputState:
    st = _STATE.get(tab)
    if st is None:
        st = _STATE[tab] = InputState()
    return st


async def mouse_event(tab: "Tab", kind: str, x: float, y: float, **extra: Any) -> None:
    """One mouse event with the tab's held buttons and modifiers; the pointer is then at (x, y)."""
    st = state(tab)
    await tab.send("Input.dispatchMouseEvent",
                   {"type": kind, "x": x, "y": y, "modifiers": st.modifiers, "buttons": st.buttons, **extra})
    st.x, st.y = x, y


def current_pointer(tab: "Tab", kind: str) -> tuple[float, float]:
    st = state(tab)
    if st.x is None or st.y is None:
        raise BadRequest(f"{kind} has no pointer position yet: send mouse-move first, or give a ref, selector "
                         "or x and y", "no_pointer")
    return st.x, st.y


async def send_clicks(tab: "Tab", x: float, y: float, count: int, modifiers: int = 0) -> None:
    """Move to (x, y) and click the left button ``count`` times (2: a double click)."""
    events: list[dict[str, Any]] = [{"type": "mouseMoved", "x": x, "y": y, "modifiers": modifiers}]
    for n in range(1, count + 1):
        events.append({"type": "mousePressed", "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": n,
                       "modifiers": modifiers})
        events.append({"type": "mouseReleased", "x": x, "y": y, "button": "left", "buttons": 0, "clickCount": n,
                       "modifiers": modifiers})
    # Chromium handles input events in order; sending them together saves round trips.
    await dispatch(tab, "Input.dispatchMouseEvent", events)


async def frame_to_viewport(tab: "Tab", spec: "ActionRequest") -> "ActionRequest":
    """x and y given in pixels of a screencast frame (frameW x frameH) -> CSS pixels of the viewport:
    a HiDPI frame is larger than the viewport, and a take-over click must land where the person saw it."""
    width, height = await tab.eval_in_world(VIEWPORT_JS)
    x, y, frame_w, frame_h = spec.x or 0.0, spec.y or 0.0, spec.frame_w or width, spec.frame_h or height
    return spec.model_copy(update={"x": x * width / frame_w, "y": y * height / frame_h})


async def send_keys(tab: "Tab", events: list[dict[str, Any]]) -> None:
    await dispatch(tab, "Input.dispatchKeyEvent", events)


async def dispatch(tab: "Tab", method: str, events: list[dict[str, Any]]) -> None:
    """Send input events; when Chromium does not take them in time, release buttons and keys so
    the tab's next input does not queue behind a half-done gesture."""
    try:
        await asyncio.gather(*(tab.send(method, e, timeout=INPUT_TIMEOUT_S) for e in events))
    except Timeout:
        asyncio.ensure_future(_reset_input(tab))
        raise Timeout(f"the page did not take the input within {INPUT_TIMEOUT_S:g} s; its input state was reset, "
                      "so the next action can go on", "input_timeout") from None


async def _reset_input(tab: "Tab") -> None:
    with contextlib.suppress(Exception):
        await tab.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": 0, "y": 0, "button": "left",
                                                    "buttons": 0, "clickCount": 1}, timeout=2)
        for key in ("Control", "Shift", "Alt", "Meta"):
            await tab.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key}, timeout=2)
