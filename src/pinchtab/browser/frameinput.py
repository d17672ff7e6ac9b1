"""Pointer input into frames of another origin: a point in a frame's viewport -> the page's.

A script inside a cross-origin frame cannot read its ``frameElement``, so ``POINT_JS`` (actions.py)
stops at the frame's edge and says so (``top: false``). The frame's owner element, reached through
the node's ``owner`` (framewalk.py), then adds where the frame's content box sits in its own
document (scrolling the frame into view when the point is outside it), checks that nothing covers
the point there, and climbs same-origin frames above it; across each further origin boundary
the same step repeats with that frame's owner. ``Input.dispatchMouseEvent`` on the tab's session
then reaches the frame, in or out of process, by hit testing.

That hit testing runs in the browser on what each frame's compositor last drew: a frame that
just loaded in its own process may not have drawn yet, and a click sent then lands on the page
beneath it. So the first input into each out-of-process document waits for it to draw twice
(``wait_drawn``), at most ``DRAW_WAIT_MS``; a throttled frame that never draws costs that once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pinchtab.browser.page.nodes import Node
    from pinchtab.browser.core.tab import Tab

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
