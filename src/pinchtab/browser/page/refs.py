"""Refs are element identities: a tab's ``RefCache`` gives each element it meets one ref for the
tab's life, and keeps the last snapshots (for diffs) and find's index.

An element is known by where its node lives (the CDP session of its frame target, and that
session's document generation, bumped when its main frame loads a new document, since a new
renderer process numbers its nodes from 1 again) and its backend DOM node id, which Chromium never
gives to another node within one process. The first snapshot or find that meets an element gives
it the next number (``e0``, ``e1``, ...); later snapshots of any kind find the same ref for it;
numbers are never handed out twice, so an old ref can only be stale, never another element.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pinchtab.browser.page.nodes import Node, Snapshot
from pinchtab.errors import NotFound
from pinchtab.models.refs import ref_number

if TYPE_CHECKING:
    from pinchtab.find import ElementIndex

DEFAULT_MAX_REFS = 20000
DEFAULT_MAX_NODES = 10000

# (frame target session id, its document generation, backend DOM node id)
ElementKey = tuple[str, int, int]


class StaleRef(NotFound):
    default_code = "stale_ref"


@dataclass(slots=True)
class RefEntry:
    key: ElementKey | None
    node: Node  # as last seen


class RefCache:
    def __init__(self, max_refs: int = DEFAULT_MAX_REFS, max_nodes: int = DEFAULT_MAX_NODES) -> None:
        self.max_refs = max(int(max_refs), 100)
        self.max_nodes = max(int(max_nodes), 100)  # nodes a snapshot of the tab keeps (snapshot.js)
        self.snapshot: Snapshot | None = None       # the last snapshot of any kind
        self.full: Snapshot | None = None           # the last whole-page snapshot (find matches it)
        # The last snapshot of each kind (filter, selector), which a diff compares against:
        # an interactive diff after a full snapshot must not report every text node as removed.
        self._last_of_kind: dict[tuple[bool, str | None, int | None, str | None], Snapshot] = {}
        self._by_key: dict[ElementKey, str] = {}
        self._entries: OrderedDict[str, RefEntry] = OrderedDict()  # least recently seen first
        self._next = 0
        self._index: ElementIndex | None = None

    # -- identities ---------------------------------------------------------------------------

    def identify(self, nodes: list[Node], generations: dict[str, int]) -> None:
        """Give each node its element's ref (a new one for an element never met before).

        ``generations`` maps a node's scope (session id, "" for the tab's own) to that session's
        current document generation."""
        entries, by_key = self._entries, self._by_key
        for node in nodes:
            if node.backend_id is None:
                key = None
                ref = None
            else:
                key = (node.scope, generations.get(node.scope, 0), node.backend_id)
                ref = by_key.get(key)
            if ref is None:
                ref = f"e{self._next}"
                self._next += 1
                if key is not None:
                    by_key[key] = ref
                entries[ref] = RefEntry(key, node)
            else:
                entry = entries[ref]
                entry.node = node
                entries.move_to_end(ref)
            node.ref = ref
        while len(entries) > self.max_refs:
            _, old = entries.popitem(last=False)
            if old.key is not None:
                by_key.pop(old.key, None)

    def entry(self, ref: str, generations: dict[str, int]) -> RefEntry:
        """The element ``ref`` names; ``StaleRef`` when its document is gone or it was evicted."""
        entry = self._entries.get(ref)
        if entry is None:
            if ref_number(ref) is not None and ref_number(ref) < self._next:
                raise StaleRef(f"ref {ref} is stale: its element has not been seen for a long time "
                               "(the tab's ref table is full) - take a new /snapshot or /find")
            raise NotFound(_not_found(ref, self._next), "ref_not_found")
        if entry.key is not None and generations.get(entry.key[0], -1) != entry.key[1]:
            raise StaleRef(f"ref {ref} is stale: its page or frame has loaded a new document since - "
                           "take a new /snapshot or /find")
        return entry

    def get(self, ref: str) -> Node:
        """The node ``ref`` named when last seen (no check that it is still there)."""
        entry = self._entries.get(ref)
        if entry is None:
            raise NotFound(_not_found(ref, self._next), "ref_not_found")
        return entry.node

    def __contains__(self, ref: str) -> bool:
        return ref in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    # -- snapshots ----------------------------------------------------------------------------

    def replace(self, snapshot: Snapshot) -> Snapshot | None:
        """Record ``snapshot`` (its nodes already identified); answers the previous one of its kind."""
        kind = (snapshot.interactive_only, snapshot.selector, snapshot.depth, snapshot.frame_id)
        previous = self._last_of_kind.get(kind)
        if len(self._last_of_kind) >= 8 and kind not in self._last_of_kind:
            self._last_of_kind.pop(next(iter(self._last_of_kind)))
        self._last_of_kind[kind] = snapshot
        self.snapshot = snapshot
        if snapshot.whole_page:
            self.full = snapshot
            self._index = None
        return previous

    @property
    def index(self) -> "ElementIndex":
        """find's index over the last whole-page snapshot, built once on first use."""
        if self._index is None:
            from pinchtab.find import ElementIndex

            nodes = self.full.nodes if self.full else []
            self._index = ElementIndex([n.to_element() for n in nodes])
        return self._index


def _not_found(ref: str, issued: int) -> str:
    # refs are numbered per tab, and /navigate without tabId opens a new tab: a ref from the
    # tab before is the usual cause, so say which refs this tab has given and whose a ref is
    given = f"this tab's refs are e0..e{issued - 1}" if issued else "this tab has given no refs yet"
    return (f"ref {ref} not found - {given}, and a ref belongs to the tab whose /snapshot or /find "
            "gave it (pass its tabId): take a /snapshot first")


