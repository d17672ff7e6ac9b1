"""The scroll family: scroll (an element, the page, or the wheel at a point), scrollintoview and
mouse-wheel (real wheel events at a target, the pointer or the middle of the viewport)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.browser.input.dispatch import VIEWPORT_JS, mouse_event, state
from pinchtab.browser.input.point import center
from pinchtab.browser.input.registry import action
from pinchtab.browser.input.target import Target, on_node
from pinchtab.errors import BadRequest
from pinchtab.models import ActionRequest

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab

DEFAULT_SCROLL = 300

SCROLL_JS = r"""function (dx, dy) {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el || !el.isConnected) return { stale: true };
  if (dx === null && dy === null) { el.scrollIntoView({ block: 'center', behavior: 'instant' }); return { scrolledIntoView: true }; }
  el.scrollBy({ left: dx || 0, top: dy || 0, behavior: 'instant' });
  return { scrollX: el.scrollLeft, scrollY: el.scrollTop };
}"""

PAGE_SCROLL_JS = r"""(dx, dy) => {
  window.scrollBy({ left: dx, top: dy, behavior: 'instant' });
  return { scrollX: window.scrollX, scrollY: window.scrollY };
}"""


@action("scroll")
async def scroll(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    amount = spec.pixels
    dx = dy = None
    if amount is not None or spec.direction:
        amount = DEFAULT_SCROLL if amount is None else amount
        if spec.direction in ("up", "left"):
            amount = -abs(amount)
        elif spec.direction in ("down", "right"):
            amount = abs(amount)
        dx, dy = (amount, 0) if spec.direction in ("left", "right") else (0, amount)
    if target.backend_id is not None:
        return await on_node(tab, target, SCROLL_JS, dx, dy)
    if dx is None:
        dx, dy = 0, DEFAULT_SCROLL
    if target.x is not None:
        await tab.send("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": target.x, "y": target.y, "deltaX": dx, "deltaY": dy})
        return {"deltaX": dx, "deltaY": dy}
    return await tab.eval_in_world(PAGE_SCROLL_JS, dx, dy)


@action("scrollintoview")
async def scrollintoview(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    """PinchTab's kind: the element to the middle of its scrollers."""
    return await on_node(tab, target, SCROLL_JS, None, None)


@action("mouse-wheel")
async def mouse_wheel(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    st = state(tab)
    if target.backend_id is not None or target.x is not None:
        x, y = await center(tab, target)
    elif st.x is not None and st.y is not None:
        x, y = st.x, st.y
    else:
        w, h = await tab.eval_in_world(VIEWPORT_JS)
        x, y = w / 2, h / 2
    dx = spec.delta_x or 0
    dy = spec.delta_y if spec.delta_y is not None else (spec.pixels or 0)
    if not dx and not dy:
        raise BadRequest("mouse-wheel needs deltaY or deltaX", "missing_delta")
    await mouse_event(tab, "mouseWheel", x, y, deltaX=dx, deltaY=dy)
    return {"x": x, "y": y, "deltaX": dx, "deltaY": dy}
