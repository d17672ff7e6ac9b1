"""The page index: everything find needs to know about one snapshot, built once.

:func:`build_page_index` turns a snapshot's descriptors into a :class:`PageIndex`: inverted
indexes (key -> element rows, for own text, context and names), name sizes, role ids and
priors, geometry, the page vocabulary (for typos), its word pairs and the embedding
matrices. It works per distinct text, not per element (see :mod:`.parts`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ... import heap
from ...cancellation import CHECK_EVERY, checkpoint
from ..text import vocab
from ..weights import (
    CONTAINER_PRIOR,
    DISABLED_PRIOR,
    F_COLUMN,
    F_DESCRIPTION,
    F_LABEL,
    F_NAME,
    F_PLACEHOLDER,
    F_TEXT,
    F_TITLE,
    F_TYPE,
    F_VALUE,
    NON_INTERACTIVE_PRIOR,
    UNKNOWN_ROLE_PRIOR,
)
from .descriptors import ElementDescriptor
from .embedding import HashingEmbedder
from .parts import PartArrays, PartCache, part_cache
from .postings import Postings, build_tables, gather

__all__ = ["PageIndex", "PageVocab", "PageFuzzy", "PagePairs", "build_page_index"]

heap.configure_from_env()  # headroom for the large arrays a big page's build makes and frees

_F32 = np.float32
_WORDY = re.compile(r"[^\W_]{2,}")
SMALL_PAIRS = 256  # up to this many own-text parts, the page's word pairs are gathered in Python
SHARED_ROWS_MIN = 256  # from this many rows, rows sharing their one part are embedded once


class _PageWordIds:
    """Membership of a key id in the page's words: a word key (kind >= 1) posted by its own
    text or context. Looked up in the tables' sorted key ids, so nothing is built per page."""

    __slots__ = ("kinds", "tables")

    def __init__(self, kinds: list[int], tables: tuple[Postings, ...]) -> None:
        self.kinds = kinds  # key id -> kind (the part cache's append-only list)
        self.tables = tables

    def __contains__(self, j: object) -> bool:
        if j is None or self.kinds[j] < 1:
            return False
        return any(t.span.get(j) is not None for t in self.tables)


class PageVocab:
    """The page's words (keys of its own text and context that are words, not concepts or
    exact-form keys), as a membership test."""

    __slots__ = ("ids", "page")

    def __init__(self, ids: dict[str, int], page) -> None:
        self.ids = ids    # key -> id (the part cache's)
        self.page = page  # ids of the page's words (``in``)

    @classmethod
    def of(cls, specs: PartCache, tables: tuple[Postings, ...]) -> "PageVocab":
        return cls(specs.ids, _PageWordIds(specs.kinds, tables))

    def __contains__(self, w: object) -> bool:
        return self.ids.get(w) in self.page


class PageFuzzy:
    """Typo, prefix and abbreviation lookups over the page's typo-index words (what a
    ``FuzzyIndex`` of them answers), from the process-wide index of every word seen.

    The page's typo-index words are its words (``vocab``) of kind 2: membership is tested
    against the page vocabulary and the part cache's kinds, so nothing is built per page."""

    __slots__ = ("_specs", "_ids", "_page", "_kinds")

    def __init__(self, specs: PartCache, vocab_: PageVocab) -> None:
        self._specs = specs  # its typo index (``typo_index``: brought up to date when read)
        self._ids = vocab_.ids
        self._page = vocab_.page
        self._kinds = specs.kinds  # key id -> kind (append-only list)

    def __contains__(self, w: object) -> bool:
        j = self._ids.get(w)
        return j in self._page and self._kinds[j] >= 2

    def typos(self, w: str) -> list[tuple[str, int]]:
        return self._specs.typo_index().typos(w, self.__contains__)

    def completions(self, prefix: str, limit: int = 8) -> list[str]:
        return self._specs.typo_index().completions(prefix, self.__contains__, limit)

    def prefixes_of(self, w: str, min_len: int = 3) -> list[str]:
        """Page words that are proper prefixes of ``w`` (``FuzzyIndex.prefixes_of``)."""
        return [w[:k] for k in range(min_len, len(w)) if w[:k] in self]


class PagePairs:
    """The page's adjacent word pairs (of own text), as a membership test."""

    __slots__ = ("ids", "page")

    def __init__(self, ids: dict[tuple[str, str], int], page: frozenset[int]) -> None:
        self.ids = ids    # pair -> id (the part cache's)
        self.page = page  # ids of the page's pairs

    def __contains__(self, pair: object) -> bool:
        return self.ids.get(pair) in self.page


