"""What an action acts on: a ref, a CSS selector, a point, or (for kinds that allow it) the page.

The kind's declaration (``ActionKindSpec.target``) says which: "element" needs a ref or selector,
"point" also takes x and y, "optional" acts on the page, the focus or the pointer without one.
Functions run on the target's node answer ``{stale: true}`` or ``{disabled: true}`` when the page
changed under the ref; a node that is gone raises ``StaleRef``, which ``perform`` recovers from once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pinchtab.browser.page import targets
from pinchtab.browser.page.refs import StaleRef
from pinchtab.cdp import CDPError
from pinchtab.cdp.errors import classify_error
from pinchtab.errors import BadRequest, Conflict
from pinchtab.models import ACTION_SPECS_BY_NAME, ActionRequest

if TYPE_CHECKING:
    from pinchtab.browser.page.nodes import Node
    from pinchtab.browser.core.tab import Tab


@dataclass(frozen=True)
class Target:
    backend_id: int | None
    label: str
    x: float | None = None
    y: float | None = None
    node: Node | None = None  # a ref's node: where it lives (frames.py scope, frame, owner)


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


async def resolve_target(tab: "Tab", spec: ActionRequest) -> Target:
    if spec.ref:
        node = tab.refs.entry(spec.ref, tab.generations()).node
        label = f'{spec.ref} ({node.role} "{node.name[:40]}")' if node.name else f"{spec.ref} ({node.role})"
        return Target(node.backend_id, label, node=node)
    if spec.selector:  # PinchTab's unified selectors, in the tab's frame scope (targets.py)
        node = await targets.resolve(tab, spec.selector)
        label = f"{node.ref} ({spec.selector!r})" if node.ref else repr(spec.selector)
        return Target(node.backend_id, label, node=node)
    needs = ACTION_SPECS_BY_NAME[spec.kind].target
    if spec.x is not None and spec.y is not None:
        if needs == "element":
            raise BadRequest(f"{spec.kind} needs a ref or selector, not coordinates", "missing_target")
        await _check_in_viewport(tab, spec.x, spec.y)
        return Target(None, f"({spec.x:g}, {spec.y:g})", spec.x, spec.y)
    if needs == "optional":
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


async def on_node(tab: "Tab", target: Target, function: str, *args: Any) -> dict[str, Any]:
    """Call ``function`` with ``this`` = the target's node, in the frame and scope it lives in."""
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


async def focus_target(tab: "Tab", target: Target) -> None:
    await on_node(tab, target, FOCUS_JS)
