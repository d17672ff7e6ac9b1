"""The low-level family: mouse-move, mouse-down and mouse-up, one pointer event each.

The pointer stays where the last event left it and pressed buttons stay pressed between requests
(dispatch.py's per-tab state), so mouse-down, mouse-move, ..., mouse-up draw one path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.browser.input.dispatch import BUTTON_BITS, current_pointer, mouse_event, state
from pinchtab.browser.input.point import center
from pinchtab.browser.input.registry import action
from pinchtab.browser.input.target import Target
from pinchtab.models import ActionRequest

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab


@action("mouse-move")
async def mouse_move(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    x, y = await center(tab, target)
    await mouse_event(tab, "mouseMoved", x, y, button="left" if state(tab).buttons & 1 else "none")
    return {"x": x, "y": y}


@action("mouse-down")
async def mouse_down(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    return await _button(tab, spec, target, down=True)


@action("mouse-up")
async def mouse_up(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    return await _button(tab, spec, target, down=False)


async def _button(tab: "Tab", spec: ActionRequest, target: Target, *, down: bool) -> dict[str, Any]:
    """Press or release a button at the target (moving there first) or where the pointer is."""
    if target.backend_id is not None or target.x is not None:
        x, y = await center(tab, target)
        await mouse_event(tab, "mouseMoved", x, y)
    else:
        x, y = current_pointer(tab, spec.kind)
    st = state(tab)
    bit = BUTTON_BITS[spec.button]
    if down:
        st.buttons |= bit
        await mouse_event(tab, "mousePressed", x, y, button=spec.button, clickCount=1)
    else:
        st.buttons &= ~bit
        await mouse_event(tab, "mouseReleased", x, y, button=spec.button, clickCount=1)
    return {"x": x, "y": y, "button": spec.button}
