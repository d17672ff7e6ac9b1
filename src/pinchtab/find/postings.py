"""Inverted indexes of one page: posting key -> the element rows that carry it, with values.

:func:`build_postings` max-merges the parts' postings (:mod:`.parts`) of a page's elements
into one flat, key-sorted :class:`Postings` table with a few numpy sorts; the per-key arrays
and dicts a query reads are made when a query first asks for the key.
"""

from __future__ import annotations

import numpy as np

from .parts import PartArrays, PartCache

__all__ = ["Postings", "build_postings", "gather"]

_F32 = np.float32
_EMPTY_K = np.zeros(0, dtype=np.int64)
_EMPTY_F64 = np.zeros(0, dtype=np.float64)
_EMPTY_I32 = np.zeros(0, dtype=np.int32)


def gather(off: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Indexes of the runs ``[off[i], off[i] + lens[i])``, concatenated."""
    total = int(lens.sum())
    if not total:
        return _EMPTY_K
    starts = np.cumsum(lens)
    starts -= lens
    return np.repeat(off - starts, lens) + np.arange(total, dtype=np.int64)


class Postings:
    """key -> the rows (ascending) that post it and their values, for one table of one index.

    Stored flat (sorted by key id, then row) with the span of each key id; the per-key
    arrays, and the row -> value dicts the small merges use, are made when a query first
    asks for the key.
    """

    __slots__ = ("ids", "span", "start", "end", "rows", "vals", "vals32", "kids", "_dicts", "_arrays", "_lists")

    def __init__(self, ids: dict[str, int], span: dict[int, int], start: list[int], end: list[int],
                 rows: np.ndarray, vals: np.ndarray | None) -> None:
        self.ids = ids          # key -> id (the part cache's)
        self.span = span        # key id -> its number in start/end
        self.start = start
        self.end = end
        self.rows = rows
        self.vals = vals
        self.vals32 = vals.astype(_F32) if vals is not None else None
        self.kids = _EMPTY_K   # the key ids, ascending
        self._dicts: dict[int, dict[int, float]] = {}
        self._arrays: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._lists: dict[int, list[int]] = {}

    def __len__(self) -> int:
        return len(self.span)

    def __contains__(self, k: str) -> bool:
        return self.span.get(self.ids.get(k)) is not None

    def size(self, k: str) -> int:
        t = self.span.get(self.ids.get(k))
        return 0 if t is None else self.end[t] - self.start[t]

    def dict_at(self, t: int) -> dict[int, float]:
        """row -> value of the ``t``-th key (``span[key id]``)."""
        d = self._dicts.get(t)
        if d is None:
            a, b = self.start[t], self.end[t]
            d = self._dicts[t] = dict(zip(self.rows[a:b].tolist(), self.vals[a:b].tolist()))
        return d

    def arrays_at(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        """(rows int32, values float32) of the ``t``-th key."""
        p = self._arrays.get(t)
        if p is None:
            a, b = self.start[t], self.end[t]
            p = self._arrays[t] = (self.rows[a:b], self.vals32[a:b])
        return p

    def get_dict(self, k: str) -> dict[int, float] | None:
        t = self.span.get(self.ids.get(k))
        return None if t is None else self.dict_at(t)

    def get_arrays(self, k: str) -> tuple[np.ndarray, np.ndarray] | None:
        t = self.span.get(self.ids.get(k))
        return None if t is None else self.arrays_at(t)

    def get_rows(self, k: str) -> np.ndarray | None:
        t = self.span.get(self.ids.get(k))
        return None if t is None else self.rows[self.start[t]:self.end[t]]

    def list_at(self, t: int | None) -> list[int] | None:
        """Rows of the ``t``-th key (None for None)."""
        if t is None:
            return None
        p = self._lists.get(t)
        if p is None:
            p = self._lists[t] = self.rows[self.start[t]:self.end[t]].tolist()
        return p

    def get_list(self, k: str) -> list[int] | None:
        return self.list_at(self.span.get(self.ids.get(k)))


def build_postings(specs: PartCache, arr: PartArrays, pids: np.ndarray, prow: np.ndarray, n: int,
                   with_values: bool = True) -> Postings:
    """Postings of the parts ``pids`` posted by rows ``prow``: per (key, row) the largest
    value, as max-merging into per-key dicts row by row gives; rows ascending per key."""
    keys_a, codes_a, k_off, k_len, vtable = arr.keys, arr.codes, arr.k_off, arr.k_len, arr.values
    lens = k_len[pids]
    idx = gather(k_off[pids], lens)
    if not idx.size:
        return Postings(specs.ids, {}, [], [], _EMPTY_I32, _EMPTY_F64 if with_values else None)
    K = keys_a[idx].astype(np.int64)
    R = np.repeat(prow, lens)
    kr = K * n
    kr += R
    vb = max(1, int(len(specs.vcodes)).bit_length()) if with_values else 0
    if with_values and int(kr.max()).bit_length() + vb <= 62:
        # one sort of packed (key, row, value code) integers
        comp = kr << vb
        comp |= codes_a[idx]
        comp.sort()
        kr = comp >> vb
        V = vtable[comp & ((1 << vb) - 1)]
    elif with_values:
        order = np.argsort(kr, kind="stable")
        kr = kr[order]
        V = vtable[codes_a[idx][order]]
    else:
        kr.sort()
        V = None
    m = kr.size
    if m > 1:
        new = np.empty(m, dtype=bool)
        new[0] = True
        np.not_equal(kr[1:], kr[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        if starts.size < m:
            if V is not None:
                V = np.maximum.reduceat(V, starts)
            kr = kr[starts]
            m = kr.size
    K = kr // n
    R = kr - K * n
    first = np.empty(m, dtype=bool)
    first[0] = True
    np.not_equal(K[1:], K[:-1], out=first[1:])
    kstart = np.flatnonzero(first)
    kid = K[kstart]
    kids = kid.tolist()
    start = kstart.tolist()
    end = start[1:] + [m]
    p = Postings(specs.ids, dict(zip(kids, range(len(kids)))), start, end, R.astype(np.int32), V)
    p.kids = kid
    return p
