"""Accessibility snapshot: the walker in ``snapshot.js`` -> ``Node`` records, each given its
element's ref by the tab's ``RefCache`` (``refs.py``).

Roles and names are Chromium's own (``computedRole``/``computedName``); each node keeps the
backend DOM node id that actions resolve later. One ``Runtime.callFunctionOn`` in the isolated
world returns the node records as one JSON string plus the DOM nodes serialised "deep", which is
how Chromium hands over their backend ids without a round trip per node.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from pinchtab.browser.page import changes, framewalk, node_ids
from pinchtab.browser.page.node_ids import NodeIds
from pinchtab.browser.page.nodes import Node, Snapshot
from pinchtab.browser.page.selectors import parse_selector, pick
from pinchtab.errors import BadRequest, NotFound

_PAGE = resources.files("pinchtab.browser.page")
# the walker, with its naming helpers put in at their @include line (one function, one scope)
WALKER_JS = _PAGE.joinpath("snapshot.js").read_text().replace(
    "/* @include snapshot_names.js */", _PAGE.joinpath("snapshot_names.js").read_text(), 1)

_SERIALIZATION = {
    "serialization": "deep",
    "maxDepth": 2,
    "additionalParameters": {"maxNodeDepth": 0, "includeShadowTree": "none"},
}


def _node(rec: dict[str, Any], backend_id: int | None) -> Node:
    return Node(
        ref="",
        role=rec["r"],
        name=rec["n"],
        depth=rec["d"],
        backend_id=backend_id,
        value=rec.get("v"),
        focused=rec.get("f", False),
        disabled=rec.get("x", False),
        checked=rec.get("c"),
        pressed=rec.get("pr"),
        expanded=rec.get("e"),
        selected=rec.get("sl", False),
        required=rec.get("rq", False),
        placeholder=rec.get("ph"),
        label=rec.get("lb"),
        holds=rec.get("hc"),
        column=rec.get("co"),
        description=rec.get("t"),
        section=rec.get("s"),
        parent=rec.get("p"),
        heading=rec.get("h"),
        item=rec.get("i"),
        input_type=rec.get("ty"),
        modal=rec.get("m", False),
        testid=rec.get("ti"),
        titled=bool(rec.get("tn")),
        icon=bool(rec.get("ic")),
        frame={} if rec.get("fo") else None,
        foreign=bool(rec.get("fx")),
    )


def parse_walker_result(result: dict[str, Any], ids: NodeIds | None = None) -> tuple[dict[str, Any], list[Node]]:
    """Turn the deep-serialised ``[json, nodes]`` pair into page info and ``Node`` records. With
    ``ids`` (the walker was given ``ids.args()``), nodes it did not serialise get their backend id
    from that table (KeyError if it lacks one)."""
    value = result.get("deepSerializedValue", {}).get("value")
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError("unexpected snapshot walker result")
    page = json.loads(value[0].get("value") or "{}")
    records = page.pop("nodes", None) or []
    backends = [(d.get("value") or {}).get("backendNodeId") for d in value[1].get("value") or []]
    if ids is not None and "k" in page:
        backends = ids.resolve(page, len(records), backends)
    backends += [None] * (len(records) - len(backends))
    return page, [_node(rec, backends[i]) for i, rec in enumerate(records)]


async def _walk_frame(tab: Any, scope: str, frame_id: str, args: dict[str, Any]) -> dict[str, Any]:
    return await tab.frames.call(scope, frame_id, WALKER_JS, args, serialization=_SERIALIZATION)


_KEEP_PICKED = "function () { globalThis.__pinchtabPicked = this; return true; }"


async def _keep_picked(tab: Any, scoped: Any, element: Any, raw: str) -> None:
    """Hand the walker ``element`` as its root, in the world the walk runs in."""
    here = (scoped.scope, scoped.frame_id) if scoped is not None else ("", None)
    if (element.scope or "", element.frame_id or None) != here:
        raise BadRequest(f"selector {raw!r} picks an element in another frame: scope the snapshot to that frame "
                         "first (POST /frame)", "selector_other_frame")
    await tab.call_on_node(element.backend_id, _KEEP_PICKED, scope=element.scope, frame_id=element.frame_id)


async def _walk_main(tab: Any, args: dict[str, Any]) -> tuple[dict[str, Any], list[Node]]:
    """The walk of the tab's main world, serialising only DOM nodes the tab has no backend id
    for yet (node_ids.py); frames' walks (framewalk.py) serialise all theirs."""
    ids = node_ids.of(tab)
    for attempt in (1, 2):
        result = await tab.call_in_world(WALKER_JS, {**args, "ids": ids.args()}, serialization=_SERIALIZATION)
        try:
            return parse_walker_result(result, ids)
        except KeyError:  # a node numbered in a walk whose answer never arrived: serialise all again
            ids.reset()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def capture(tab: Any, *, interactive: bool = False, selector: str | None = None,
                  depth: int | None = None, whole: bool = False, element: Any = None) -> Snapshot:
    """Walk the tab's page (or its frame scope, frames.py): open shadow roots and frames of every
    origin included. ``selector`` (CSS, XPath or text: selectors.py) walks one element's subtree;
    ``whole`` walks the whole page whatever the frame scope (find's snapshot). ``element`` (a
    refs.Node that a ref or a role:/label:/... selector resolved to) walks that element's subtree."""
    scoped = None if whole else tab.frames.current
    max_nodes = tab.refs.max_nodes
    args: dict[str, Any] = {"interactive": interactive, "selector": None, "depth": depth, "maxNodes": max_nodes}
    if element is not None:
        await _keep_picked(tab, scoped, element, selector or "")
        args["picked"] = True
    elif selector is not None:
        sel = parse_selector(selector)
        if sel.kind not in ("css", "xpath", "text"):
            raise BadRequest(f"snapshot selector {selector!r} must be resolved to an element first", "bad_selector")
        await pick(tab, sel, selector)
        args["picked"] = True
    walk = framewalk.FrameWalk(interactive, depth, _walk_frame, parse_walker_result, max_nodes)
    if selector is None and scoped is None:
        framewalk.prefetch(tab, walk)
    try:
        if scoped is None:
            page, nodes = await _walk_main(tab, args)
        else:
            page, nodes = parse_walker_result(await _walk_frame(tab, scoped.scope, scoped.frame_id, args))
        if page.get("missing"):
            raise NotFound(f"no element matches selector {selector!r}", "selector_not_found")
        world = tab.world_id
        if scoped is not None:
            nodes = await framewalk.expand(tab, nodes, walk, scope=scoped.scope, frame_id=scoped.frame_id,
                                           owner=scoped.owner)
        elif any(n.frame is not None for n in nodes):
            nodes = await framewalk.expand(tab, nodes, walk)
    finally:
        await framewalk.drain(walk)
    capped = bool(page.get("capped")) or walk.capped or len(nodes) > max_nodes
    del nodes[max_nodes:]  # the page's own walk and its frames' each stop at the cap; together too
    tab.refs.identify(nodes, tab.generations())
    return Snapshot(url=page.get("url", ""), title=page.get("title", ""), nodes=nodes,
                    interactive_only=interactive, selector=selector, depth=depth, document=tab.document,
                    signal=changes.signal_of(tab, world, page.get("mut"), walk.foreign),
                    frame_id=scoped.frame_id if scoped else None, capped=max_nodes if capped else None)
