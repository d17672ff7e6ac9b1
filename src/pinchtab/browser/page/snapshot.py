"""Accessibility snapshot: the walker in ``snapshot.js`` -> ``Node`` records, each given its
element's ref by the tab's ``RefCache`` (``refs.py``).

Roles and names are Chromium's own (``computedRole``/``computedName``); each node keeps the
backend DOM node id that actions resolve later. One ``Runtime.callFunctionOn`` in the isolated
world returns the node records as one JSON string plus the DOM nodes serialised "deep", which is
how Chromium hands over their backend ids without a round trip per node.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from pinchtab.browser.page import changes, framewalk, node_ids
from pinchtab.browser.page.node_ids import NodeIds
from pinchtab.browser.page.selectors import parse_selector, pick
from pinchtab.errors import BadRequest, NotFound

WALKER_JS = resources.files("pinchtab.browser.page").joinpath("snapshot.js").read_text()

INTERACTIVE_ROLES = frozenset(
    "button link textbox searchbox checkbox radio combobox listbox menuitem menuitemcheckbox "
    "menuitemradio option slider spinbutton switch tab treeitem clickable".split()
)

_SERIALIZATION = {
    "serialization": "deep",
    "maxDepth": 2,
    "additionalParameters": {"maxNodeDepth": 0, "includeShadowTree": "none"},
}


@dataclass(slots=True)
class Node:
    ref: str
    role: str
    name: str
    depth: int
    backend_id: int | None
    scope: str = ""                # CDP session of the node's frame target ("" = the tab's own)
    value: str | None = None
    focused: bool = False
    disabled: bool = False
    checked: bool | str | None = None
    pressed: bool | None = None
    expanded: bool | None = None
    selected: bool = False
    required: bool = False
    placeholder: str | None = None
    description: str | None = None
    section: str | None = None
    parent: str | None = None
    heading: str | None = None
    item: str | None = None        # text of the repeated item (mail row, comment, card) around it
    input_type: str | None = None  # type of a typed <input> (date, email, password...)
    modal: bool = False            # a modal dialog (aria-modal or <dialog> opened with showModal)
    # Frames (framewalk.py): on an iframe owner, its frame ({"id", "url", "name"}) and whether its
    # document had to be walked in its own context (another origin); on a node walked that way,
    # the frame it was walked in and that frame's owner node.
    testid: str | None = None       # data-testid
    titled: bool = False             # its name is its title attribute
    icon: bool = False               # named, but shows no word of its own (a glyph, an svg)
    frame: dict[str, str] | None = None
    foreign: bool = False
    frame_id: str | None = None
    owner: Node | None = None

    @property
    def interactive(self) -> bool:
        return self.role in INTERACTIVE_ROLES

    def to_json(self) -> dict[str, Any]:
        """The API shape of a node (``nodeId`` is the backend DOM node id)."""
        out: dict[str, Any] = {"ref": self.ref, "role": self.role, "name": self.name}
        if self.value is not None:
            out["value"] = self.value
        out["depth"] = self.depth
        if self.focused:
            out["focused"] = True
        if self.disabled:
            out["disabled"] = True
        if self.checked is not None:
            out["checked"] = self.checked
        if self.pressed is not None:
            out["pressed"] = self.pressed
        if self.expanded is not None:
            out["expanded"] = self.expanded
        if self.selected:
            out["selected"] = True
        if self.required:
            out["required"] = True
        if self.placeholder:
            out["placeholder"] = self.placeholder
        out["nodeId"] = self.backend_id
        if self.frame is not None:
            out["childFrameId"] = self.frame.get("id", "")
            out["childFrameUrl"] = self.frame.get("url", "")
            if self.frame.get("name"):
                out["childFrameName"] = self.frame["name"]
        return out

    def to_element(self) -> dict[str, Any]:
        """The element dict ``pinchtab.find`` matches against."""
        el: dict[str, Any] = {"ref": self.ref, "role": self.role, "name": self.name,
                              "interactive": self.interactive, "depth": self.depth}
        for key in ("value", "placeholder", "description", "section", "parent", "heading", "item"):
            v = getattr(self, key)
            if v:
                el[key] = v
        if self.input_type:
            el["type"] = self.input_type
        if self.checked is not None:
            el["checked"] = self.checked
        if self.expanded is not None:
            el["expanded"] = self.expanded
        if self.disabled:
            el["disabled"] = True
        if self.modal:
            el["modal"] = True
        if self.testid:
            el["testid"] = self.testid
        if self.titled:
            el["titled"] = True
        if self.icon:
            el["icon"] = True
        return el

    def state(self) -> tuple[Any, ...]:
        """What a diff compares for the same DOM node."""
        return (self.role, self.name, self.value, self.checked, self.pressed, self.expanded,
                self.selected, self.disabled, self.focused)


@dataclass
class Snapshot:
    url: str
    title: str
    nodes: list[Node]
    interactive_only: bool = False
    selector: str | None = None
    depth: int | None = None
    document: int = 0  # Tab.document when taken
    frame_id: str | None = None  # the frame scope it was taken in (frames.py), None for the page
    signal: tuple[Any, ...] | None = None  # changes.py's change signal when taken
    taken_at: float = field(default_factory=time.monotonic)

    def __len__(self) -> int:
        return len(self.nodes)

    @property
    def whole_page(self) -> bool:
        """Every node of the page: what find matches against."""
        return not self.interactive_only and self.selector is None and self.depth is None and self.frame_id is None


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
    args: dict[str, Any] = {"interactive": interactive, "selector": None, "depth": depth}
    if element is not None:
        await _keep_picked(tab, scoped, element, selector or "")
        args["picked"] = True
    elif selector is not None:
        sel = parse_selector(selector)
        if sel.kind not in ("css", "xpath", "text"):
            raise BadRequest(f"snapshot selector {selector!r} must be resolved to an element first", "bad_selector")
        await pick(tab, sel, selector)
        args["picked"] = True
    walk = framewalk.FrameWalk(interactive, depth, _walk_frame, parse_walker_result)
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
    tab.refs.identify(nodes, tab.generations())
    return Snapshot(url=page.get("url", ""), title=page.get("title", ""), nodes=nodes,
                    interactive_only=interactive, selector=selector, depth=depth, document=tab.document,
                    signal=changes.signal_of(tab, world, page.get("mut"), walk.foreign),
                    frame_id=scoped.frame_id if scoped else None)