@dataclass(frozen=True, slots=True)
class PageIndex:
    """What one snapshot's elements give find (rows are element numbers, document order)."""

    content: Postings                 # own text: key -> rows, values (field weight x match kind)
    context: Postings                 # context (parent, section, heading, item, ancestors)
    names: Postings                   # keys of each element's name (no values)
    n_name: np.ndarray                # per row: words in its name (float32, >= 1)
    prior: np.ndarray                 # per row: prior for its role and state (float32)
    static: np.ndarray                # per row: not a control (bool)
    outside_modal: np.ndarray | None  # per row: outside the open modal dialog, None when none is open
    role_ids: np.ndarray              # per row: its role's number in role_index (int32)
    role_index: dict[str, int]        # lowercase role -> number ("" is 0)
    geom: np.ndarray                  # per row: x, y, width, height (float32; NaN without geometry)
    has_geom: np.ndarray              # per row: has geometry (bool)
    extent: tuple[float, float]       # page width, height (1, 1 without geometry)
    vocab: PageVocab                  # the page's words
    pairs: PagePairs                  # the page's adjacent word pairs
    abbrevs: frozenset[str]           # abbreviations written in capitals on the page ("INV")
    matrix: np.ndarray                # embedding matrix of own text (rows x dim)
    log_n: float                      # log(1 + rows), for idf
    # what many queries never use, made on first use: name -> value, or its builder until then
    lazy: dict

    def __len__(self) -> int:
        return int(self.n_name.shape[0])

    def _made(self, name: str):
        v = self.lazy[name]
        if callable(v):  # two threads may both build it: the same value, one is kept
            v = self.lazy[name] = v()
        return v

    @property
    def pos_hints(self) -> np.ndarray:
        """Per row: left, right, top, bottom hint of its context (float32)."""
        return self._made("pos_hints")

    @property
    def fuzzy(self) -> PageFuzzy:
        """Typo/prefix lookups over the page's words."""
        return self._made("fuzzy")

    @property
    def ctx_matrix(self) -> np.ndarray:
        """Embedding matrix of context (rows x dim); a query needs it only when some of its
        weight is on context."""
        return self._made("ctx_matrix")


def _features_matrix(emb: HashingEmbedder, arr: PartArrays, pids: np.ndarray, prow: np.ndarray,
                     n: int) -> np.ndarray:
    """Embedding matrix of the parts ``pids`` of rows ``prow`` (features summed in order)."""
    lens = arr.e_len[pids]
    idx = gather(arr.e_off[pids], lens)
    return emb.matrix_from_features(n, np.repeat(prow, lens), arr.slots[idx], arr.fvals[idx])


def _shared_rows_matrix(emb: HashingEmbedder, arr: PartArrays, pids: np.ndarray, n: int) -> np.ndarray:
    """Embedding matrix of rows made of one part each (``pids[row]``): each distinct part is
    embedded once (siblings and table rows share their context), then rows are copied. A
    row's floats depend only on its own features, so this is the same matrix, bit for bit."""
    if n < SHARED_ROWS_MIN:
        return _features_matrix(emb, arr, pids, np.arange(n, dtype=np.int64), n)
    uniq, inverse = np.unique(pids, return_inverse=True)
    if uniq.size * 2 > n:
        return _features_matrix(emb, arr, pids, np.arange(n, dtype=np.int64), n)
    return _features_matrix(emb, arr, uniq, np.arange(uniq.size, dtype=np.int64), int(uniq.size))[inverse]


_CELL_ROLES = frozenset({"cell", "gridcell"})


def matching_role(d: ElementDescriptor) -> str:
    """The role role words are matched against: a button that opens a list and shows the value
    chosen in it (Dash's and react-select's dropdowns: its name is "North", the field's label
    "Region" beside it, and it says whether its list is open) is the dropdown a person names,
    not a button."""
    role = d.role.lower()
    if role == "button" and type(d.states.get("expanded")) is bool and d.label and d.label.lower() != d.name.lower():
        return "combobox"
    return role


