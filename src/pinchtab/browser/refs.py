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
        # The last snapshot of each kind (filter, selector), which a diff compares against:
        # an interactive diff after a full snapshot must not report every text node as removed.
        self._last_of_kind: dict[tuple[bool, str | None], Snapshot] = {}
        self._by_ref: dict[str, Node] = {}
        self._index: ElementIndex | None = None

    def replace(self, snapshot: Snapshot) -> Snapshot | None:
        """Make ``snapshot`` current; answers the previous snapshot of the same kind."""
        kind = (snapshot.interactive_only, snapshot.selector)
        previous = self._last_of_kind.get(kind)
        if len(self._last_of_kind) >= 8 and kind not in self._last_of_kind:
            self._last_of_kind.pop(next(iter(self._last_of_kind)))
        self._last_of_kind[kind] = snapshot
        self.snapshot = snapshot
        self._by_ref = {n.ref: n for n in snapshot.nodes}
        self._index = None
        return previous

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
