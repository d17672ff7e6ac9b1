"""Actions on a tab by ref, CSS selector or coordinates, with real input events.

A click scrolls the element into view, checks that nothing covers its visible centre, then sends
mouse events there through ``Input.dispatchMouseEvent``. A ref whose node is gone raises
``StaleRef``; the caller (``perform``) tries find's intent recovery once before giving up.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from pinchtab.browser.page import targets
from pinchtab.browser.frameinput import DRAW_WAIT_MS, DRAWN_JS, FrameOccluded, lift_point, wait_drawn
from pinchtab.browser.keys import char_key, key_events, parse_combo
from pinchtab.browser.page.refs import StaleRef
from pinchtab.cdp import CDPError
from pinchtab.cdp.errors import classify_error
from pinchtab.errors import BadRequest, BrowserError, Conflict, Timeout
from pinchtab.models import ActionRequest

if TYPE_CHECKING:
    from pinchtab.browser.page.nodes import Node
    from pinchtab.browser.core.tab import Tab

POINTER_KINDS = {"click", "dblclick", "hover"}
NEEDS_ELEMENT = {"type", "fill", "focus", "select", "check", "uncheck", "scrollintoview"}
# Low-level input kinds and click modes (mode=dom|dispatch) are done by pinchtab.browser.input_actions,
# which installs its handler here when imported (it builds on this module).
EXTENDED_KINDS = {"mouse-move", "mouse-down", "mouse-up", "mouse-wheel", "drag", "keydown", "keyup", "keyboard-type",
                  "keyboard-inserttext"}
extension: "Callable[[Tab, ActionRequest, Target], Awaitable[dict[str, Any] | None]] | None" = None
# Kinds that act on the page, the focus or the pointer when no target is given.
TARGETLESS = {"press", "scroll", "mouse-down", "mouse-up", "mouse-wheel", "keydown", "keyup", "keyboard-type",
              "keyboard-inserttext"}
DEFAULT_SCROLL = 300
# Longer typed text is inserted in one step (Input.insertText: one input event, no key events).
TYPE_KEYS_MAX = 256
INPUT_TIMEOUT_S = 10.0


class Occluded(BrowserError):
    default_code = "element_occluded"


@dataclass(frozen=True)
class Target:
    backend_id: int | None
    label: str
    x: float | None = None
    y: float | None = None
    node: Node | None = None  # a ref's node: where it lives (frames.py scope, frame, owner)


# `this` is the target node. Scrolls it into view when needed, then answers its visible centre in
# top-frame viewport coordinates and whether another element covers that point.
POINT_JS = r"""function (checkDisabled) {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el || !el.isConnected) return { stale: true };
  if (checkDisabled && (el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true')) return { disabled: true };
  const win = el.ownerDocument.defaultView;
  // Scroll only when something hides part of the element: its viewport, an overflow container
  // that clips it, or (inside frames) the same for each frame element up to the top. 'instant'
  // also overrides a page's smooth scroll-behavior, which would move it after we measured.
  const outside = (e) => {
    const r = e.getBoundingClientRect(), v = e.ownerDocument.defaultView;
    if (r.top < 0 || r.left < 0 || r.bottom > v.innerHeight || r.right > v.innerWidth) return true;
    for (let a = e.parentElement || e.getRootNode().host; a; a = a.parentElement || a.getRootNode().host) {
      const cs = v.getComputedStyle(a);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      const c = a.getBoundingClientRect();
      if (r.top < c.top || r.left < c.left || r.bottom > c.bottom || r.right > c.right) return true;
    }
    return false;
  };
  let hidden = outside(el);
  for (let w = win; !hidden && w !== w.top;) {
    let fe = null;
    try { fe = w.frameElement; } catch (e) { fe = null; }
    if (!fe) break;
    hidden = outside(fe);
    w = w.parent;
  }
  if (hidden) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const rects = [...el.getClientRects()].filter(r => r.width > 0 && r.height > 0);
  if (!rects.length) return { invisible: true };
  let r = rects[0];
  const left = Math.max(r.left, 0), right = Math.min(r.right, win.innerWidth);
  const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, win.innerHeight);
  if (right <= left || bottom <= top) return { offscreen: true };
  const cx = (left + right) / 2, cy = (top + bottom) / 2;
  const root = el.getRootNode();
  const hit = (root.elementFromPoint ? root : el.ownerDocument).elementFromPoint(cx, cy);
  let ok = !!hit && (hit === el || el.contains(hit));
  if (!ok && hit && el.labels) ok = [...el.labels].some(l => l === hit || l.contains(hit));
  if (!ok && hit) {  // a hit inside el's shadow tree reports its host
    for (let h = hit; h; h = h.parentNode || h.host) { if (h === el) { ok = true; break; } }
  }
  const describe = (h) => {
    let d = h.localName + (h.id ? '#' + h.id : '') +
      (typeof h.className === 'string' && h.className.trim() ? '.' + h.className.trim().split(/\s+/).join('.') : '');
    const t = (h.innerText || '').trim().replace(/\s+/g, ' ');
    if (t) d += ' "' + t.slice(0, 40) + '"';
    return d;
  };
  let by = !ok && hit ? describe(hit) : '';
  // Up through same-origin frames: the frame's content box starts after its border and padding,
  // and the frame itself must not be covered in its parent document.
  let x = cx, y = cy, w = win;
  while (w !== w.top) {
    let fe = null;
    try { fe = w.frameElement; } catch (e) { fe = null; }
    if (!fe) break;
    const fr = fe.getBoundingClientRect();
    const cs = fe.ownerDocument.defaultView.getComputedStyle(fe);
    x += fr.left + fe.clientLeft + parseFloat(cs.paddingLeft);
    y += fr.top + fe.clientTop + parseFloat(cs.paddingTop);
    if (ok) {
      const root = fe.getRootNode();
      const outer = (root.elementFromPoint ? root : fe.ownerDocument).elementFromPoint(x, y);
      if (outer !== fe) { ok = false; by = outer ? describe(outer) : 'the edge of the frame'; }
    }
    w = w.parent;
  }
  return { x, y, occluded: !ok, by, top: w === w.top };
}"""

FOCUS_JS = r"""function () {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el || !el.isConnected) return { stale: true };
  const before = el.getRootNode().activeElement;
  el.focus({ preventScroll: false });
  // A newly focused field types at its end; an already focused one keeps its caret and
  // selection, so that press Control+a, then type, replaces the text.
  try {
    if (before !== el && typeof el.value === 'string' && el.setSelectionRange) el.setSelectionRange(el.value.length, el.value.length);
  } catch (e) {}
  const active = el.getRootNode().activeElement || el.ownerDocument.activeElement;
  return { focused: active === el || el.contains(active) };
}"""

FILL_JS = r"""function (value) {
  const el = this;
  if (!el.isConnected) return { stale: true };
  if (el.matches(':disabled')) return { disabled: true };
  el.focus();
  if (el.isContentEditable) {
    el.textContent = value;
    el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: value }));
    return { value: el.textContent };
  }
  const tag = el.localName;
  if (tag !== 'input' && tag !== 'textarea') return { unfillable: tag };
  if (['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image'].includes(el.type)) return { unfillable: 'input type=' + el.type };
  // The prototype's setter, not the instance's: frameworks like React track the instance value.
  const proto = tag === 'textarea' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { value: el.type === 'password' ? '' : el.value };
}"""

SELECT_JS = r"""function (wanted) {
  const el = this;
  if (!el.isConnected) return { stale: true };
  if (el.localName !== 'select') return { notSelect: el.localName };
  if (el.disabled) return { disabled: true };
  const opts = [...el.options];
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  let opt = opts.find(o => o.value === wanted) || opts.find(o => norm(o.text) === norm(wanted)) ||
    opts.find(o => norm(o.text).toLowerCase() === norm(wanted).toLowerCase());
  if (!opt) return { missing: true, options: opts.slice(0, 30).map(o => o.value === o.text ? o.value : o.value + ' (' + norm(o.text) + ')') };
  el.focus();
  opt.selected = true;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { value: el.value, text: norm(opt.text) };
}"""

CHECKED_JS = r"""function () {
  const el = this;
  if (!el.isConnected) return { stale: true };
  if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return { checked: el.checked, radio: el.type === 'radio' };
  const a = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed');
  if (a === null) return { uncheckable: el.localName };
  return { checked: a === 'true' };
}"""

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

def _check_result(res: Any, target: Target) -> dict[str, Any]:
    if not isinstance(res, dict):
        return {}
    if res.get("stale"):
        raise StaleRef(
            f"ref {target.label} is stale: its element is no longer in the page - take a new /snapshot",
        )
    if res.get("disabled"):
        raise Conflict(f"element {target.label} is disabled", "element_disabled")
    return res


async def resolve_target(tab: "Tab", spec: ActionRequest) -> Target:
    if spec.ref:
        node = tab.refs.entry(spec.ref, tab.generations()).node
        label = f'{spec.ref} ({node.role} "{node.name[:40]}")' if node.name else f"{spec.ref} ({node.role})"
        return Target(node.backend_id, label, node=node)
    if spec.selector:  # PinchTab's unified selectors, in the tab's frame scope (targets.py)
        node = await targets.resolve(tab, spec.selector)
        label = f"{node.ref} ({spec.selector!r})" if node.ref else repr(spec.selector)
        return Target(node.backend_id, label, node=node)
    if spec.x is not None and spec.y is not None:
        if spec.kind in NEEDS_ELEMENT:
            raise BadRequest(f"{spec.kind} needs a ref or selector, not coordinates", "missing_target")
        await _check_in_viewport(tab, spec.x, spec.y)
        return Target(None, f"({spec.x:g}, {spec.y:g})", spec.x, spec.y)
    if spec.kind in TARGETLESS:
        return Target(None, "page")
    raise BadRequest(f"{spec.kind} needs a ref, a selector or x and y", "missing_target")


async def _check_in_viewport(tab: "Tab", x: float, y: float) -> None:
    """A point outside the viewport is refused: Chromium's input pipeline chokes on huge ones."""
    metrics = await tab.send("Page.getLayoutMetrics")
    view = metrics.get("cssLayoutViewport") or metrics.get("layoutViewport") or {}
    width, height = view.get("clientWidth", 0), view.get("clientHeight", 0)
    if not (0 <= x <= width and 0 <= y <= height):
        raise BadRequest(f"point ({x:g}, {y:g}) is outside the viewport ({width}x{height} CSS pixels); "
                         "scroll first or act by ref", "point_outside_viewport")


