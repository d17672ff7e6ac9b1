"""What a post-scoring pass is. After the lexical, embedding and structure scores, the matcher
(on pages of two elements or more) hands each pass of :data:`pinchtab.find.passes.PASSES`, in
that order, the page and the query as read; a pass that recognises its query feature may lift
one element's score, in place."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence, TypeVar

import numpy as np

from ..index.descriptors import ElementDescriptor

__all__ = ["Pass", "PassPage"]

T = TypeVar("T")


@dataclass(slots=True)
class PassPage:
    """What the passes see of one snapshot's index (one per index, shared by its queries)."""

    descriptors: Sequence[ElementDescriptor]
    static: np.ndarray  # True for rows that are not controls (text, headings, images...)
    _built: dict[str, Any] = field(default_factory=dict)

    def per_page(self, key: str, build: Callable[[Sequence[ElementDescriptor]], T]) -> T:
        """``build(descriptors)``, made at the first query that needs it and kept with the page."""
        value = self._built.get(key)
        if value is None:
            value = build(self.descriptors)
            self._built[key] = value
        return value


class Pass(Protocol):
    """A pass: a module with this function."""

    def apply(self, page: PassPage, query: str, score: np.ndarray) -> None:
        """Lift at most one element of ``page`` in ``score`` (in place) for ``query``."""
