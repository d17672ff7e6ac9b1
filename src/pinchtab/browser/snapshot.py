"""Accessibility snapshot: the walker in ``snapshot.js`` -> ``Node`` records with refs e0..eN.

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

from pinchtab.browser import node_ids
from pinchtab.browser.node_ids import NodeIds
from pinchtab.errors import BadRequest, NotFound, PageScriptError

WALKER_JS = resources.files("pinchtab.browser").joinpath("snapshot.js").read_text()

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
    document: int = 0  # Tab.document when taken
    taken_at: float = field(default_factory=time.monotonic)

    def __len__(self) -> int:
        return len(self.nodes)


def _node(i: int, rec: dict[str, Any], backend_id: int | None) -> Node:
    return Node(
        ref=f"e{i}",
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
    return page, [_node(i, rec, backends[i]) for i, rec in enumerate(records)]


async def capture(tab: Any, *, interactive: bool = False, selector: str | None = None,
                  depth: int | None = None) -> Snapshot:
    """Walk the tab's page (same-origin iframes and open shadow roots included)."""
    ids = node_ids.of(tab)
    for attempt in (1, 2):
        args = {"interactive": interactive, "selector": selector, "depth": depth, "ids": ids.args()}
        try:
            result = await tab.call_in_world(WALKER_JS, args, serialization=_SERIALIZATION)
        except PageScriptError as exc:
            if selector and ("SyntaxError" in exc.message or "not a valid selector" in exc.message):
                raise BadRequest(f"invalid CSS selector {selector!r}", "bad_selector") from exc
            raise
        try:
            page, nodes = parse_walker_result(result, ids)
            break
        except KeyError:  # a node numbered in a walk whose answer never arrived: serialise all again
            ids.reset()
            if attempt == 2:
                raise
    if page.get("missing"):
        raise NotFound(f"no element matches selector {selector!r}", "selector_not_found")
    return Snapshot(url=page.get("url", ""), title=page.get("title", ""), nodes=nodes,
                    interactive_only=interactive, selector=selector, document=tab.document)
