"""PinchTab's frame scope (``GET|POST /frame``): which frame selector-based actions, ``/snapshot``
and ``/text`` work in. A target is ``main``, an iframe's ref, a selector of an iframe (in the
current scope, so nested frames are reached hop by hop), a frame id, or a frame's name or URL.
Frames of every origin can be scoped (PinchTab refuses cross-origin ones)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.browser.page import targets
from pinchtab.browser.page.frames import FrameScope
from pinchtab.browser.page.selectors import parse_selector
from pinchtab.browser.page.nodes import Node
from pinchtab.errors import BadRequest, PinchtabError

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page


def describe(tab: "Page") -> dict[str, Any]:
    """The answer of GET and POST /frame."""
    cur = tab.frames.current
    if cur is None:
        return {"tabId": tab.id, "scoped": False, "target": "main", "current": "main"}
    scope = cur.to_json()
    return {"tabId": tab.id, "scoped": True, "target": cur.frame_id, "current": scope, "frame": scope}


async def set_scope(tab: "Page", target: str) -> dict[str, Any]:
    target = target.strip()
    if not target:
        raise BadRequest("missing required field 'target' (an iframe selector or ref, a frame id, name or URL, or main)",
                         "missing_target")
    if target.lower() == "main":
        tab.frames.set_scope(None)
        return describe(tab)
    owner, frame_id = await _owner_of(tab, target)
    scope = tab.frames.scope_of_frame(frame_id, owner.scope)
    info = (await tab.frames.frame_tree(scope)).get(frame_id, {})
    if info.get("url", "").startswith("chrome-error:"):
        raise BadRequest(f"frame {target!r} did not load its page (a network or blocking error): nothing to scope to",
                         "frame_not_loaded")
    tab.frames.set_scope(FrameScope(frame_id, scope, info.get("url", ""), info.get("name", ""), owner, tab.document))
    return describe(tab)


async def _owner_of(tab: "Page", target: str) -> tuple[Node, str]:
    """The iframe element ``target`` names and the frame it holds."""
    sel = parse_selector(target)
    if sel.kind == "ref":
        node = tab.refs.entry(sel.value, tab.generations()).node
        if node.frame is None or not node.frame.get("id"):
            raise BadRequest(f"ref {sel.value} is not an iframe owner; pass an iframe ref, a CSS selector, "
                             "or the frame URL/name", "not_a_frame")
        return node, node.frame["id"]
    try:
        node = await targets.resolve(tab, target)
    except PinchtabError:
        node = None
    if node is not None and node.backend_id is not None:
        frame_id = (await tab.frames.frame_ids(node.scope, [node.backend_id]))[0]
        if frame_id:
            return node, frame_id
    owner = await _owner_by_frame(tab, target)
    if owner is not None:
        return owner
    raise BadRequest(f"frame target {target!r} did not resolve to an iframe or frame", "frame_not_found")


async def _owner_by_frame(tab: "Page", target: str) -> tuple[Node, str] | None:
    """A frame whose id, name or URL is ``target`` (or whose URL contains it): its owner in the
    tab's whole-page snapshot (taken when it has none or the page changed)."""
    from pinchtab.browser.page.tab_find import current_snapshot

    snap = await current_snapshot(tab)
    owners = [n for n in snap.nodes if n.frame and n.frame.get("id")]
    for test in (lambda f: f["id"] == target, lambda f: f.get("name") == target or f.get("url") == target,
                 lambda f: target in f.get("url", "")):
        hits = [n for n in owners if test(n.frame)]
        if len(hits) > 1:
            raise BadRequest(f"frame target {target!r} matches {len(hits)} frames; pass one's ref or id", "ambiguous_frame")
        if hits:
            return hits[0], hits[0].frame["id"]  # type: ignore[index]
    return None
