"""The per-tab ref cache: ref -> snapshot node (and its backend DOM node id), plus find's index."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pinchtab.browser.snapshot import Node, Snapshot
from pinchtab.errors import NotFound

if TYPE_CHECKING:
    from pinchtab.find import ElementIndex


class RefCache:
    """Replaced by every snapshot. Refs survive navigation on purpose: acting on one whose node
    is gone is a stale ref (which find's intent cache can recover), not an unknown one."""

    def __init__(self) -> None:
        self.snapshot: Snapshot | None = None
        self.previous: Snapshot | None = None
        self._by_ref: dict[str, Node] = {}
        self._index: ElementIndex | None = None

    def replace(self, snapshot: Snapshot) -> None:
        self.previous = self.snapshot
        self.snapshot = snapshot
        self._by_ref = {n.ref: n for n in snapshot.nodes}
        self._index = None

    def __contains__(self, ref: str) -> bool:
        return ref in self._by_ref

    def __len__(self) -> int:
        return len(self._by_ref)

    def get(self, ref: str) -> Node:
        node = self._by_ref.get(ref)
        if node is None:
            raise NotFound(f"ref {ref} not found - take a /snapshot first", "ref_not_found")
        return node

    @property
    def index(self) -> "ElementIndex":
        """find's index over this snapshot, built once on first use."""
        if self._index is None:
            from pinchtab.find import ElementIndex

            nodes = self.snapshot.nodes if self.snapshot else []
            self._index = ElementIndex([n.to_element() for n in nodes])
        return self._index
