"""What a snapshot is made of: ``Node`` records (one per element the walker in ``snapshot.js``
kept) and the ``Snapshot`` holding them. Plain data, imported by everything that reads a page."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

INTERACTIVE_ROLES = frozenset(
    "button link textbox searchbox checkbox radio combobox listbox menuitem menuitemcheckbox "
    "menuitemradio option slider spinbutton switch tab treeitem clickable".split()
)


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
    label: str | None = None        # the caption a person reads beside it, when not its name
    holds: str | None = None        # collapsed: the words of what it hides (find reads them as its text)
    column: str | None = None       # a table cell's (or a control in it) column header
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
        for key in ("value", "placeholder", "label", "description", "section", "parent", "heading", "item", "column"):
            v = getattr(self, key)
            if v:
                el[key] = v
        if self.holds:
            el["text"] = self.holds
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
    # the node cap (browser.maxSnapshotNodes) when the page had more nodes than it: the walk
    # stopped there, so the nodes are the page's first ones in document order
    capped: int | None = None
    taken_at: float = field(default_factory=time.monotonic)

    def __len__(self) -> int:
        return len(self.nodes)

    @property
    def whole_page(self) -> bool:
        """Every node of the page: what find matches against."""
        return not self.interactive_only and self.selector is None and self.depth is None and self.frame_id is None