def _own_parts(specs: PartCache, emb: HashingEmbedder, d: ElementDescriptor) -> tuple:
    """(own-text part ids in the order the element's vector accumulates them, name part or -1,
    name size, primary text, cacheable) of the element ``d``. Not cacheable by its texts
    alone when its name is symbolic: then an identity test between its texts decides."""
    own = specs.own
    out: list[int] = []
    name = d.name
    dprim = d.primary
    primary = name or dprim
    symbolic = False
    if name:
        symbolic = not _WORDY.search(name)
        if symbolic:
            # an icon button named "+" or "⋮": its title/description is what it is called
            primary = d.label or d.title or d.description or d.placeholder or d.name
        out.append(own(emb, name, F_NAME, 1.0))
    value, column = d.value, d.column
    if column and d.role not in _CELL_ROLES:
        # a control in a cell is named by its own words ("#1002" is not an "order"); its column
        # is for the passes that read a cell by row and column
        column = ""
    for text, w in ((d.label, F_LABEL), (d.placeholder, F_PLACEHOLDER), (d.title, F_TITLE),
                    (d.description, F_DESCRIPTION), (d.text, F_TEXT)):
        if text:
            out.append(own(emb, text, w, 0.5 if text is value or text is column else 0.7))
    if column:
        out.append(own(emb, column, F_COLUMN, 0.5))
    if value:
        out.append(own(emb, value, F_VALUE, 0.5))
    text = vocab.INPUT_TYPE_TEXT.get(d.input_type, d.input_type)
    if text:
        out.append(own(emb, text, F_TYPE, 0.5 if text is value or text is column else 0.7))
    if (not name or symbolic) and primary and primary is not name:
        out.append(own(emb, primary, F_NAME, 1.0))
    npid, nn = specs.name(primary) if primary else (-1, 1)
    if d.href:
        out.append(specs.href(d.href))
    return tuple(out), npid, nn, dprim, not symbolic


