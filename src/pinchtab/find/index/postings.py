"""Inverted indexes of one page: posting key -> the element rows that carry it, with values.

:func:`build_postings` max-merges the parts' postings (:mod:`.parts`) of a page's elements
into one flat, key-sorted :class:`Postings` table with a few numpy sorts; the per-key arrays
and dicts a query reads are made when a query first asks for the key.
"""

from __future__ import annotations

from bisect import bisect_left

import numpy as np

from .parts import PartArrays, PartCache

__all__ = ["KeyRank", "Postings", "build_postings", "build_tables", "gather"]

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


class KeyRank:
    """key id -> its number in a table whose key ids are ``kids`` (ascending), by bisection,
    with ``dict.get``'s face: a table answers the few lookups of a query's terms without a
    dict of all its keys being built first (most indexes serve a handful of queries)."""

    __slots__ = ("kids",)

    def __init__(self, kids: list[int]) -> None:
        self.kids = kids

    def get(self, j: int | None, default: int | None = None) -> int | None:
        if j is None:
            return default
        kids = self.kids
        t = bisect_left(kids, j)
        return t if t < len(kids) and kids[t] == j else default

    def __len__(self) -> int:
        return len(self.kids)


class Postings:
    """key -> the rows (ascending) that post it and their values, for one table of one index.

    Stored flat (sorted by key id, then row) with the span of each key id; the per-key
    arrays, and the row -> value dicts the small merges use, are made when a query first
    asks for the key.
    """

    __slots__ = ("ids", "span", "start", "end", "rows", "vals", "vals32", "kids", "_dicts", "_arrays", "_lists")

    def __init__(self, ids: dict[str, int], span: dict[int, int] | KeyRank, start: list[int], end: list[int],
                 rows: np.ndarray, vals: np.ndarray | None) -> None:
        self.ids = ids          # key -> id (the part cache's)
        self.span = span        # key id -> its number in start/end (``get``)
        self.start = start
        self.end = end
        self.rows = rows
        self.vals = vals
        self.vals32: np.ndarray | None = None  # vals as float32, made when arrays_at first needs them
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
            if self.vals32 is None:
                self.vals32 = self.vals.astype(_F32)
            p = self._arrays[t] = (self.rows[a:b], self.vals32[a:b])
        return p

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
    return build_tables(specs, arr, ((pids, prow, with_values),), n)[0]


def build_tables(specs: PartCache, arr: PartArrays, tables, n: int) -> list[Postings]:
    """:func:`build_postings` of several tables at once (``tables``: (pids, prow, with_values)
    each): one gather, one sort and one merge for all, so a small page pays the fixed cost
    of each numpy call once rather than once per table. The same tables, float for float."""
    keys_a, codes_a, k_off, k_len, vtable = arr.keys, arr.codes, arr.k_off, arr.k_len, arr.values
    nt = len(tables)
    if nt == 1:
        pids, prow, _ = tables[0]
    else:
        pids = np.concatenate([t[0] for t in tables])
        prow = np.concatenate([t[1] for t in tables])
    lens = k_len[pids]
    idx = gather(k_off[pids], lens)
    if not idx.size:
        return [Postings(specs.ids, {}, [], [], _EMPTY_I32, _EMPTY_F64 if t[2] else None) for t in tables]
    K = keys_a[idx].astype(np.int64)
    R = np.repeat(prow, lens)
    n_keys = len(specs.strs) if nt > 1 else 0
    if nt > 1:
        # table number above the key id: (table, key) sorts as the tables one after the other
        tab = np.repeat(np.repeat(np.arange(nt, dtype=np.int64), [len(t[0]) for t in tables]), lens)
        K += tab * n_keys
    kr = K * n
    kr += R
    any_values = any(t[2] for t in tables)
    vb = max(1, int(len(specs.vcodes)).bit_length()) if any_values else 0
    if any_values and int(kr.max()).bit_length() + vb <= 62:
        # one sort of packed (table, key, row, value code) integers
        comp = kr << vb
        comp |= codes_a[idx]
        comp.sort()
        kr = comp >> vb
        V = vtable[comp & ((1 << vb) - 1)]
    elif any_values:
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
    R32 = R.astype(np.int32)
    if nt == 1:
        bounds = [(0, len(kstart))]
        kid_t = [kid]
    else:
        # where each table's keys begin (kid is ascending: table-major)
        b = np.searchsorted(kid, np.arange(nt + 1, dtype=np.int64) * n_keys).tolist()
        bounds = list(zip(b[:-1], b[1:]))
        kid_t = [kid[a:z] - t * n_keys for t, (a, z) in enumerate(bounds)]
    kstart_l = kstart.tolist()
    out = []
    for t, (a, z) in enumerate(bounds):
        with_values = tables[t][2]
        if a == z:
            out.append(Postings(specs.ids, {}, [], [], _EMPTY_I32, _EMPTY_F64 if with_values else None))
            continue
        e0 = kstart_l[a]
        e1 = kstart_l[z] if z < len(kstart_l) else m
        start = kstart_l[a:z] if e0 == 0 else (kstart[a:z] - e0).tolist()
        end = start[1:]
        end.append(e1 - e0)
        kids = kid_t[t]
        p = Postings(specs.ids, KeyRank(kids.tolist()), start, end, R32[e0:e1],
                     V[e0:e1] if with_values else None)
        p.kids = kids
        out.append(p)
    return out
