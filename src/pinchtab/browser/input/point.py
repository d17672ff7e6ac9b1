"""Where pointer input lands: a target's visible centre in the top page's viewport.

``POINT_JS`` scrolls the element into view when something hides it, takes the centre of its
visible part and checks that nothing covers that point (``point`` refuses a covered target with
``Occluded``; ``center``, for the low-level pointer, takes it anyway), then climbs same-origin frames.

A script inside a cross-origin frame cannot read its ``frameElement``, so ``POINT_JS`` stops at the
frame's edge and says so (``top: false``). The frame's owner element, reached through the node's
``owner`` (framewalk.py), then adds where the frame's content box sits in its own document
(scrolling the frame into view when the point is outside it), checks that nothing covers the point
there, and climbs same-origin frames above it; across each further origin boundary the same step
repeats with that frame's owner. ``Input.dispatchMouseEvent`` on the tab's session then reaches the
frame, in or out of process, by hit testing.

That hit testing runs in the browser on what each frame's compositor last drew: a frame that
just loaded in its own process may not have drawn yet, and a click sent then lands on the page
beneath it. So the first input into each out-of-process document waits for it to draw twice
(``wait_drawn``), at most ``DRAW_WAIT_MS``; a throttled frame that never draws costs that once.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from pinchtab.browser.input.target import Target, on_node
from pinchtab.errors import BrowserError, Conflict

if TYPE_CHECKING:
    from pinchtab.browser.page.nodes import Node
    from pinchtab.browser.core.tab import Tab

# `this` is the target node. Scrolls it into view when needed, then answers its visible centre in
# top-frame viewport coordinates and whether another element covers that point.
POINT_JS = r"""function (checkDisabled, checkMoving) {
  const MOVES = /^(transform|translate|scale|rotate|left|top|right|bottom|inset|margin|width|height|all)/i;
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
  // Moving: a finite animation or transition of where it is drawn runs on it or an ancestor
  // (a panel sliding in); a click now would land where it no longer is.
  if (checkMoving) {
    for (const a of el.ownerDocument.getAnimations()) {
      const t = a.effect && a.effect.target;
      if (a.playState !== 'running' || !t || !(t === el || t.contains(el))) continue;
      const timing = a.effect.getComputedTiming();
      if (timing.iterations === Infinity) continue;
      const props = a.transitionProperty ? [a.transitionProperty] : a.effect.getKeyframes().flatMap(Object.keys);
      if (props.some(p => MOVES.test(p))) return { moving: true };
    }
  }
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
  // A text field an editor or a dropdown draws over with its own face (CodeMirror 5's textarea
  // under its lines, Select2's focus input under its choice): the cover lies within a few levels
  // of the field's ancestors (never the page's body), and a click there reaches the same widget.
  const ENTRY = /^(text|search|email|url|tel|password|number)$/;
  if (!ok && hit && (el.localName === 'textarea' || el.isContentEditable || (el.localName === 'input' && ENTRY.test(el.type)))) {
    const doc = el.ownerDocument;
    for (let a = el.parentElement, i = 0; a && i < 3 && a !== doc.body && a !== doc.documentElement; a = a.parentElement, i++) {
      if (a.contains(hit)) { ok = true; break; }
    }
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

# `this` is the iframe element; (x, y) a point in its content's viewport.
FRAME_POINT_JS = r"""function (x, y) {
  const describe = (h) => h.localName + (h.id ? '#' + h.id : '');
  const offset = (fe) => {
    const fr = fe.getBoundingClientRect();
    const cs = fe.ownerDocument.defaultView.getComputedStyle(fe);
    return [fr.left + fe.clientLeft + parseFloat(cs.paddingLeft), fr.top + fe.clientTop + parseFloat(cs.paddingTop)];
  };
  const fe = this;
  const win = fe.ownerDocument.defaultView;
  let [dx, dy] = offset(fe);
  if (x + dx < 0 || y + dy < 0 || x + dx > win.innerWidth || y + dy > win.innerHeight) {
    fe.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    [dx, dy] = offset(fe);
  }
  x += dx; y += dy;
  let w = win, el = fe, ok = true, by = '';
  for (;;) {
    const root = el.getRootNode();
    const hit = (root.elementFromPoint ? root : el.ownerDocument).elementFromPoint(x, y);
    if (hit !== el) { ok = false; by = hit ? describe(hit) : 'the edge of the frame'; break; }
    if (w === w.top) break;
    let up = null;
    try { up = w.frameElement; } catch (e) { up = null; }
    if (!up) break;
    const [ox, oy] = offset(up);
    x += ox; y += oy; el = up; w = w.parent;
  }
  return { x, y, occluded: !ok, by, top: w === w.top };
}"""


DRAW_WAIT_MS = 150

ACTIONABILITY_POLL_S = 0.05
# POINT_JS answers that may change by themselves soon
_NOT_YET = ("occluded", "invisible", "offscreen", "moving")

# `this` is any node of the frame; resolves once the frame has drawn twice or after `ms`.
DRAWN_JS = r"""function (ms) {
  return new Promise((resolve) => {
    const done = () => resolve(true);
    requestAnimationFrame(() => requestAnimationFrame(done));
    setTimeout(done, ms);
  });
}"""


async def wait_drawn(tab: "Tab", node: "Node") -> None:
    """Before the first input into an out-of-process document (``node``'s or an owner's): wait
    until it has drawn, so the browser's hit testing knows where it is."""
    n: "Node | None" = node
    while n is not None:
        target = tab.frames.targets.get(n.scope) if n.scope else None
        if target is not None and target.drawn_generation != target.generation and n.backend_id is not None:
            await tab.call_on_node(n.backend_id, DRAWN_JS, DRAW_WAIT_MS, scope=n.scope, frame_id=n.frame_id)
            target.drawn_generation = target.generation
        n = n.owner


class FrameOccluded(Exception):
    def __init__(self, by: str) -> None:
        super().__init__(by)
        self.by = by


async def lift_point(tab: "Tab", node: "Node", x: float, y: float) -> tuple[float, float]:
    """(x, y) in ``node``'s frame -> the top page's viewport, through its owners' frames."""
    owner = node.owner
    while owner is not None:
        assert owner.backend_id is not None
        res = await tab.call_on_node(owner.backend_id, FRAME_POINT_JS, x, y, scope=owner.scope, frame_id=owner.frame_id)
        if res.get("occluded"):
            raise FrameOccluded(res.get("by") or "")
        x, y = res["x"], res["y"]
        if res.get("top"):
            break
        owner = owner.owner
    return x, y


class Occluded(BrowserError):
    default_code = "element_occluded"


async def actionable(tab: "Tab", target: Target, *, check_disabled: bool) -> dict[str, Any]:
    """``POINT_JS``'s answer once the target can take the click: visible, in view, still, not
    covered and (when asked) enabled. While it is not - an overlay closing over it, a panel sliding
    in, a button enabled by a script - it is asked again for up to the tab's actionability wait
    (``browser.actionabilityWaitMs``); then the last answer stands and ``point`` says why."""
    deadline = time.monotonic() + tab.actionability_wait_s
    while True:
        try:
            res = await on_node(tab, target, POINT_JS, check_disabled, True)
        except Conflict as exc:
            if exc.code != "element_disabled" or time.monotonic() >= deadline:
                raise
        else:
            if not any(res.get(k) for k in _NOT_YET) or time.monotonic() >= deadline:
                return res
        await asyncio.sleep(ACTIONABILITY_POLL_S)


async def point(tab: "Tab", target: Target, *, check_disabled: bool) -> tuple[float, float]:
    """Where a click on the target lands; a covered, invisible or (when asked) disabled one is
    refused once ``actionable`` has waited for it."""
    if target.backend_id is None:
        assert target.x is not None and target.y is not None
        return target.x, target.y
    res = await actionable(tab, target, check_disabled=check_disabled)
    if res.get("moving"):
        raise Conflict(f"element {target.label} is still moving (an animation of where it is drawn); "
                       "wait for it to end and retry", "element_moving")
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


async def center(tab: "Tab", target: Target) -> tuple[float, float]:
    """The target's visible centre (scrolled into view when needed); a covered target is fine here."""
    if target.backend_id is None:
        assert target.x is not None and target.y is not None
        return target.x, target.y
    res = await on_node(tab, target, POINT_JS, False)
    if res.get("invisible") or res.get("offscreen"):
        raise Conflict(f"element {target.label} is not visible (it has no size on screen)", "element_not_visible")
    return res["x"], res["y"]
