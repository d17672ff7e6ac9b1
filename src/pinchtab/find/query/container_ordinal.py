"""Ordinals over containers: "checkbox of the last row", "delete button in the second card".

The ordinal counts the containers (rows, cards, list items, comments), not the targets: the
last row's checkbox is not the page's last checkbox when a row holds two, or when rows differ
in what they hold. The query parser recognises "<target> of|in|on|from [the] <ordinal>
<container word>" (:data:`CONTAINER_NOUNS`), drops the container word (it names no text of
the target) and marks the ordinal as counting containers; here the comparable matches are
grouped by the container they sit in (the repeated item around them, else their parent) in
document order, and the pick is the best match inside the n-th group.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = ["CONTAINER_NOUNS", "CONTAINER_PREPS", "pick"]

# words that name a repeated container of a page
CONTAINER_NOUNS: frozenset[str] = frozenset(
    """
    row rows card cards item items entry entries line lines result results comment comments message messages
    post posts review reviews tile tiles listing listings record records section sections panel panels
    """.split()
)
CONTAINER_PREPS: frozenset[str] = frozenset({"of", "in", "on", "from", "inside", "within", "for"})


def _container(d) -> str:
    return d.item or d.parent or ""


def pick(desc: Sequence, group: np.ndarray, score: np.ndarray, k: int) -> int | None:
    """Row of the best match in the ``k``-th container (1-based; -1 last) among ``group``
    (comparable matches, document order), or None when the ordinal exceeds the containers
    or the matches sit in no container."""
    keys: list[str] = []
    members: dict[str, list[int]] = {}
    for i in group.tolist():
        key = _container(desc[i])
        if not key:
            return None
        if key not in members:
            keys.append(key)
            members[key] = []
        members[key].append(i)
    if len(keys) < abs(k):
        return None
    rows = members[keys[k - 1] if k > 0 else keys[k]]
    return max(rows, key=lambda i: (float(score[i]), -i))
