"""The pointer family: click (with its delivery modes), dblclick, hover and drag.

A click scrolls the element into view, checks that nothing covers its visible centre, then sends
mouse events there. For a target that stays covered, ``mode=dom`` calls ``element.click()`` and
``mode=dispatch`` fires synthetic pointer and mouse events on the target itself. Drags use real
pointer events; when the page starts an HTML5 drag (draggable elements), Chromium hands it to us
(``Input.setInterceptDrags``) and we deliver dragenter/dragover/drop at the target.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from pinchtab.browser.input.dispatch import VIEWPORT_JS, mouse_event, send_clicks, state
from pinchtab.browser.input.point import center, point
from pinchtab.browser.input.registry import action
from pinchtab.browser.input.target import Target, on_node, resolve_target
from pinchtab.browser.page.refs import StaleRef
from pinchtab.errors import BadRequest
from pinchtab.models import ActionRequest

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab

DRAG_STEPS = 8

DOM_CLICK_JS = r"""function () {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el || !el.isConnected) return { stale: true };
  if (el.matches(':disabled')) return { disabled: true };
  el.click();
  return {};
}"""

# Synthetic pointer and mouse events on the target itself, at its centre: whatever covers it
# never sees them.
DISPATCH_CLICK_JS = r"""function (button) {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el || !el.isConnected) return { stale: true };
  if (el.matches(':disabled')) return { disabled: true };
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = el.getBoundingClientRect();
  const base = { bubbles: true, cancelable: true, composed: true, view: el.ownerDocument.defaultView,
                 clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, button, detail: 1 };
  const P = el.ownerDocument.defaultView.PointerEvent, M = el.ownerDocument.defaultView.MouseEvent;
  el.dispatchEvent(new P('pointerdown', { ...base, pointerId: 1, pointerType: 'mouse', isPrimary: true, buttons: 1 }));
  el.dispatchEvent(new M('mousedown', { ...base, buttons: 1 }));
  if (el.focus) el.focus({ preventScroll: true });
  el.dispatchEvent(new P('pointerup', { ...base, pointerId: 1, pointerType: 'mouse', isPrimary: true, buttons: 0 }));
  el.dispatchEvent(new M('mouseup', { ...base, buttons: 0 }));
  el.dispatchEvent(new M('click', { ...base, buttons: 0 }));
  return { x: base.clientX, y: base.clientY };
}"""


# Whether a disclosure control (aria-expanded, <details>, its <summary>) is open now.
EXPANDED_JS = r"""function () {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el || !el.isConnected) return {};
  const a = el.getAttribute('aria-expanded');
  if (a === 'true' || a === 'false') return { expanded: a === 'true' };
  if (el.localName === 'details') return { expanded: el.open };
  const up = el.parentElement;
  if (el.localName === 'summary' && up && up.localName === 'details') return { expanded: up.open };
  return {};
}"""


@action("click")
async def click(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any] | None:
    if spec.mode:
        return await _click_in_mode(tab, spec, target)
    x, y = await point(tab, target, check_disabled=True)
    # a section or menu the click opens or shuts: its state before, to see the click land
    before = await _expanded(tab, target) if target.node is not None and target.node.expanded is not None else None
    await send_clicks(tab, x, y, 1, spec.modifiers)
    if before is not None:
        await _until_toggled(tab, target, before)
    return None


async def _expanded(tab: "Tab", target: Target) -> bool | None:
    try:
        return (await on_node(tab, target, EXPANDED_JS)).get("expanded")
    except StaleRef:  # the click took the page away, or redrew the control
        return None


async def _until_toggled(tab: "Tab", target: Target, before: bool) -> None:
    """Until the control reports the other state, for up to the actionability wait. An app that
    opens a section through its server (NiceGUI, Dash) flips aria-expanded a round trip after the
    click: an agent that looked at once saw it still collapsed and clicked it again, shutting it."""
    deadline = time.monotonic() + tab.actionability_wait_s
    while time.monotonic() < deadline:
        if await _expanded(tab, target) in (not before, None):
            return
        await asyncio.sleep(0.05)


async def _click_in_mode(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    """click with mode dom (element.click()) or dispatch (synthetic events on the target)."""
    if target.backend_id is None:
        raise BadRequest(f"click mode {spec.mode} needs a ref or a selector, not coordinates", "missing_target")
    if spec.mode == "dom":
        await on_node(tab, target, DOM_CLICK_JS)
    else:
        await on_node(tab, target, DISPATCH_CLICK_JS, {"left": 0, "middle": 1, "right": 2}[spec.button])
    return {"mode": spec.mode}


@action("dblclick")
async def dblclick(tab: "Tab", spec: ActionRequest, target: Target) -> None:
    x, y = await point(tab, target, check_disabled=True)
    await send_clicks(tab, x, y, 2)


@action("hover")
async def hover(tab: "Tab", spec: ActionRequest, target: Target) -> None:
    x, y = await point(tab, target, check_disabled=False)
    await tab.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})


@action("drag")
async def drag(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    sx, sy = await center(tab, target)
    ex, ey = await _destination(tab, spec, (sx, sy))
    st = state(tab)
    intercepted: list[dict[str, Any]] = []
    off = tab.session.on("Input.dragIntercepted", lambda p: intercepted.append(p.get("data") or {}))
    await tab.send("Input.setInterceptDrags", {"enabled": True})
    try:
        await mouse_event(tab, "mouseMoved", sx, sy)
        st.buttons |= 1
        await mouse_event(tab, "mousePressed", sx, sy, button="left", clickCount=1)
        for i in range(1, DRAG_STEPS + 1):
            t = i / DRAG_STEPS
            await mouse_event(tab, "mouseMoved", sx + (ex - sx) * t, sy + (ey - sy) * t, button="left")
            if intercepted:
                break
        if intercepted:
            # An HTML5 drag started: the page gets dragenter/dragover/drop at the target.
            await asyncio.sleep(0)
            data = intercepted[0]
            for kind in ("dragEnter", "dragOver", "drop"):
                await tab.send("Input.dispatchDragEvent", {"type": kind, "x": ex, "y": ey, "data": data,
                                                           "modifiers": st.modifiers})
        st.buttons &= ~1
        await mouse_event(tab, "mouseReleased", ex, ey, button="left", clickCount=1)
    finally:
        off()
        st.buttons &= ~1
        await tab.send("Input.setInterceptDrags", {"enabled": False})
    return {"from": {"x": sx, "y": sy}, "to": {"x": ex, "y": ey}, "html5": bool(intercepted)}


async def _destination(tab: "Tab", spec: ActionRequest, start: tuple[float, float]) -> tuple[float, float]:
    if spec.to_ref or spec.to_selector:
        to = await resolve_target(tab, ActionRequest(kind="hover", ref=spec.to_ref, selector=spec.to_selector))
        return await center(tab, to)
    if spec.to_x is not None and spec.to_y is not None:
        x, y = spec.to_x, spec.to_y
    elif spec.drag_x is not None or spec.drag_y is not None:
        x, y = start[0] + (spec.drag_x or 0), start[1] + (spec.drag_y or 0)
    else:
        raise BadRequest("drag needs a destination: toRef, toSelector, toX and toY, or dragX/dragY", "missing_target")
    w, h = await tab.eval_in_world(VIEWPORT_JS)
    if not (0 <= x < w and 0 <= y < h):
        raise BadRequest(f"drag destination ({x:g}, {y:g}) is outside the viewport ({w}x{h})", "target_outside_viewport")
    return x, y