async def _on_node(tab: "Tab", target: Target, function: str, *args: Any) -> dict[str, Any]:
    assert target.backend_id is not None
    node = target.node
    try:
        if node is not None and (node.scope or node.frame_id):
            res = await tab.call_on_node(target.backend_id, function, *args, scope=node.scope, frame_id=node.frame_id)
        else:
            res = await tab.call_on_node(target.backend_id, function, *args)
    except CDPError as exc:
        kind, _ = classify_error(exc.cdp_message)
        if kind in ("element_not_found", "element_stale") or "does not belong" in exc.cdp_message:
            raise StaleRef(f"ref {target.label} is stale: its element is no longer in the page - take a new /snapshot") from exc
        raise
    return _check_result(res, target)


async def _point(tab: "Tab", target: Target, *, check_disabled: bool) -> tuple[float, float]:
    if target.backend_id is None:
        assert target.x is not None and target.y is not None
        return target.x, target.y
    res = await _on_node(tab, target, POINT_JS, check_disabled)
    if res.get("invisible"):
        raise Conflict(f"element {target.label} is not visible (it has no size on screen)", "element_not_visible")
    if res.get("offscreen"):
        raise Conflict(f"element {target.label} is outside the viewport and cannot be scrolled into view", "element_not_visible")
    if res.get("occluded"):
        by = f" by {res['by']}" if res.get("by") else ""
        raise Occluded(f"element is occluded: {target.label} is covered{by}; close the overlay or scroll first")
    x, y = res["x"], res["y"]
    if not res.get("top", True) and target.node is not None and target.node.owner is not None:
        try:
            x, y = await lift_point(tab, target.node, x, y)
        except FrameOccluded as exc:
            by = f" by {exc.by}" if exc.by else ""
            raise Occluded(f"element is occluded: the frame of {target.label} is covered{by}; close the overlay or scroll first") from None
    if target.node is not None:
        await wait_drawn(tab, target.node)
    return x, y


