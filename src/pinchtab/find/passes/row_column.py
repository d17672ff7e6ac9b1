"""A cell named by its row and its column: "bob's email", "author of Things Fall Apart",
"pages of A Wizard of Earthsea".

The words that name the row are the text of another cell (the row's name, its title), so the
lexical ranking picks that cell; the words that name the column are in the header, far from
the cell asked for. This pass reads the query as a column and a row: a cell (or a control in
a cell) whose column header holds some of the query's words while its row holds all the others
is the answer, when exactly one fits (a control in that cell before the cell's own text: the
author's link, not the cell around it). The row is named by its other cells, never by the
cell's own text alone; a field's own words may name what it does there ("filter by product":
the "filter data..." field under "Product"). Every query word must be placed, so "email" alone
or "sort by email" never comes here; role words ("the units column") name no text. A control
of the row that names a query word itself (the row's "Fulfill" button for "fulfill the pending
order") is left first. "<its text> row" is the row's first link, where its text picked a cell.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..text import vocab
from ..text.lexical import stem, words
from ..weights import PASS_LIFT as LIFT
from .base import PassPage

__all__ = ["apply"]

_WORD = re.compile(r"[^\W_]+")
_STOP = frozenset(vocab.STOP_WORDS)
_FIELD_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})
# the lowest score a pick gets when nothing else matched the query well
ALONE = 0.45


@lru_cache(maxsize=16384)
def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _WORD.findall(text.lower()))


@lru_cache(maxsize=4096)
def _query_stems(query: str) -> frozenset[str]:
    return frozenset(st for w in words(query) if w not in _STOP
                     and (st := stem(w)) not in vocab.ROLE_WORDS and w not in vocab.ROLE_WORDS)


class _Cells:
    """Per index: the rows with a column header, with the stems of the column and of the row."""

    __slots__ = ("rows", "column", "row")

    def __init__(self, descriptors) -> None:
        self.rows: list[int] = []
        self.column: list[frozenset[str]] = []
        self.row: list[frozenset[str]] = []
        for i, d in enumerate(descriptors):
            if d.column and (d.parent or d.item or d.role in _FIELD_ROLES):
                self.rows.append(i)
                self.column.append(_stems(d.column))
                # the row is named by its other cells (a cell's own text names itself: the
                # sidebar's "Groups" link is no row for "group name"); a field's own words
                # say what it does there ("filter data..." under "Product")
                row = f"{d.parent.replace(d.name, ' ', 1)} {d.item.replace(d.name, ' ', 1)}" if d.name else \
                    f"{d.parent} {d.item}"
                if d.role in _FIELD_ROLES:
                    row += f" {d.name} {d.label} {d.placeholder}"
                self.row.append(_stems(row))


@lru_cache(maxsize=4096)
def _asks_row(query: str) -> bool:
    return "row" in words(query)


def _row_link(page: PassPage, q: frozenset[str], score: np.ndarray) -> None:
    """"Invisible Cities row": the first link of the one row whose text holds every other word."""
    descriptors = page.descriptors
    firsts: dict[str, int] = {}
    for i, d in enumerate(descriptors):
        if d.role == "link" and d.parent and d.parent not in firsts and q <= _stems(d.parent):
            firsts[d.parent] = i
    if len(firsts) == 1:
        pick = next(iter(firsts.values()))
        best = int(np.argmax(score))
        if pick != best and page.static[best] and descriptors[best].parent == descriptors[pick].parent:
            score[pick] = min(1.0, max(float(score[best]) + LIFT, ALONE))


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Lift the one cell whose column and row hold the query's words between them."""
    q = _query_stems(query)
    if q and _asks_row(query):
        _row_link(page, q, score)
        return
    cells = page.per_page("row_column", _Cells)
    if not cells.rows:
        return
    if len(q) < 2:
        return
    fits: list[int] = []
    for i, col, row in zip(cells.rows, cells.column, cells.row):
        named = q & col
        rest = q - col
        if named and rest and rest <= row:
            fits.append(i)
    if not fits:
        return
    controls = [i for i in fits if not page.static[i]]
    if controls:
        fits = controls
    if len(fits) != 1:
        return
    pick = fits[0]
    best = int(np.argmax(score))
    d, b = page.descriptors[pick], page.descriptors[best]
    if not page.static[best] and b.parent and b.parent == d.parent and q & _stems(b.name):
        return  # a control of that row answers already ("fulfill the pending order": its Fulfill button)
    if pick != best:
        score[pick] = min(1.0, max(float(score[best]) + LIFT, ALONE))
