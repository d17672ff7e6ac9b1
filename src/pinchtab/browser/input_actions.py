"""Low-level input: the pointer (move, down, up, wheel, drag), held keys, typing at the focus,
click delivery modes for a covered target.

Each tab keeps its pointer position, pressed buttons and held modifier keys between requests, so
``mouse-down`` then ``mouse-move`` then ``mouse-up`` draw one path, and ``keydown Shift`` holds
Shift for the actions that follow until ``keyup Shift``. Drags use real pointer events; when the
page starts an HTML5 drag (draggable elements), Chromium hands it to us
(``Input.setInterceptDrags``) and we deliver dragenter/dragover/drop at the target.
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pinchtab.browser import actions
from pinchtab.browser.actions import EXTENDED_KINDS, POINT_JS, Target, _focus, _keys, _on_node, resolve_target
from pinchtab.browser.keys import MODIFIER_BITS, char_key, key_events, parse_combo
from pinchtab.errors import BadRequest, Conflict
from pinchtab.models import ActionRequest

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab

KINDS = frozenset(EXTENDED_KINDS)
BUTTON_BITS = {"left": 1, "right": 2, "middle": 4}
DRAG_STEPS = 8

VIEWPORT_JS = "() => [window.innerWidth, window.innerHeight]"

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


def modifiers(tab: "Tab") -> int:
    st = _STATE.get(tab)
    return st.modifiers if st else 0


async def center(tab: "Tab", target: Target) -> tuple[float, float]:
    """The target's visible centre (scrolled into view when needed); a covered target is fine here."""
    if target.backend_id is None:
        assert target.x is not None and target.y is not None
        return target.x, target.y
    res = await _on_node(tab, target, POINT_JS, False)
    if res.get("invisible") or res.get("offscreen"):
        raise Conflict(f"element {target.label} is not visible (it has no size on screen)", "element_not_visible")
    return res["x"], res["y"]


async def _mouse_event(tab: "Tab", kind: str, x: float, y: float, **extra: Any) -> None:
    st = state(tab)
    await tab.send("Input.dispatchMouseEvent",
                   {"type": kind, "x": x, "y": y, "modifiers": st.modifiers, "buttons": st.buttons, **extra})
    st.x, st.y = x, y


def _pointer(tab: "Tab", kind: str) -> tuple[float, float]:
    st = state(tab)
    if st.x is None or st.y is None:
        raise BadRequest(f"{kind} has no pointer position yet: send mouse-move first, or give a ref, selector "
                         "or x and y", "no_pointer")
    return st.x, st.y


async def perform(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any] | None:
    kind = spec.kind
    st = state(tab)
    has_target = target.backend_id is not None or target.x is not None
    if kind == "mouse-move":
        if not has_target:
            raise BadRequest("mouse-move needs a ref, a selector or x and y", "missing_target")
        x, y = await center(tab, target)
        await _mouse_event(tab, "mouseMoved", x, y, button="left" if st.buttons & 1 else "none")
        return {"x": x, "y": y}
    if kind in ("mouse-down", "mouse-up"):
        if has_target:
            x, y = await center(tab, target)
            await _mouse_event(tab, "mouseMoved", x, y)
        else:
            x, y = _pointer(tab, kind)
        bit = BUTTON_BITS[spec.button]
        if kind == "mouse-down":
            st.buttons |= bit
            await _mouse_event(tab, "mousePressed", x, y, button=spec.button, clickCount=1)
        else:
            st.buttons &= ~bit
            await _mouse_event(tab, "mouseReleased", x, y, button=spec.button, clickCount=1)
        return {"x": x, "y": y, "button": spec.button}
    if kind == "mouse-wheel":
        if has_target:
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
        await _mouse_event(tab, "mouseWheel", x, y, deltaX=dx, deltaY=dy)
        return {"x": x, "y": y, "deltaX": dx, "deltaY": dy}
    if kind == "drag":
        return await _drag(tab, spec, target)
    if kind in ("keydown", "keyup"):
        key, mods = parse_combo(spec.key or spec.text or "")
        if target.backend_id is not None:
            await _focus(tab, target)
        down, up = key_events(key, mods | st.modifiers)
        bit = MODIFIER_BITS.get(key.key, 0)
        if kind == "keydown":
            st.modifiers |= bit
            await _keys(tab, [{**down, "modifiers": st.modifiers}])
        else:
            st.modifiers &= ~bit
            await _keys(tab, [{**up, "modifiers": st.modifiers}])
        return {"key": key.key, "held": _held(st.modifiers)}
    if kind in ("keyboard-type", "keyboard-inserttext"):
        text = spec.text if spec.text is not None else spec.value
        if not text:
            raise BadRequest(f"{kind} needs text", "missing_text")
        if target.backend_id is not None:
            await _focus(tab, target)
        if kind == "keyboard-inserttext":
            await tab.send("Input.insertText", {"text": text})
            return None
        shift = st.modifiers & MODIFIER_BITS["Shift"]
        events: list[dict[str, Any]] = []
        for ch in text.upper() if shift else text:
            events.extend({**e, "modifiers": st.modifiers} for e in key_events(char_key(ch)))
        await _keys(tab, events)
        return None
    raise BadRequest(f"unknown action kind {kind!r}", "unknown_kind")


def _held(bits: int) -> list[str]:
    return [name for name, bit in MODIFIER_BITS.items() if bits & bit]


async def click_mode(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    """click with mode dom (element.click()) or dispatch (synthetic events on the target)."""
    if target.backend_id is None:
        raise BadRequest(f"click mode {spec.mode} needs a ref or a selector, not coordinates", "missing_target")
    if spec.kind != "click":
        raise BadRequest(f"mode is for click, not {spec.kind}", "invalid_field")
    if spec.mode == "dom":
        await _on_node(tab, target, DOM_CLICK_JS)
    else:
        await _on_node(tab, target, DISPATCH_CLICK_JS, {"left": 0, "middle": 1, "right": 2}[spec.button])
    return {"mode": spec.mode}


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


async def _drag(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    if target.backend_id is None and target.x is None:
        raise BadRequest("drag needs a source: ref, selector or x and y", "missing_target")
    sx, sy = await center(tab, target)
    ex, ey = await _destination(tab, spec, (sx, sy))
    st = state(tab)
    intercepted: list[dict[str, Any]] = []
    off = tab.session.on("Input.dragIntercepted", lambda p: intercepted.append(p.get("data") or {}))
    await tab.send("Input.setInterceptDrags", {"enabled": True})
    try:
        await _mouse_event(tab, "mouseMoved", sx, sy)
        st.buttons |= 1
        await _mouse_event(tab, "mousePressed", sx, sy, button="left", clickCount=1)
        for i in range(1, DRAG_STEPS + 1):
            t = i / DRAG_STEPS
            await _mouse_event(tab, "mouseMoved", sx + (ex - sx) * t, sy + (ey - sy) * t, button="left")
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
        await _mouse_event(tab, "mouseReleased", ex, ey, button="left", clickCount=1)
    finally:
        off()
        st.buttons &= ~1
        await tab.send("Input.setInterceptDrags", {"enabled": False})
    return {"from": {"x": sx, "y": sy}, "to": {"x": ex, "y": ey}, "html5": bool(intercepted)}


async def _handle(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any] | None:
    return await (click_mode if spec.mode else perform)(tab, spec, target)


actions.extension = _handle