async def _mouse(tab: "Tab", x: float, y: float, clicks: int) -> None:
    events: list[dict[str, Any]] = [{"type": "mouseMoved", "x": x, "y": y}]
    for count in range(1, clicks + 1):
        events.append({"type": "mousePressed", "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": count})
        events.append({"type": "mouseReleased", "x": x, "y": y, "button": "left", "buttons": 0, "clickCount": count})
    # Chromium handles input events in order; sending them together saves round trips.
    await _dispatch(tab, "Input.dispatchMouseEvent", events)


async def _keys(tab: "Tab", events: list[dict[str, Any]]) -> None:
    await _dispatch(tab, "Input.dispatchKeyEvent", events)


async def _dispatch(tab: "Tab", method: str, events: list[dict[str, Any]]) -> None:
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


async def _focus(tab: "Tab", target: Target) -> None:
    await _on_node(tab, target, FOCUS_JS)


async def _do(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any] | None:
    kind = spec.kind
    if spec.mode or kind in EXTENDED_KINDS:
        if extension is None:
            raise BadRequest(f"action kind {kind!r} is not available", "unknown_kind")
        return await extension(tab, spec, target)
    if kind in ("click", "dblclick"):
        x, y = await _point(tab, target, check_disabled=True)
        await _mouse(tab, x, y, 2 if kind == "dblclick" else 1)
        return None
    if kind == "hover":
        x, y = await _point(tab, target, check_disabled=False)
        await tab.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        return None
    if kind == "focus":
        await _focus(tab, target)
        return None
    if kind == "type":
        text = spec.text if spec.text is not None else spec.value
        if text is None:
            raise BadRequest("type needs text", "missing_text")
        await _focus(tab, target)
        if len(text) > TYPE_KEYS_MAX:
            # Key by key, 10,000 characters took 34 s; one input event takes milliseconds.
            await tab.send("Input.insertText", {"text": text})
            return {"inserted": len(text)}
        events: list[dict[str, Any]] = []
        for ch in text:
            events.extend(key_events(char_key(ch)))
        await _keys(tab, events)
        return None
    if kind == "fill":
        value = spec.value if spec.value is not None else spec.text
        if value is None:
            raise BadRequest("fill needs a value", "missing_value")
        res = await _on_node(tab, target, FILL_JS, value)
        if "unfillable" in res:
            if res["unfillable"] == "select":
                return await _select(tab, target, value)
            raise BadRequest(f"element {target.label} cannot be filled ({res['unfillable']})", "not_fillable")
        return None
    if kind == "select":
        value = spec.value if spec.value is not None else spec.text
        if value is None:
            raise BadRequest("select needs a value (option value or visible text)", "missing_value")
        return await _select(tab, target, value)
    if kind == "press":
        key, modifiers = parse_combo(spec.key or spec.text or "")
        if target.backend_id is not None:
            await _focus(tab, target)
        await _keys(tab, key_events(key, modifiers))
        return None
    if kind == "scroll":
        return await _scroll(tab, spec, target)
    if kind == "scrollintoview":  # PinchTab's kind: the element to the middle of its scrollers
        return await _on_node(tab, target, SCROLL_JS, None, None)
    if kind in ("check", "uncheck"):
        want = kind == "check"
        res = await _on_node(tab, target, CHECKED_JS)
        if "uncheckable" in res:
            raise BadRequest(f"element {target.label} is not a checkbox, radio or switch", "not_checkable")
        if res["checked"] != want:
            if not want and res.get("radio"):
                raise Conflict(f"{target.label} is a radio button: it cannot be unchecked; check another option of its group",
                               "cannot_uncheck_radio")
            for _ in range(2):
                x, y = await _point(tab, target, check_disabled=True)
                await _mouse(tab, x, y, 1)
                res = await _on_node(tab, target, CHECKED_JS)
                if res.get("checked") == want:
                    break
                # A click the browser routed on a stale picture of the page (a frame that moved
                # or had not drawn yet) went elsewhere: once the page has drawn, one more.
                # A page that updates the box a frame later reads right after this wait.
                await _on_node(tab, target, DRAWN_JS, DRAW_WAIT_MS)
                if (await _on_node(tab, target, CHECKED_JS)).get("checked") == want:
                    break
            else:
                raise BrowserError(f"clicking {target.label} did not {kind} it", "check_failed")
        return {"checked": want}
    raise BadRequest(f"unknown action kind {kind!r}", "unknown_kind")


