"""An order asked for: "newest reviews first", "cheapest first", "show the most recent first".

Such a query asks the list to be sorted and means the page's sort control ("Sort by", "Sort",
"Order by"), which shares no word with it; the query's words ("reviews", "newest") otherwise
pull toward the list's own heading or buttons. This pass runs after scoring: a query that puts
an ordering word before a closing "first" lifts the one enabled control whose own text says
sort (or order, on a combobox or listbox) above the former best; among several, the one whose
item or heading context covers the most of the query's other words, and none on a tie.

"sort by last name" names the column instead: the control whose own short text is that column
("LAST NAME", a table header's sort link) is lifted over a generic sort toggle ("Toggle
sorting") that names no column; none when two controls fit alike.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..text.lexical import stem
from .base import PassPage
from .shared import lift_sole_first

__all__ = ["apply", "parse"]

# words that name an order of a list (a superlative or a relative age, size or rank)
ORDERING = frozenset({
    "newest", "latest", "recent", "oldest", "earliest", "cheapest", "lowest", "highest", "priciest",
    "biggest", "largest", "smallest", "shortest", "longest", "fastest", "closest", "nearest", "best",
    "top", "worst", "popular", "rated", "expensive", "alphabetical", "alphabetically", "new", "old",
})
_SORT_WORDS = frozenset({"sort", "sorted", "sorting"})
_ORDER_WORDS = frozenset({"order", "ordering"})
_LIST_ROLES = frozenset({"combobox", "listbox", "menubutton"})
_FILLER = frozenset({"the", "a", "an", "show", "me", "put", "list", "with", "most", "least", "first", "please",
                     "i", "want", "see", "my", "by"})
_WORD = re.compile(r"[^\W_]+")
_SORT_BY = re.compile(r"\b(?:sort|sorted|sorting|order|ordered)\s+(?:\w+\s+){0,2}?by\s+(.+)$")
# a column's control: its own text is the column's words and at most this many more
COLUMN_EXTRA = 2


@lru_cache(maxsize=4096)
def parse(query: str) -> tuple[str, ...] | None:
    """The stems of the query's other words when it asks for an order ("... <ordering> ... first"),
    else None."""
    ws = _WORD.findall(query.lower())
    if len(ws) < 2 or ws[-1] != "first" or not any(w in ORDERING for w in ws[:-1]):
        return None
    return tuple(dict.fromkeys(stem(w) for w in ws[:-1] if w not in ORDERING and w not in _FILLER))


@lru_cache(maxsize=4096)
def parse_by(query: str) -> tuple[str, ...] | None:
    """The stems of the column a "sort by <column>" query names, else None."""
    m = _SORT_BY.search(query.lower())
    if not m:
        return None
    what = tuple(dict.fromkeys(stem(w) for w in _WORD.findall(m.group(1)) if w not in _FILLER))
    return what or None


@lru_cache(maxsize=16384)
def _own_stems(text: str) -> tuple[str, ...]:
    return tuple(stem(w) for w in _WORD.findall(text.lower()))


def _by_column(page: PassPage, what: tuple[str, ...], score: np.ndarray) -> None:
    descriptors, static = page.descriptors, page.static
    best = int(np.argmax(score))
    cands = []
    for i in np.flatnonzero(score > 0).tolist():
        d = descriptors[i]
        own = _own_stems(d.name or "")
        if static[i] or d.disabled or not own or len(own) > len(what) + COLUMN_EXTRA or not set(what) <= set(own):
            continue
        if i == best:
            return
        cands.append((-float(len(own)), i))
    lift_sole_first(cands, score, best)


class _Texts:
    """Per index: rows whose own text says sort (or order, on a list control); context stems."""

    __slots__ = ("sorts", "ctx")

    def __init__(self, descriptors) -> None:
        self.sorts: list[int] = []
        self.ctx: dict[int, frozenset[str]] = {}
        for i, d in enumerate(descriptors):
            own = set(_WORD.findall(f"{d.name} {d.label} {d.title}".lower()))
            if own & _SORT_WORDS or (own & _ORDER_WORDS and d.role in _LIST_ROLES):
                self.sorts.append(i)
                self.ctx[i] = frozenset(stem(w) for w in _WORD.findall(f"{d.item} {d.heading} {d.parent}".lower()))


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Lift the page's sort control to the top."""
    descriptors, static = page.descriptors, page.static
    what = parse(query)
    if what is None:
        column = parse_by(query)
        if column is not None:
            _by_column(page, column, score)
        return
    tx = page.per_page("sort_rows", _Texts)
    cands = [(float(sum(1 for w in what if w in tx.ctx[i])), i) for i in tx.sorts
             if not static[i] and not descriptors[i].disabled]
    best = int(np.argmax(score))
    if not cands or any(i == best for _, i in cands):
        return
    lift_sole_first(cands, score, best)  # two sort controls that fit equally: no guess