def build_page_index(desc: Sequence[ElementDescriptor], emb: HashingEmbedder) -> PageIndex:
    """Index the descriptors ``desc`` (document order) for matching with ``emb``."""
    n = len(desc)
    specs = part_cache(emb)
    ctxs, elems = specs.contexts, specs.elements
    n_name: list[int] = []
    role_index: dict[str, int] = {"": 0}
    geom = np.full((n, 4), np.nan, dtype=_F32)
    placed = False   # some element has geometry
    modal: list[int] = []  # rows inside an open modal dialog
    # the parts of each element, in document order and, within an element, in the order
    # its vectors accumulate them: own (role, own texts, href), context, name keys
    pids: list[int] = []
    counts: list[int] = []  # per element: its parts in pids
    xpids: list[int] = []
    npids: list[int] = []
    nrow: list[int] = []
    roles: dict[tuple, tuple] = {}     # (role, disabled, interactive) -> (number, its role part)
    role_rows: list[tuple] = []         # number -> (role id, prior, static)
    rnum: list[int] = []                # element -> number

    for i, d in enumerate(desc):
        if not i & CHECK_EVERY:  # a request that gave up stops the build here, between elements
            checkpoint()
        role = matching_role(d)
        rk = (role, d.disabled, d.interactive)
        r = roles.get(rk)
        if r is None:
            if role not in role_index:
                role_index[role] = len(role_index)
            # prior for actionable elements
            if role in vocab.INTERACTIVE_ROLES:
                p = 1.0
                if d.disabled or d.interactive is False:
                    p = DISABLED_PRIOR
            elif role in vocab.CONTAINER_ROLES:
                p = CONTAINER_PRIOR if not d.interactive else 1.0
            elif role in vocab.NON_INTERACTIVE_ROLES:
                p = NON_INTERACTIVE_PRIOR if not d.interactive else 1.0
            else:
                p = UNKNOWN_ROLE_PRIOR if not d.interactive else 1.0
            role_rows.append((role_index[role], p, role not in vocab.INTERACTIVE_ROLES and not d.interactive))
            r = roles[rk] = (len(role_rows) - 1, specs.role(emb, role))
        rnum.append(r[0])
        pids.append(r[1])  # role text postings; the role's embedding feature comes first
        # own text, by field: the parts are the same for every element with the same texts
        value, column = d.value, d.column
        sig = (d.name, d.label, d.placeholder, d.title, d.description, d.text, column, value, d.input_type, d.href)
        if value or column:
            # a text that is the value or column object weighs as one (identity, not equality)
            sig += tuple(t is value or t is column
                         for t in (*sig[1:6], vocab.INPUT_TYPE_TEXT.get(d.input_type, d.input_type)))
        e = elems.get(sig)
        if e is None:
            e = _own_parts(specs, emb, d)
            if e[4]:
                elems[sig] = e
        ops, npid, nn, dprim = e[:4]
        if ops:
            pids.extend(ops)
        counts.append(1 + len(ops))
        n_name.append(nn)
        if npid >= 0:
            npids.append(npid)
            nrow.append(i)
        # context
        anc_roles = d.ancestor_roles
        heading = d.heading
        ck = (d.parent, d.section, heading if heading and heading != dprim else "", d.item,
              d.ancestors, anc_roles, d.in_dialog and "dialog" not in anc_roles)
        p = ctxs.get(ck)
        xpids.append(specs.context(emb, ck) if p is None else p)
        if d.positional:
            g = d.geometry
            if g is not None:
                geom[i] = g
                placed = True
        if d.in_modal:
            modal.append(i)

    arr = specs.arrays()
    if n <= 64:
        role_ids = np.array([role_rows[k][0] for k in rnum], dtype=np.int32)
        prior = np.array([role_rows[k][1] for k in rnum], dtype=_F32)
        static = np.array([role_rows[k][2] for k in rnum], dtype=bool)
    else:  # a few distinct (role, state) rows, spread by number
        num = np.array(rnum, dtype=np.intp)
        role_ids = np.array([r[0] for r in role_rows], dtype=np.int32)[num]
        prior = np.array([r[1] for r in role_rows], dtype=_F32)[num]
        static = np.array([r[2] for r in role_rows], dtype=bool)[num]
    P = np.array(pids, dtype=np.int64)
    PR = np.repeat(np.arange(n, dtype=np.int64), counts)
    XP = np.array(xpids, dtype=np.int64)
    rows = np.arange(n, dtype=np.int64)
    abbrevs: set[str] = set()
    caps = specs.caps
    if len(pids) <= SMALL_PAIRS:
        # a few dozen parts: Python sets cost less than the numpy calls
        pair_ids: set[int] = set()
        part_pairs = specs.pairs
        for j in pids:
            if part_pairs[j]:
                pair_ids.update(part_pairs[j])
            if caps[j]:
                abbrevs.update(caps[j])
        pairs = PagePairs(specs.bigram_ids, frozenset(pair_ids))
    else:
        pairs = PagePairs(specs.bigram_ids, frozenset(arr.bigrams[gather(arr.b_off[P], arr.b_len[P])].tolist()))
        has_caps = arr.has_caps
        for j in np.unique(P[has_caps[P] != 0]).tolist():
            abbrevs.update(caps[j])
    content, context, names_ = build_tables(
        specs, arr, ((P, PR, True), (XP, rows, True),
                     (np.array(npids, dtype=np.int64), np.array(nrow, dtype=np.int64), False)), n)
    n_name_a = np.array(n_name, dtype=_F32)
    if modal:
        outside_modal = np.ones(n, dtype=bool)
        outside_modal[modal] = False
    else:
        outside_modal = None
    has_geom = ~np.isnan(geom[:, 0]) if placed else np.zeros(n, dtype=bool)
    tables = (content, context)
    page_vocab = PageVocab.of(specs, tables)
    matrix = _features_matrix(emb, arr, P, PR, n)
    # page extents for positional phrases
    if placed:
        g = geom[has_geom]
        extent = (float(np.nanmax(g[:, 0] + g[:, 2])) or 1.0, float(np.nanmax(g[:, 1] + g[:, 3])) or 1.0)
    else:
        extent = (1.0, 1.0)

    def pos_hints() -> np.ndarray:
        # section hints for positions when there is no geometry: left, right, top, bottom
        return np.array(specs.hints, dtype=_F32)[arr.hint[XP]] if n else np.zeros((0, 4), dtype=_F32)

    return PageIndex(
        content=content,
        context=context,
        names=names_,
        n_name=n_name_a,
        prior=prior,
        static=static,
        outside_modal=outside_modal,
        role_ids=role_ids,
        role_index=role_index,
        geom=geom,
        has_geom=has_geom,
        extent=extent,
        vocab=page_vocab,
        pairs=pairs,
        abbrevs=frozenset(a for a in abbrevs if a in page_vocab),
        matrix=matrix,
        log_n=math.log(1.0 + n),
        lazy={
            "pos_hints": pos_hints,
            "fuzzy": lambda: PageFuzzy(specs, page_vocab),
            "ctx_matrix": lambda: _shared_rows_matrix(emb, arr, XP, n),
        },
    )