async def _select(tab: "Tab", target: Target, value: str) -> dict[str, Any]:
    res = await _on_node(tab, target, SELECT_JS, value)
    if "notSelect" in res:
        raise BadRequest(
            f"element {target.label} is a <{res['notSelect']}>, not a <select>; click it and then the option",
            "not_a_select",
        )
    if res.get("missing"):
        raise BadRequest(f"no option {value!r} in {target.label}; options: {', '.join(res['options'])}", "option_not_found")
    return {"value": res["value"], "text": res["text"]}


async def _scroll(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
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
        return await _on_node(tab, target, SCROLL_JS, dx, dy)
    if dx is None:
        dx, dy = 0, DEFAULT_SCROLL
    if target.x is not None:
        await tab.send("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": target.x, "y": target.y, "deltaX": dx, "deltaY": dy})
        return {"deltaX": dx, "deltaY": dy}
    return await tab.eval_in_world(PAGE_SCROLL_JS, dx, dy)


async def perform_once(tab: "Tab", spec: ActionRequest, *, timeout_ms: int) -> dict[str, Any]:
    target = await resolve_target(tab, spec)

    async def run() -> dict[str, Any] | None:
        navigation = tab.next_navigation() if spec.wait_nav else None
        try:
            result = await _do(tab, spec, target)
            if navigation is not None:
                await tab.wait_for_navigation(timeout_ms=timeout_ms, started=navigation)
        finally:
            if navigation is not None and not navigation.done():
                navigation.cancel()
        return result

    # A dialog the action opens is answered by dialogAction, else by the tab's policy.
    result, dialog = await tab.dialogs.guard(run, spec.dialog_action, spec.dialog_text)
    out: dict[str, Any] = {"success": True, "kind": spec.kind}
    if spec.ref:
        out["ref"] = spec.ref
    if result:
        out["result"] = result
    if dialog:
        out["dialog"] = dialog
    return out


async def perform(tab: "Tab", spec: ActionRequest, *, timeout_ms: int) -> dict[str, Any]:
    """Run one action; a stale ref is re-found once through the intent cache."""
    try:
        return await perform_once(tab, spec, timeout_ms=timeout_ms)
    except StaleRef as exc:
        if not spec.ref:
            raise
        from pinchtab.browser.page.ref_recovery import recover_ref

        recovery = await recover_ref(tab, spec.ref)
        if recovery is None:
            raise
        if not recovery.get("recovered"):
            raise StaleRef(f"{exc.message}; recovery found no safe match ({recovery.get('reason', '')})") from exc
        out = await perform_once(tab, spec.model_copy(update={"ref": recovery["new_ref"]}), timeout_ms=timeout_ms)
        out["ref"] = recovery["new_ref"]
        out["recovery"] = recovery
        return out
