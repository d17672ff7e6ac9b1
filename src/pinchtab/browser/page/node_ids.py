"""Backend DOM node ids without serialising every node on every snapshot.

The walker hands its nodes over serialised "deep", which is how Chromium gives their backendNodeId,
at ~300 bytes a node (localName, attributes, loaderId...): on a 1,766-node page that serialisation
and its JSON cost about as much as the walk itself. A node's backend id never changes while the
node lives, so the walker numbers each node it hands over in its isolated world (a WeakMap, ``k``)
and serialises only those this table does not know yet. A new document is a new world, hence a new
``epoch`` and an empty table.
"""

from __future__ import annotations

import weakref
from typing import Any

MAX_IDS = 100_000  # numbers remembered per tab; past that the next walk starts a new epoch


class NodeIds:
    def __init__(self) -> None:
        self.epoch = ""
        self.ids: dict[int, int | None] = {}
        self.known = 0  # every k below this is in ids

    def args(self) -> dict[str, Any]:
        """What the walker gets as ``opts.ids``."""
        return {"epoch": self.epoch, "known": self.known}

    def reset(self) -> None:
        self.epoch = ""
        self.ids.clear()
        self.known = 0

    def resolve(self, page: dict[str, Any], count: int, fresh: list[int | None]) -> list[int | None]:
        """The backend ids of the ``count`` nodes of a walk: from ``fresh`` (the ids of the nodes it
        serialised, in order) and this table. Raises KeyError if a node it skipped is unknown here."""
        ks: list[int] = page.pop("k")
        epoch, known = page.pop("epoch"), page.pop("known")
        if epoch != self.epoch:
            self.reset()
            self.epoch = epoch
        if len(ks) != count:
            raise KeyError("walker numbers do not match its nodes")
        out: list[int | None] = []
        it = iter(fresh)
        for k in ks:
            if k >= known:
                backend = next(it, None)
                self.ids[k] = backend
            else:
                backend = self.ids[k]
            out.append(backend)
        while self.known in self.ids:
            self.known += 1
        if len(self.ids) > MAX_IDS or len(self.ids) > self.known + 5_000:
            self.reset()  # too many, or too many gaps (walks that failed after numbering): start over
        return out


_by_tab: weakref.WeakKeyDictionary[Any, NodeIds] = weakref.WeakKeyDictionary()


def of(tab: Any) -> NodeIds:
    ids = _by_tab.get(tab)
    if ids is None:
        ids = _by_tab[tab] = NodeIds()
    return ids
