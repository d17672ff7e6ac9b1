"""Combined matcher: lexical + hashing-embedding scores, merged per element, then the
query's structure (context, exclusions, positions, relations, ordinals) is applied.

Everything that depends only on the page is built once in :class:`ElementIndex`:
descriptors, inverted indexes (key -> element rows, for own text and for context), name
sizes, roles, geometry, the page vocabulary (for typos) and the embedding matrix.
A query then touches only the postings of its own terms and does a handful of numpy
operations over the element axis, so ``index.find`` costs the query, not the page.

The build itself works per distinct text, not per element: what a text (or a combination
of context texts) contributes is computed once and kept in a bounded process-wide cache,
so repeated texts (table rows, "Edit" buttons, a section shared by hundreds of elements)
and the next snapshot of the same page cost a lookup; the index is assembled from those
contributions with a few vectorised numpy operations (see "Index build helpers").

Scoring, per element (all vectors over the element axis):

* each query term gets a match strength in [0, 1]: exact stem 1, compound 0.95, synonym
  0.9 (related 0.72), typo 0.8, prefix 0.75, abbreviation 0.7 - times the field weight
  (name 1, aria-label 0.9, placeholder/description/title 0.8, value 0.55 ...). Words
  matched only in the element's context (parent, section, ancestors) count 0.55, or fully
  when the query put them in a context phrase ("in the footer") or they are container
  nouns ("footer"). Role words match the element's role.
* lexical = weighted coverage of the query terms (rarer page words weigh a bit more;
  generic verbs are bonus-only) x (0.8 + 0.2 x share of the element's own name that the
  query covered) x a mild prior for actionable elements.
* embedding = cosine of hashed word/concept/trigram vectors.
* composite = w_lex x lexical + w_emb x embedding (default 0.6 / 0.4). Elements below a
  lower internal threshold on *both* sides are dropped before the merge, so candidates
  strong on only one side survive until the final threshold.
"""

from __future__ import annotations

import itertools
import math
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from ..errors import BadRequest
from . import lexical, vocab
from .descriptors import ElementDescriptor, build_descriptors
from .embedding import HashingEmbedder
from .lexical import analyze_text
from .query import ParsedQuery, Term, parse_query, parse_query_for_page

__all__ = [
    "ElementIndex",
    "find",
    "confidence_for",
    "STRATEGY",
    "DEFAULT_LEXICAL_WEIGHT",
    "DEFAULT_EMBEDDING_WEIGHT",
    "DEFAULT_THRESHOLD",
    "DEFAULT_TOP_K",
]

STRATEGY = "combined:lexical+embedding:hashing"
DEFAULT_LEXICAL_WEIGHT = 0.6
DEFAULT_EMBEDDING_WEIGHT = 0.4
DEFAULT_THRESHOLD = 0.3
DEFAULT_TOP_K = 3
HIGH_CONFIDENCE = 0.80
MEDIUM_CONFIDENCE = 0.60

# field weights (own text)
F_NAME = 1.0
F_LABEL = 0.9
F_PLACEHOLDER = 0.8
F_TITLE = 0.8
F_DESCRIPTION = 0.8
F_TEXT = 0.75
F_COLUMN = 0.8
F_VALUE = 0.55
F_TYPE = 0.5
F_ROLE_TEXT = 0.45
F_HREF = 0.35
# context weights
X_PARENT = 1.0
X_SECTION = 0.9
X_ANCESTOR = 0.8
X_HEADING = 0.75
X_ITEM = 0.9
X_ANCESTOR_ROLE = 0.8
# how much a context match counts for an ordinary term / own-text match for a context term
CONTEXT_FACTOR = 0.55
# embedding: context weights (element side; context has its own matrix)
CTX_EMB_PARENT = 0.6
CTX_EMB_SECTION = 0.45
CTX_EMB_ANCESTOR = 0.35
CTX_EMB_ITEM = 0.5
CONTEXT_LEAK = 0.25

CTX_OWN_FACTOR = 0.85
# context matches of an element whose own name holds the query's leading verb ("refund" of
# "refund Chen Wei" on a Refund button, "Chen Wei" in its row)
LEAD_VERB_CONTEXT = 0.85
# an action verb ("refund", "turn on", "select") makes static text, cells and headings less likely
ACTION_NON_INTERACTIVE = 0.85
# while a modal dialog is open the page behind it cannot be used: its elements weigh less,
# unless the query places the target itself ("privacy link in the footer")
OUTSIDE_MODAL = 0.7
# "approve pull request": an element that lacks the query's specific action ("Pull requests")
MISSING_ACTION = 0.8
# a strong role word ("text area", "checkbox") the element's role does not fit at all
ROLE_MISMATCH = 0.8

Q_COMPOUND = 0.95
Q_TYPO1 = 0.8
Q_TYPO2 = 0.68
Q_PREFIX = 0.75
Q_ABBREV = 0.7
Q_PHRASE_PART = 0.45

IDF_ALPHA = 0.25
COVERAGE_POWER = 2.0
NON_INTERACTIVE_PRIOR = 0.85
CONTAINER_PRIOR = 0.75
DISABLED_PRIOR = 0.92
UNKNOWN_ROLE_PRIOR = 0.95
VERB_HINT_WEIGHT = 0.15
ORDINAL_GROUP = 0.95
MISSING_IDENTIFIER_PENALTY = 0.5
ANTONYM_PENALTY = 0.7
TIE_EPS = 0.02
ORDINAL_MARGIN = 0.05
TIE_POOL = 16

_F32 = np.float32
_EMPTY_I = np.zeros(0, dtype=np.int32)
_EMPTY_F = np.zeros(0, dtype=np.float32)
SMALL_MERGE = 512
_TERM_FEATURES: dict = {}
_CAPS = re.compile(r"\b[A-Z]{2,5}\b")
_WORDY = re.compile(r"[^\W_]{2,}")
_TOGGLE_ROLES = frozenset({"switch", "checkbox", "menuitemcheckbox", "togglebutton"})


def confidence_for(score: float) -> str:
    if score >= HIGH_CONFIDENCE:
        return "high"
    if score >= MEDIUM_CONFIDENCE:
        return "medium"
    return "low"


def _number(v: Any, name: str, code: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(float(v)):
        raise BadRequest(f"{name} must be a number", code=code)
    return float(v)


def _weights(lw: Any, ew: Any) -> tuple[float, float]:
    if lw is None and ew is None:
        return DEFAULT_LEXICAL_WEIGHT, DEFAULT_EMBEDDING_WEIGHT
    if lw is not None:
        lw = _number(lw, "lexicalWeight", "invalid_weights")
    if ew is not None:
        ew = _number(ew, "embeddingWeight", "invalid_weights")
    if lw is None:
        lw = 1.0 - ew
    elif ew is None:
        ew = 1.0 - lw
    if lw < 0 or ew < 0:
        raise BadRequest("lexicalWeight and embeddingWeight must be between 0 and 1", code="invalid_weights")
    total = lw + ew
    if total <= 0:
        raise BadRequest("lexicalWeight and embeddingWeight cannot both be zero", code="invalid_weights")
    return lw / total, ew / total


class _LRU:
    __slots__ = ("_d", "_max", "_lock")

    def __init__(self, maxsize: int) -> None:
        self._d: OrderedDict = OrderedDict()
        self._max = maxsize
        self._lock = threading.Lock()

    def get(self, k):
        with self._lock:
            v = self._d.get(k)
            if v is not None:
                self._d.move_to_end(k)
            return v

    def put(self, k, v) -> None:
        with self._lock:
            self._d[k] = v
            self._d.move_to_end(k)
            while len(self._d) > self._max:
                self._d.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._d.clear()

    def __len__(self) -> int:
        return len(self._d)


# ---------------------------------------------------------------------------------------
# Index build helpers. What a piece of text contributes to an element - its postings and its
# embedding features - depends only on the text and its field weight, and pages repeat their
# texts (table rows, "Edit" buttons, the section and parent of hundreds of elements), as do
# consecutive snapshots of one page. So each distinct text (role, context...) becomes a
# "part" once: its posting keys (interned to ids) and values, and its embedding (slot, value)
# pairs, appended to flat arrays of a bounded process-wide cache. Building an index is then
# a loop that lists the part ids of each element, and a few vectorised numpy operations that
# gather the parts' arrays, sort and max-merge the postings and sum the embedding features.
# The result is the same, float for float, as posting into per-key dicts and summing feature
# dicts element by element.
# ---------------------------------------------------------------------------------------
SPEC_CACHE_MAX = 50_000      # cached parts, or posting keys; past either a fresh cache starts
SPEC_ARENA_MAX = 2_000_000   # ... or this many posting entries / embedding features
_EMPTY_K = np.zeros(0, dtype=np.int64)
_EMPTY_F64 = np.zeros(0, dtype=np.float64)
_EMPTY_I32 = np.zeros(0, dtype=np.int32)


_META_WIDTH = 8


class _Grow:
    """Append-only numpy array. Appends are buffered in Python lists (cheap while parts are
    made one by one) and copied in by ``flush`` (amortised doubling)."""

    __slots__ = ("a", "n", "runs", "pend", "pn")

    def __init__(self, dtype, cap: int = 1024, *, runs: bool = True, width: int = 0) -> None:
        self.a = np.zeros((cap, width) if width else cap, dtype=dtype)  # width: rows of that many values
        self.n = 0          # flushed
        self.runs = runs    # appends are runs (sequences) rather than single values
        self.pend: list = []
        self.pn = 0         # pending

    def __len__(self) -> int:
        return self.n + self.pn

    def push(self, values) -> int:
        """Append a run of values; returns its offset."""
        off = self.n + self.pn
        if values:
            self.pend.append(values)
            self.pn += len(values)
        return off

    def push1(self, value) -> int:
        """Append one value (arrays made with ``runs=False``); returns its offset."""
        off = self.n + self.pn
        self.pend.append(value)
        self.pn += 1
        return off

    def flush(self) -> np.ndarray:
        k = self.pn
        if k:
            n = self.n
            cap = self.a.shape[0]
            if n + k > cap:
                a = np.zeros((max(2 * cap, n + k), *self.a.shape[1:]), dtype=self.a.dtype)
                a[:n] = self.a[:n]
                self.a = a
            if self.runs:
                self.a[n:n + k] = np.fromiter(itertools.chain.from_iterable(self.pend), self.a.dtype, count=k)
            else:
                self.a[n:n + k] = self.pend
            self.n = n + k
            self.pend = []
            self.pn = 0
        return self.a


class _SpecCache:
    """Interned posting keys, and the parts of texts, roles and contexts (one cache per
    embedder configuration, shared by the indexes of the process; thread-safe)."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.strs: list[str] = []
        self.kinds: list[int] = []  # 0 concept/exact-form key, 1 word, 2 word the typo index takes
        self.kinds_a = _Grow(np.int8, runs=False)  # ... as an array
        self.vcodes: dict[float, int] = {}
        self.vtable = _Grow(np.float64, 64, runs=False)
        # arenas: posting key ids and value codes, embedding slots and values, bigram ids
        self.keys = _Grow(np.int32, 1 << 14)
        self.codes = _Grow(np.int32, 1 << 14)
        self.slots = _Grow(np.int32, 1 << 15)
        self.fvals = _Grow(np.float64, 1 << 15)
        self.bigrams = _Grow(np.int32)
        self.bigram_ids: dict[tuple[str, str], int] = {}
        # per part (a row): its runs in the arenas (offset, length: keys and codes, embedding,
        # bigrams), position hint code, whether it has abbreviations (``caps``)
        self.meta = _Grow(np.int64, runs=False, width=_META_WIDTH)
        self.caps: list[tuple[str, ...]] = []
        self.fuzzy = lexical.GrowingFuzzyIndex()  # over the typo-index words interned so far
        self.fuzzy_upto = 0
        # position hints (left, right, top, bottom) contexts give; code 0 is "none"
        self.hints: list[tuple[float, float, float, float]] = [(0.5, 0.5, 0.5, 0.5)]
        self.hint_codes: dict[tuple, int] = {self.hints[0]: 0}
        self.posts: dict[tuple, tuple[tuple[int, ...], tuple[float, ...]]] = {}
        self.owns: dict[tuple, int] = {}
        self.roles: dict[str, int] = {}
        self.hrefs: dict[str, int] = {}
        self.contexts: dict[tuple, int] = {}
        self.names: dict[str, tuple[int, int]] = {}
        self.lock = threading.RLock()

    def full(self) -> bool:
        return (len(self.caps) > SPEC_CACHE_MAX or len(self.strs) > SPEC_CACHE_MAX or len(self.posts) > SPEC_CACHE_MAX
                or len(self.keys) > SPEC_ARENA_MAX or len(self.slots) > SPEC_ARENA_MAX)

    def arrays(self) -> tuple:
        """The arenas as they are now (a consistent view: parts are only ever appended), once
        the words interned so far are in the typo index."""
        with self.lock:
            if self.fuzzy_upto < len(self.strs):
                strs, kinds = self.strs, self.kinds
                self.fuzzy.add([strs[j] for j in range(self.fuzzy_upto, len(strs)) if kinds[j] == 2])
                self.fuzzy_upto = len(strs)
            meta = self.meta.flush()
            return (self.keys.flush(), self.codes.flush(), self.slots.flush(), self.fvals.flush(), meta[:, 0],
                    meta[:, 1], meta[:, 2], meta[:, 3], meta[:, 6], self.vtable.flush(), meta[:, 4], meta[:, 5],
                    self.bigrams.flush(), meta[:, 7], self.kinds_a.flush())

    def _ids(self, keys) -> list[int]:
        ids, strs, kinds = self.ids, self.strs, self.kinds
        out = []
        for k in keys:
            j = ids.get(k)
            if j is None:
                kind = 0 if k.startswith(("c:", lexical.SURFACE)) else (2 if lexical.fuzzy_word(k) else 1)
                kinds.append(kind)
                self.kinds_a.push1(kind)
                strs.append(k)
                j = ids[k] = len(strs) - 1
            out.append(j)
        return out

    def _part(self, keys: list[int], vals, slots=(), fvals=(), bigrams=(), caps: tuple[str, ...] = (),
              hint: tuple | None = None) -> int:
        """Register a part (call with the lock held); returns its id."""
        if vals:
            vc = self.vcodes
            codes = []
            for v in vals:
                c = vc.get(v)
                if c is None:
                    c = vc[v] = self.vtable.push1(v)
                codes.append(c)
        else:  # keys without values (names)
            codes = [0] * len(keys)
        h = 0
        if hint is not None:
            h = self.hint_codes.get(hint)
            if h is None:
                self.hints.append(hint)
                h = self.hint_codes[hint] = len(self.hints) - 1
        if bigrams:
            bids = self.bigram_ids
            bl = [bids.get(b) if b in bids else bids.setdefault(b, len(bids)) for b in bigrams]
        else:
            bl = ()
        self.codes.push(codes)
        self.fvals.push(fvals)
        self.meta.push1((self.keys.push(keys), len(keys), self.slots.push(slots), len(slots),
                         self.bigrams.push(bl), len(bl), h, 1 if caps else 0))
        self.caps.append(caps)
        return len(self.caps) - 1

    def post(self, text: str, w: float, joins: bool) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """``post(table, analyze_text(text, joins=joins), row, w, with_compounds=joins)`` as
        (key ids, values): per key the largest value."""
        p = self.posts.get((text, w, joins))
        if p is not None:
            return p
        with self.lock:
            keys = analyze_text(text) if joins else analyze_text(text, joins=False)
            items: dict[str, float] = {}
            get = items.get
            for raw, k in zip(keys.raw, keys.stems):
                sw = w if raw == k else w * lexical.STEM_ONLY
                if get(k, 0.0) < sw:
                    items[k] = sw
                if raw != k:
                    k = lexical.SURFACE + raw
                    if get(k, 0.0) < w:
                        items[k] = w
            if joins:
                cw = w * Q_COMPOUND
                for k in keys.compounds:
                    if get(k, 0.0) < cw:
                        items[k] = cw
            for k in keys.concepts:
                if get(k, 0.0) < w:
                    items[k] = w
            p = self.posts[(text, w, joins)] = (tuple(self._ids(items)), tuple(items.values()))
        return p

    def own(self, emb: HashingEmbedder, text: str, w: float, we: float) -> int:
        """Part of an own text at field weight ``w`` (postings) and embedding weight ``we``."""
        key = (text, w, we)
        with self.lock:
            p = self.owns.get(key)
            if p is None:
                ks, vs = self.post(text, w, True)
                es, ev = emb.text_features(text, we)
                caps = tuple(a.lower() for a in _CAPS.findall(text))
                p = self.owns[key] = self._part(ks, vs, es, ev, analyze_text(text).bigrams, caps)
        return p

    def role(self, emb: HashingEmbedder, role: str) -> int:
        """Part of a (lowercase) role: its role text's postings and its embedding feature."""
        with self.lock:
            p = self.roles.get(role)
            if p is None:
                rt = vocab.ROLE_TEXT.get(role)
                ks, vs = self.post(rt, F_ROLE_TEXT, False) if rt else ((), ())
                es, ev = emb.feature_features("r:" + role, 0.5) if role else ((), ())
                p = self.roles[role] = self._part(ks, vs, es, ev)
        return p

    def href(self, href: str) -> int:
        with self.lock:
            p = self.hrefs.get(href)
            if p is None:
                ks, vs = self.post(href.replace("/", " ").replace("-", " ").replace("_", " "), F_HREF, False)
                p = self.hrefs[href] = self._part(ks, vs)
        return p

    def context(self, emb: HashingEmbedder, key: tuple) -> int:
        """Part of one combination of context texts (many elements share one: siblings, table
        rows): context postings, context embedding features and the position hint."""
        with self.lock:
            p = self.contexts.get(key)
            if p is not None:
                return p
            parent, section, heading, item, ancestors, anc_roles, dialog = key
            best: dict[int, float] = {}  # postings: key id -> max value
            es: list[int] = []
            ev: list[float] = []

            def post(text: str, w: float, joins: bool) -> None:
                for j, v in zip(*self.post(text, w, joins)):
                    if best.get(j, 0.0) < v:
                        best[j] = v

            for text, w, we in ((parent, X_PARENT, CTX_EMB_PARENT), (section, X_SECTION, CTX_EMB_SECTION),
                                (heading, X_HEADING, CTX_EMB_ANCESTOR), (item, X_ITEM, CTX_EMB_ITEM),
                                *((a, X_ANCESTOR, CTX_EMB_ANCESTOR) for a in ancestors[:4])):
                if text:
                    post(text, w, True)
                    s, v = emb.text_features(text, we)
                    es += s
                    ev += v
            for ar in anc_roles[:6]:
                t = vocab.CONTAINER_ROLE_TEXT.get(ar)
                if t:
                    post(t, X_ANCESTOR_ROLE, False)
            if dialog:
                post("dialog modal popup", X_ANCESTOR_ROLE, False)
            for ar in anc_roles[:3]:
                t = vocab.CONTAINER_ROLE_TEXT.get(ar)
                if t:
                    s, v = emb.text_features(t, CTX_EMB_ANCESTOR)
                    es += s
                    ev += v
            p = self.contexts[key] = self._part(
                list(best), list(best.values()), es, ev,
                hint=_pos_hint(section, parent, ancestors, anc_roles))
        return p

    def name(self, text: str) -> tuple[int, int]:
        """Part holding the name keys of an element whose primary text is ``text``, and its
        name size."""
        with self.lock:
            nm = self.names.get(text)
            if nm is None:
                pk = analyze_text(text)
                words_ = {st for st in pk.stems if not st[0].isdigit()} or set(pk.stems)
                nm = self.names[text] = (self._part(self._ids(pk.keys()), []), max(1, len(words_)))
        return nm


_SPEC_CACHES: dict[tuple, _SpecCache] = {}


def _specs(emb: HashingEmbedder) -> _SpecCache:
    cfg = (emb.dim, emb.word_weight, emb.concept_weight, emb.trigram_weight)
    s = _SPEC_CACHES.get(cfg)
    if s is None or s.full():
        s = _SPEC_CACHES[cfg] = _SpecCache()  # indexes being built keep the one they hold
    return s


def _gather(off: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Indexes of the runs ``[off[i], off[i] + lens[i])``, concatenated."""
    total = int(lens.sum())
    if not total:
        return _EMPTY_K
    starts = np.cumsum(lens)
    starts -= lens
    return np.repeat(off - starts, lens) + np.arange(total, dtype=np.int64)


class _Postings:
    """key -> the rows (ascending) that post it and their values, for one table of one index.

    Stored flat (sorted by key id, then row) with the span of each key id; the per-key
    arrays, and the row -> value dicts the small merges use, are made when a query first
    asks for the key.
    """

    __slots__ = ("ids", "span", "start", "end", "rows", "vals", "vals32", "kids", "_dicts", "_arrays", "_lists")

    def __init__(self, ids: dict[str, int], span: dict[int, int], start: list[int], end: list[int],
                 rows: np.ndarray, vals: np.ndarray | None) -> None:
        self.ids = ids          # key -> id (the spec cache's)
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


def _postings(specs: _SpecCache, arr: tuple, pids: np.ndarray, prow: np.ndarray, n: int,
              with_values: bool = True) -> _Postings:
    """Postings of the parts ``pids`` posted by rows ``prow``: per (key, row) the largest
    value, as max-merging into per-key dicts row by row gives; rows ascending per key."""
    keys_a, codes_a, k_off, k_len, vtable = arr[0], arr[1], arr[4], arr[5], arr[9]
    lens = k_len[pids]
    idx = _gather(k_off[pids], lens)
    if not idx.size:
        return _Postings(specs.ids, {}, [], [], _EMPTY_I32, _EMPTY_F64 if with_values else None)
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
    p = _Postings(specs.ids, dict(zip(kids, range(len(kids)))), start, end, R.astype(np.int32), V)
    p.kids = kid
    return p


class _PageVocab:
    """The page's words (keys of its own text and context that are words, not concepts or
    exact-form keys) - or only those the typo index takes - as a membership test."""

    __slots__ = ("ids", "page")

    def __init__(self, ids: dict[str, int], page: frozenset[int]) -> None:
        self.ids = ids    # key -> id (the spec cache's)
        self.page = page  # ids of the page's words

    @classmethod
    def of(cls, specs: _SpecCache, kinds: np.ndarray, tables: tuple[_Postings, ...], min_kind: int) -> "_PageVocab":
        page: set[int] = set()
        for t in tables:
            page.update(t.kids[kinds[t.kids] >= min_kind].tolist())
        return cls(specs.ids, frozenset(page))

    def __contains__(self, w: object) -> bool:
        return self.ids.get(w) in self.page


class _PageFuzzy:
    """Typo, prefix and abbreviation lookups over the page's typo-index words (what a
    ``FuzzyIndex`` of them answers), from the process-wide index of every word seen."""

    __slots__ = ("_index", "_vocab", "_contains")

    def __init__(self, specs: _SpecCache, vocab_: _PageVocab) -> None:
        self._index = specs.fuzzy
        self._vocab = vocab_
        self._contains = vocab_.__contains__

    def __contains__(self, w: str) -> bool:
        return w in self._vocab

    def typos(self, w: str) -> list[tuple[str, int]]:
        return self._index.typos(w, self._contains)

    def completions(self, prefix: str, limit: int = 8) -> list[str]:
        return self._index.completions(prefix, self._contains, limit)

    def prefixes_of(self, w: str, min_len: int = 3) -> list[str]:
        """Page words that are proper prefixes of ``w`` (``FuzzyIndex.prefixes_of``)."""
        ids, page = self._vocab.ids, self._vocab.page
        return [w[:k] for k in range(min_len, len(w)) if ids.get(w[:k]) in page]


class _PagePairs:
    """The page's adjacent word pairs (of own text), as a membership test."""

    __slots__ = ("ids", "page")

    def __init__(self, ids: dict[tuple[str, str], int], page: frozenset[int]) -> None:
        self.ids = ids    # pair -> id (the spec cache's)
        self.page = page  # ids of the page's pairs

    def __contains__(self, pair: object) -> bool:
        return self.ids.get(pair) in self.page


_HEADER_WORDS = ("header", "banner", "top bar", "topbar", "navbar", "masthead")
_FOOTER_WORDS = ("footer", "contentinfo", "bottom")
_LEFT_WORDS = ("sidebar", "side bar", "sidenav", "complementary", "left")


def _pos_hint(section: str, parent: str, ancestors: tuple[str, ...], anc_roles: tuple[str, ...]) -> tuple | None:
    """(left, right, top, bottom) position hint from an element's context names, None if none."""
    ctx = " ".join([section, parent, *ancestors, *anc_roles]).lower()
    h = [0.5, 0.5, 0.5, 0.5]
    hit = False
    if any(w in ctx for w in _HEADER_WORDS):
        h[2], h[3], hit = 1.0, 0.0, True
    elif any(w in ctx for w in _FOOTER_WORDS):
        h[2], h[3], hit = 0.0, 1.0, True
    if any(w in ctx for w in _LEFT_WORDS):
        h[0], h[1], hit = 0.9, 0.1, True
    elif "right" in ctx or "aside" in ctx:
        h[0], h[1], hit = 0.1, 0.9, True
    return (h[0], h[1], h[2], h[3]) if hit else None


@dataclass(frozen=True, slots=True)
class _TermVec:
    c_rows: np.ndarray   # rows matched in own text
    c_vals: np.ndarray
    n_rows: np.ndarray   # rows where the match hit the element's name
    n_vals: np.ndarray   # how many name words that hit covers
    x_rows: np.ndarray   # rows matched in context
    x_vals: np.ndarray
    df: int
    anti: np.ndarray     # rows whose own text says the opposite (and not the term itself)


@dataclass(frozen=True, slots=True)
class _Plan:
    parsed: ParsedQuery
    qvec: tuple
    term_vecs: tuple


class ElementIndex:
    """Precomputed matching structures for one snapshot. Immutable; safe to share.

    ``index.find(query, ...)`` returns the ``POST /find`` response dict. Keep one index per
    snapshot (e.g. in the tab's ref cache) and reuse it for every query on that snapshot.
    """

    def __init__(self, elements: Iterable[Any] | None = None, *, embedder: HashingEmbedder | None = None) -> None:
        self._desc: list[ElementDescriptor] = build_descriptors(elements or ())
        self._by_ref = {d.ref: d for d in self._desc}
        self._emb = embedder or HashingEmbedder()
        self._plans = _LRU(512)
        self._terms = _LRU(2048)
        self._roles_cache: dict[str, np.ndarray] = {}
        self._build()

    # ------------------------------------------------------------------ build
    def _build(self) -> None:
        desc = self._desc
        n = len(desc)
        emb = self._emb
        specs = _specs(emb)
        owns, own, ctxs, names, hrefs = specs.owns, specs.own, specs.contexts, specs.names, specs.hrefs
        n_name = [1] * n
        role_index: dict[str, int] = {"": 0}
        geom = np.full((n, 4), np.nan, dtype=_F32)
        modal = np.zeros(n, dtype=bool)
        # the parts of each element, in document order and, within an element, in the order
        # its vectors accumulate them: own (role, own texts, href), context, name keys
        pids: list[int] = []
        prow: list[int] = []
        xpids: list[int] = []
        npids: list[int] = []
        nrow: list[int] = []
        roles: dict[tuple, tuple] = {}     # (role, disabled, interactive) -> (number, its role part)
        role_rows: list[tuple] = []         # number -> (role id, prior, static)
        rnum: list[int] = []                # element -> number
        symbolic_of: dict[str, bool] = {}

        for i, d in enumerate(desc):
            rk = (d.role, d.disabled, d.interactive)
            r = roles.get(rk)
            if r is None:
                role = d.role.lower()
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
            prow.append(i)
            # own text, by field (weights: postings, embedding)
            name = d.name
            primary = name or d.primary
            if name:
                symbolic = symbolic_of.get(name)
                if symbolic is None:
                    symbolic = symbolic_of[name] = not _WORDY.search(name)
                if symbolic:
                    # an icon button named "+" or "⋮": its title/description is what it is called
                    primary = d.label or d.title or d.description or d.placeholder or d.name
                p = owns.get((name, F_NAME, 1.0))
                pids.append(own(emb, name, F_NAME, 1.0) if p is None else p)
                prow.append(i)
            else:
                symbolic = False
            value, column = d.value, d.column
            for text, w in ((d.label, F_LABEL), (d.placeholder, F_PLACEHOLDER), (d.title, F_TITLE),
                            (d.description, F_DESCRIPTION), (d.text, F_TEXT)):
                if text:
                    we = 0.5 if text is value or text is column else 0.7
                    p = owns.get((text, w, we))
                    pids.append(own(emb, text, w, we) if p is None else p)
                    prow.append(i)
            if column:
                p = owns.get((column, F_COLUMN, 0.5))
                pids.append(own(emb, column, F_COLUMN, 0.5) if p is None else p)
                prow.append(i)
            if value:
                p = owns.get((value, F_VALUE, 0.5))
                pids.append(own(emb, value, F_VALUE, 0.5) if p is None else p)
                prow.append(i)
            text = d.input_type
            if text:
                we = 0.5 if text is value or text is column else 0.7
                p = owns.get((text, F_TYPE, we))
                pids.append(own(emb, text, F_TYPE, we) if p is None else p)
                prow.append(i)
            if (not name or symbolic) and primary and primary is not name:
                p = owns.get((primary, F_NAME, 1.0))
                pids.append(own(emb, primary, F_NAME, 1.0) if p is None else p)
                prow.append(i)
            if primary:
                nm = names.get(primary)
                if nm is None:
                    nm = specs.name(primary)
                npids.append(nm[0])
                nrow.append(i)
                n_name[i] = nm[1]
            if d.href:
                p = hrefs.get(d.href)
                pids.append(specs.href(d.href) if p is None else p)
                prow.append(i)
            # context
            anc_roles = d.ancestor_roles
            ck = (d.parent, d.section, d.heading if d.heading and d.heading != d.primary else "", d.item,
                  d.ancestors, anc_roles, d.in_dialog and "dialog" not in anc_roles)
            p = ctxs.get(ck)
            xpids.append(specs.context(emb, ck) if p is None else p)
            if d.positional:
                g = d.geometry
                if g is not None:
                    geom[i] = g
            if d.in_modal:
                modal[i] = True

        arr = specs.arrays()
        rn = np.array(rnum, dtype=np.int64)
        role_ids = np.array([r[0] for r in role_rows], dtype=np.int32)[rn] if n else np.zeros(0, dtype=np.int32)
        prior = np.array([r[1] for r in role_rows], dtype=_F32)[rn] if n else np.ones(0, dtype=_F32)
        static = np.array([r[2] for r in role_rows], dtype=bool)[rn] if n else np.zeros(0, dtype=bool)
        P = np.array(pids, dtype=np.int64)
        PR = np.array(prow, dtype=np.int64)
        XP = np.array(xpids, dtype=np.int64)
        rows = np.arange(n, dtype=np.int64)
        b_off, b_len, bigrams, has_caps = arr[10:14]
        self._pairs = _PagePairs(specs.bigram_ids, frozenset(bigrams[_gather(b_off[P], b_len[P])].tolist()))
        abbrevs: set[str] = set()
        caps = specs.caps
        for j in np.unique(P[has_caps[P] != 0]).tolist():
            abbrevs.update(caps[j])
        self._content = _postings(specs, arr, P, PR, n)
        self._context = _postings(specs, arr, XP, rows, n)
        self._names = _postings(specs, arr, np.array(npids, dtype=np.int64), np.array(nrow, dtype=np.int64), n,
                                with_values=False)
        self._n_name = np.array(n_name, dtype=_F32)
        self._prior = prior
        self._static = static
        self._outside_modal = ~modal if modal.any() else None
        self._role_ids = role_ids
        self._role_index = role_index
        self._geom = geom
        self._has_geom = ~np.isnan(geom[:, 0]) if n else np.zeros(0, dtype=bool)
        self._order = rows.astype(np.int32)
        tables = (self._content, self._context)
        self._vocab = _PageVocab.of(specs, arr[14], tables, 1)
        self._fuzzy = _PageFuzzy(specs, _PageVocab.of(specs, arr[14], tables, 2))
        self._abbrevs = frozenset(a for a in abbrevs if a in self._vocab)
        self._matrix = self._features_matrix(arr, P, PR, n)
        self._ctx_matrix = self._features_matrix(arr, XP, rows, n)
        self._log_n = math.log(1.0 + n)
        # page extents for positional phrases
        if n and self._has_geom.any():
            g = geom[self._has_geom]
            self._extent = (float(np.nanmax(g[:, 0] + g[:, 2])) or 1.0, float(np.nanmax(g[:, 1] + g[:, 3])) or 1.0)
        else:
            self._extent = (1.0, 1.0)
        # section hints for positions when there is no geometry: left, right, top, bottom
        self._pos_hints = np.array(specs.hints, dtype=_F32)[arr[8][XP]] if n else np.zeros((0, 4), dtype=_F32)

    def _features_matrix(self, arr: tuple, pids: np.ndarray, prow: np.ndarray, n: int) -> np.ndarray:
        """Embedding matrix of the parts ``pids`` of rows ``prow`` (features summed in order)."""
        slots, fvals, e_off, e_len = arr[2], arr[3], arr[6], arr[7]
        lens = e_len[pids]
        idx = _gather(e_off[pids], lens)
        return self._emb.matrix_from_features(n, np.repeat(prow, lens), slots[idx], fvals[idx])

    def _state(self, key: str) -> np.ndarray:
        """Per element: 1/0 for the state ``key`` (checked, expanded, disabled...), -1 if it has none."""
        v = self._roles_cache.get("state:" + key)
        if v is None:
            out = []
            for d in self._desc:
                if key == "disabled":
                    out.append(1 if d.disabled else (0 if d.role.lower() in vocab.INTERACTIVE_ROLES else -1))
                    continue
                x = d.states.get(key)
                if isinstance(x, str):
                    x = {"true": True, "false": False, "mixed": True}.get(x.lower())
                out.append(-1 if not isinstance(x, bool) else int(x))
            v = np.array(out, dtype=np.int8)
            self._roles_cache["state:" + key] = v
        return v

    # ------------------------------------------------------------------ accessors
    def __len__(self) -> int:
        return len(self._desc)

    def __iter__(self):
        return iter(self._desc)

    def __contains__(self, ref: object) -> bool:
        return ref in self._by_ref

    @property
    def descriptors(self) -> Sequence[ElementDescriptor]:
        return tuple(self._desc)

    def get(self, ref: str) -> ElementDescriptor | None:
        """Descriptor of ``ref``, or None."""
        return self._by_ref.get(ref)

    def clear_caches(self) -> None:
        """Forget cached query plans and term postings (benchmarks use this for cold timings)."""
        self._plans.clear()
        self._terms.clear()

    # ------------------------------------------------------------------ term resolution
    def _literal(self, a: str, b: str) -> bool:
        return (a, b) in self._pairs

    def _word_alternatives(self, st: str, raw: str, concepts, joins=(), *, fuzzy: bool = True) -> dict[str, float]:
        alts: dict[str, float] = {}

        def put(k: str, q: float) -> None:
            if alts.get(k, 0.0) < q:
                alts[k] = q

        put(st, 1.0)  # element postings carry STEM_ONLY for inflected forms
        if raw != st:
            put(lexical.SURFACE + raw, 1.0)
        for c, q in concepts:
            put(c, q)
        vids, vpage = self._vocab.ids, self._vocab.page
        for j in joins:
            if vids.get(j) in vpage:
                put(j, Q_COMPOUND)
        if not st.isalpha() or len(st) < 3:
            return alts
        # acronyms on the page ("INV" for invoice, "QTY" for quantity)
        if self._abbrevs:
            for v in self._fuzzy.prefixes_of(st):
                if v in self._abbrevs and len(v) / len(st) >= 0.4:
                    put(v, Q_ABBREV)
        if (vids.get(st) in vpage or not fuzzy or len(st) < 4 or len(st) > lexical.MAX_FUZZY_LEN
                or st in lexical.KNOWN_STEMS or raw in lexical.KNOWN_STEMS):
            # on the page, or a known word spelled right (its synonyms were added above): no fuzzing
            return alts
        # unknown word, not on this page: typos, prefixes, abbreviations
        for cand in {st, raw}:
            for v, dist in self._fuzzy.typos(cand):
                put(v, Q_TYPO1 if dist == 1 else Q_TYPO2)
        for v in self._fuzzy.completions(st):
            if len(st) / len(v) >= 0.4:
                put(v, Q_PREFIX)
        for v in self._fuzzy.prefixes_of(st):
            if len(v) / len(st) >= 0.5:
                put(v, Q_ABBREV)
        for v, dist in lexical.GLOBAL_FUZZY.typos(st):
            for c, q in lexical.concepts_of_word(v).items():
                put(c, q * (Q_TYPO1 if dist == 1 else Q_TYPO2))
        return alts

    def _accumulate(self, alts: dict[str, float], n: int, hit_weight: float = 1.0):
        """Max-merge the postings of a term's alternatives -> (own text, context, name hits).

        Small merges run on Python dicts (cheaper than numpy calls at this size); large
        ones on dense numpy arrays. Returns dicts row -> value, or dense arrays.
        """
        cd, xd = self._content, self._context
        ids, cs, xs = cd.ids, cd.span, xd.span
        cstart, cend, xstart, xend = cd.start, cd.end, xd.start, xd.end
        found = []  # (alternative, quality, its number in content or None, ... in context or None)
        total = 0
        for k, q in alts.items():
            j = ids.get(k)
            if j is None:
                continue
            tc = cs.get(j)
            tx = xs.get(j)
            if tc is not None:
                total += cend[tc] - cstart[tc]
            elif tx is None:
                continue
            if tx is not None:
                total += xend[tx] - xstart[tx]
            found.append((k, q, tc, tx))
        if total <= SMALL_MERGE:
            c: dict[int, float] = {}
            x: dict[int, float] = {}
            h: dict[int, float] = {}
            names = self._names
            for k, q, tc, tx in found:
                if tc is not None:
                    for r, v in cd.dict_at(tc).items():
                        v *= q
                        if v > c.get(r, 0.0):
                            c[r] = v
                    if q >= 0.6:
                        nm = names.list_at(names.span.get(ids[k]))
                        if nm:
                            for r in nm:
                                h[r] = hit_weight
                if tx is not None:
                    for r, v in xd.dict_at(tx).items():
                        v *= q
                        if v > x.get(r, 0.0):
                            x[r] = v
            if h:
                h = {r: v for r, v in h.items() if r in c}
            return c, x, h
        c = np.zeros(n, dtype=_F32)
        x = np.zeros(n, dtype=_F32)
        nh = np.zeros(n, dtype=_F32)
        names = self._names
        for k, q, tc, tx in found:
            if tc is not None:
                rows, vals = cd.arrays_at(tc)
                c[rows] = np.maximum(c[rows], vals * q)
                if q >= 0.6:
                    nr = names.get_rows(k)
                    if nr is not None:
                        nh[nr] = hit_weight
            if tx is not None:
                rows, vals = xd.arrays_at(tx)
                x[rows] = np.maximum(x[rows], vals * q)
        nh[c <= 0] = 0.0
        return c, x, nh

    @staticmethod
    def _dense(v, n: int) -> np.ndarray:
        if isinstance(v, np.ndarray):
            return v
        d = np.zeros(n, dtype=_F32)
        if v:
            d[np.fromiter(v.keys(), dtype=np.int64, count=len(v))] = np.fromiter(v.values(), dtype=_F32, count=len(v))
        return d

    @staticmethod
    def _sparse(v) -> tuple[np.ndarray, np.ndarray]:
        if isinstance(v, np.ndarray):
            rows = np.flatnonzero(v).astype(np.int32)
            return rows, v[rows]
        if not v:
            return _EMPTY_I, _EMPTY_F
        return (np.fromiter(v.keys(), dtype=np.int32, count=len(v)),
                np.fromiter(v.values(), dtype=_F32, count=len(v)))

    def _term_vec(self, term: Term) -> _TermVec:
        key = term.key
        tv = self._terms.get(key)
        if tv is not None:
            return tv
        n = len(self._desc)
        u = term.unit
        if u.phrase:
            alts = {u.joined: 1.0}
            for c_, q in u.concepts:
                alts[c_] = max(alts.get(c_, 0.0), q)
            parts = [self._accumulate(alts, n, float(len(u.stems)))]
            # partial credit: the phrase's words on their own, averaged
            words_ = [w for w in u.words if not lexical.is_stop(w)] or list(u.words)
            if len(words_) > 1:
                subs = []
                for w in words_:
                    st = lexical.stem(w)
                    a = self._word_alternatives(st, w, tuple(lexical.concepts_of_word(st).items()), fuzzy=False)
                    subs.append(self._accumulate(a, n))
                k = float(len(words_))
                if all(isinstance(p[0], dict) for p in subs + parts):
                    cs: dict[int, float] = {}
                    xs: dict[int, float] = {}
                    hs: dict[int, float] = {}
                    for cw, xw, hw in subs:
                        for r, v in cw.items():
                            cs[r] = cs.get(r, 0.0) + v / k
                        for r, v in xw.items():
                            xs[r] = xs.get(r, 0.0) + v / k
                        for r, v in hw.items():
                            hs[r] = hs.get(r, 0.0) + v
                    c, x, h = parts[0]
                    for r, v in cs.items():
                        if v > c.get(r, 0.0):
                            c[r] = v
                    for r, v in xs.items():
                        if v > x.get(r, 0.0):
                            x[r] = v
                    for r, v in hs.items():
                        if v > h.get(r, 0.0):
                            h[r] = v
                    parts = [(c, x, h)]
                else:
                    c, x, h = (self._dense(v, n) for v in parts[0])
                    cs = sum(self._dense(p[0], n) for p in subs) / k
                    xs = sum(self._dense(p[1], n) for p in subs) / k
                    hs = sum(self._dense(p[2], n) for p in subs)
                    parts = [(np.maximum(c, cs), np.maximum(x, xs), np.maximum(h, hs))]
            c, x, h = parts[0]
        else:
            alts = self._word_alternatives(u.stems[0], u.words[0], u.concepts, term.joins, fuzzy=not term.bonus)
            c, x, h = self._accumulate(alts, n)
        c_rows, c_vals = self._sparse(c)
        x_rows, x_vals = self._sparse(x)
        n_rows, n_vals = self._sparse(h)
        tv = _TermVec(c_rows, c_vals, n_rows, n_vals, x_rows, x_vals, int(c_rows.size), self._opposed(u, c_rows))
        self._terms.put(key, tv)
        return tv

    def _opposed(self, u, matched: np.ndarray) -> np.ndarray:
        """Rows whose own text carries an antonym of the unit and do not match the unit itself."""
        keys = {u.joined, *u.stems, *(c for c, q in u.concepts if q >= lexical.SYN_QUALITY)}
        opp: set[str] = set()
        for k in keys:
            o = lexical.OPPOSITES.get(k)
            if o:
                opp |= o
        if not opp:
            return _EMPTY_I
        rows: set[int] = set()
        for k in opp:
            p = self._content.get_list(k)
            if p:
                rows.update(p)
        if not rows:
            return _EMPTY_I
        rows.difference_update(matched.tolist())
        # a toggle does both: "hide my online status" is the "Show when I'm online" switch
        rows = {r for r in rows if self._desc[r].role.lower() not in _TOGGLE_ROLES}
        return np.fromiter(rows, dtype=np.int32, count=len(rows))

    def _role_vec(self, role_word: str) -> np.ndarray:
        v = self._roles_cache.get(role_word)
        if v is None:
            table = np.zeros(len(self._role_index), dtype=_F32)
            for r, s in vocab.ROLE_WORDS.get(role_word, {}).items():
                j = self._role_index.get(r)
                if j is not None:
                    table[j] = s
            v = table[self._role_ids]
            self._roles_cache[role_word] = v
        return v

    def _hint_vec(self, hints: dict[str, float]) -> np.ndarray:
        """Per element, how well its role fits the query's verb."""
        table = np.zeros(len(self._role_index), dtype=_F32)
        for r, s in hints.items():
            j = self._role_index.get(r)
            if j is not None:
                table[j] = s
        return table[self._role_ids]

    # ------------------------------------------------------------------ query embedding
    def _idf(self, df: int) -> float:
        return 1.0 + IDF_ALPHA * (self._log_n - math.log(1.0 + df))

    def _term_features(self, t: Term) -> np.ndarray:
        """Unweighted embedding contribution of one query term (cached across indexes)."""
        emb = self._emb
        key = (emb.dim, t.unit, t.role)
        v = _TERM_FEATURES.get(key)
        if v is not None:
            return v
        idx: list[np.ndarray] = []
        val: list[np.ndarray] = []
        si: list[int] = []
        sv: list[float] = []
        if t.role:
            for r, s_ in vocab.ROLE_WORDS.get(t.role, {}).items():
                if s_ >= 0.8:
                    i, sg = emb.feature_slot("r:" + r)
                    si.append(i)
                    sv.append(sg * 0.5)
        else:
            cs = t.unit.concepts
            norm = 1.0 / math.sqrt(len(cs)) if cs else 0.0
            for st in t.unit.stems:
                i, v_ = emb.stem_features(st)
                idx.append(i)
                val.append(v_)
            for c, q in cs:
                i, sg = emb.concept_slot(c)
                si.append(i)
                sv.append(sg * q * norm)
        if si:
            idx.append(np.array(si, dtype=np.int64))
            val.append(np.array(sv, dtype=_F32))
        if idx:
            v = np.bincount(np.concatenate(idx), weights=np.concatenate(val), minlength=emb.dim).astype(_F32)
        else:
            v = np.zeros(emb.dim, dtype=_F32)
        if len(_TERM_FEATURES) > 20000:
            _TERM_FEATURES.clear()
        _TERM_FEATURES[key] = v
        return v

    def _query_vector(self, pq: ParsedQuery, tvs: Sequence[_TermVec]) -> tuple[np.ndarray, np.ndarray, float]:
        """(own-text query vector, context query vector, weight of the own-text similarity).

        Context words of the query are compared with element context; the other words
        mostly with element text and a little (CONTEXT_LEAK) with element context too.
        """
        dim = self._emb.dim
        own = np.zeros(dim, dtype=_F32)
        ctx = np.zeros(dim, dtype=_F32)
        w_own = w_ctx = 0.0
        for t, tv in zip(pq.terms, tvs):
            w = t.weight * self._idf(tv.df)
            f = self._term_features(t)
            if (t.ctx or t.container) and not t.role:
                ctx += w * f
                w_ctx += w
            else:
                own += w * f
                w_own += w
                if tv.x_rows.size and not t.role:
                    # this word does occur in some element's context on this page
                    ctx += CONTEXT_LEAK * w * f
                    w_ctx += CONTEXT_LEAK * w
        for v in (own, ctx):
            nrm = float(np.sqrt(v @ v))
            if nrm > 0:
                v /= nrm
        total = w_own + w_ctx
        a = w_own / total if total > 0 else 1.0
        return own, ctx, a

    def _plan(self, query: str) -> _Plan:
        plan = self._plans.get(query)
        if plan is None:
            pq = parse_query_for_page(query, self._pairs)
            tvs = tuple(self._term_vec(t) for t in pq.terms)
            plan = _Plan(pq, self._query_vector(pq, tvs), tvs)
            self._plans.put(query, plan)
        return plan

    # ------------------------------------------------------------------ scoring
    def _lexical(self, terms: Sequence[Term], tvs: Sequence[_TermVec], *,
                 hints: dict[str, float] | None = None, lead: int | None = None,
                 action: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Lexical score vector and each element's prior (lifted where a role word asked for its role).

        All terms are scored at once: their strengths go into one (terms x elements) matrix
        with two scatters (own text, context), role words are max-ed in, and coverage is a
        pair of weighted sums.
        """
        n = len(self._desc)
        T = len(terms)
        if T == 0:
            return np.zeros(n, dtype=_F32), self._prior
        c_idx, c_val, c_fac, x_idx, x_val, x_fac, h_idx, h_val = [], [], [], [], [], [], [], []
        w = np.empty(T, dtype=_F32)
        bonus = np.zeros(T, dtype=bool)
        role_terms = []
        for k, (t, tv) in enumerate(zip(terms, tvs)):
            if tv.c_rows.size:
                c_idx.append(tv.c_rows + k * n)
                c_val.append(tv.c_vals)
                c_fac.append((CTX_OWN_FACTOR if t.ctx else 1.0, tv.c_rows.size))
            if t.role:
                role_terms.append((k, t.role))
            elif tv.x_rows.size:
                x_idx.append(tv.x_rows + k * n)
                x_val.append(tv.x_vals)
                x_fac.append((1.0 if (t.ctx or t.container) else CONTEXT_FACTOR, tv.x_rows.size))
            if tv.n_rows.size:
                h_idx.append(tv.n_rows)
                h_val.append(tv.n_vals)
            w[k] = t.weight * self._idf(tv.df)
            bonus[k] = t.bonus
        S = np.zeros((T, n), dtype=_F32)
        flat = S.reshape(-1)
        if c_idx:
            vals = np.concatenate(c_val)
            if any(f != 1.0 for f, _ in c_fac):
                vals = vals * np.repeat(np.array([f for f, _ in c_fac], dtype=_F32), [m for _, m in c_fac])
            flat[np.concatenate(c_idx)] = vals
        if x_idx:
            xi = np.concatenate(x_idx)
            xv = np.concatenate(x_val) * np.repeat(np.array([f for f, _ in x_fac], dtype=_F32), [m for _, m in x_fac])
            flat[xi] = np.maximum(flat[xi], xv)
        if lead is not None and lead < T and tvs[lead].c_rows.size:
            lrows = tvs[lead].c_rows[tvs[lead].c_vals >= 0.6]
            lrows = lrows[~self._static[lrows]]  # a control, not a static text that says the verb
            if lrows.size:
                lmask = np.zeros(n, dtype=bool)
                lmask[lrows] = True
                for k, (t, tv) in enumerate(zip(terms, tvs)):
                    if k == lead or t.role or t.ctx or t.container or not tv.x_rows.size:
                        continue
                    m = lmask[tv.x_rows]
                    if m.any():
                        r = tv.x_rows[m]
                        S[k, r] = np.maximum(S[k, r], tv.x_vals[m] * LEAD_VERB_CONTEXT)
        role_ok = None
        for k, rw in role_terms:
            # a role word describes the target itself: its role, or its own text ("menu")
            rv = self._role_vec(rw)
            np.maximum(S[k], rv, out=S[k])
            if rw not in vocab.WEAK_ROLE_WORDS:
                role_ok = rv if role_ok is None else np.maximum(role_ok, rv)
        if bonus.any():
            wb = np.where(bonus, w, 0.0).astype(_F32)
            num = w @ S
            den = wb @ S + float(w[~bonus].sum())
        else:
            num = w @ S
            den = float(w.sum())
        if hints:
            hv = self._hint_vec(hints) * VERB_HINT_WEIGHT
            num = num + hv
            den = den + hv
        qcov = num / np.maximum(den, 1e-9)
        if h_idx:
            hits = np.bincount(np.concatenate(h_idx), weights=np.concatenate(h_val), minlength=n)
            lex = qcov * (0.8 + 0.2 * (np.minimum(hits, self._n_name) / self._n_name))
        else:
            lex = qcov * 0.8
        prior = self._prior
        if hints:
            prior = np.where(self._static, prior * ACTION_NON_INTERACTIVE, prior).astype(_F32)
        if action and lead is not None and lead < T:
            # the element matches the object but not the (specific) action the query asks for
            # (an element that matches only the verb is fine: "play video" -> Play)
            others = [k for k, t in enumerate(terms) if k != lead and not t.bonus and not t.role]
            if others:
                missing = (S[lead] <= 0) & (S[others].max(axis=0) > 0)
                prior = np.where(missing, prior * MISSING_ACTION, prior).astype(_F32)
        if role_ok is not None:
            prior = np.where(role_ok > 0, np.maximum(prior, 1.0), prior * ROLE_MISMATCH)
        return lex.astype(_F32, copy=False), prior

    def _match_strength(self, terms: Sequence[Term]) -> np.ndarray:
        """Average max-strength of ``terms`` over own text, context and role (for exclusions)."""
        n = len(self._desc)
        tot = np.zeros(n, dtype=_F32)
        k = 0
        for t in terms:
            if t.bonus:
                continue
            tv = self._term_vec(t)
            s = np.zeros(n, dtype=_F32)
            if tv.c_rows.size:
                s[tv.c_rows] = tv.c_vals
            if tv.x_rows.size:
                s[tv.x_rows] = np.maximum(s[tv.x_rows], tv.x_vals)
            if t.role:
                np.maximum(s, self._role_vec(t.role), out=s)
            tot += s
            k += 1
        return tot / k if k else tot

    # ------------------------------------------------------------------ structure
    def _directional(self, dirs: tuple[str, ...], cand: np.ndarray) -> np.ndarray:
        """Position score in [0, 1] for each candidate row."""
        g = self._geom[cand]
        has = self._has_geom[cand]
        W, H = self._extent
        cx = (g[:, 0] + g[:, 2] / 2) / W
        cy = (g[:, 1] + g[:, 3] / 2) / H
        hints = self._pos_hints[cand]
        m = len(self._desc)
        order = cand.astype(_F32) / max(1, m - 1)
        parts = []
        for d in dirs:
            if d == "left":
                geo, fb = 1 - cx, hints[:, 0]
            elif d == "right":
                geo, fb = cx, hints[:, 1]
            elif d == "top":
                geo, fb = 1 - cy, np.where(hints[:, 2] != 0.5, hints[:, 2], 1 - order)
            elif d == "bottom":
                geo, fb = cy, np.where(hints[:, 3] != 0.5, hints[:, 3], order)
            else:  # center
                geo, fb = 1 - 2 * np.abs(cx - 0.5), np.full(cand.size, 0.5, dtype=_F32)
            parts.append(np.where(has, np.clip(geo, 0, 1), fb))
        return np.mean(parts, axis=0) if parts else np.ones(cand.size, dtype=_F32)

    def _relation(self, rel: str, anchor: int, cand: np.ndarray) -> np.ndarray:
        """Relation score in [0, 1] of each candidate row to the anchor row."""
        out = np.zeros(cand.size, dtype=_F32)
        if cand.size == 0:
            return out
        use_geo = bool(self._has_geom[anchor]) and bool(self._has_geom[cand].all())
        if use_geo:
            a = self._geom[anchor]
            g = self._geom[cand]
            acx, acy = a[0] + a[2] / 2, a[1] + a[3] / 2
            cx, cy = g[:, 0] + g[:, 2] / 2, g[:, 1] + g[:, 3] / 2
            dx, dy = cx - acx, cy - acy
            tol = 4.0
            if rel in ("below", "after"):
                ok, dist = dy > tol, dy + 0.5 * np.abs(dx)
            elif rel in ("above", "before"):
                ok, dist = dy < -tol, -dy + 0.5 * np.abs(dx)
            elif rel in ("left", "right"):
                same_row = (g[:, 1] < a[1] + max(a[3], 1.0)) & (g[:, 1] + np.maximum(g[:, 3], 1.0) > a[1])
                side = dx < -tol if rel == "left" else dx > tol
                ok = side & same_row
                if not ok.any():
                    ok = side
                dist = np.abs(dx) + 2.0 * np.abs(dy)
            else:
                ok, dist = np.ones(cand.size, dtype=bool), np.hypot(dx, dy)
        else:
            d = (cand - anchor).astype(_F32)
            if rel in ("below", "after", "right"):
                ok, dist = d > 0, d
            elif rel in ("above", "before", "left"):
                ok, dist = d < 0, -d
            else:
                ok, dist = d != 0, np.abs(d)
        ok &= cand != anchor
        if ok.any():
            dmin = float(np.min(dist[ok]))
            dmin = max(dmin, 1e-3)
            out[ok] = dmin / np.maximum(dist[ok], dmin)
        return out

    # ------------------------------------------------------------------ find
    def find(
        self,
        query: Any,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        top_k: int = DEFAULT_TOP_K,
        lexical_weight: float | None = None,
        embedding_weight: float | None = None,
        explain: bool = False,
    ) -> dict[str, Any]:
        """Match ``query`` against this snapshot; returns the ``POST /find`` response dict."""
        t0 = time.perf_counter()
        if not isinstance(query, str) or not query.strip():
            raise BadRequest("query is required", code="missing_query")
        threshold = _number(threshold, "threshold", "invalid_threshold")
        if not 0.0 <= threshold <= 1.0:
            raise BadRequest("threshold must be between 0 and 1", code="invalid_threshold")
        if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
            raise BadRequest("topK must be a positive integer", code="invalid_top_k")
        wl, we = _weights(lexical_weight, embedding_weight)
        n = len(self._desc)
        if n == 0:
            return self._result([], threshold, t0, 0, explain)
        plan = self._plan(query.strip())
        pq = plan.parsed
        lex, prior = self._lexical(pq.terms, plan.term_vecs, hints=pq.verb_hints, lead=pq.lead_verb,
                                   action=pq.action_verb)
        q_own, q_ctx, a = plan.qvec
        emb = self._matrix @ q_own
        if a < 1.0:
            emb = a * emb + (1.0 - a) * (self._ctx_matrix @ q_ctx)
        np.clip(emb, 0.0, 1.0, out=emb)
        composite = wl * lex + we * emb
        internal = max(0.05, 0.5 * threshold)
        keep = (lex >= internal) | (emb >= internal)
        score = np.where(keep, composite * prior, 0.0).astype(_F32)
        if self._outside_modal is not None and not any(t.ctx or t.container for t in pq.terms):
            score[self._outside_modal] *= OUTSIDE_MODAL
        # states: "the unchecked stops filter", "uncheck X" (X is checked now)
        for key, (want, factor) in pq.states.items():
            have = self._state(key)
            score[(have >= 0) & (have != int(want))] *= factor

        # a specific identifier the page does not contain ("INV-1024") -> nothing really matches
        for t, tv in zip(pq.terms, plan.term_vecs):
            if t.digits and tv.c_rows.size == 0 and tv.x_rows.size == 0:
                score *= MISSING_IDENTIFIER_PENALTY
            # the element says the opposite ("Write a review" for "read reviews")
            if tv.anti.size:
                score[tv.anti] *= ANTONYM_PENALTY
        # exclusions ("not in header", "except footer", "button not cancel")
        for group in pq.exclude:
            m = self._match_strength(group)
            score[m >= 0.5] = 0.0
        cand = np.flatnonzero(score > 0) if (pq.relation is not None or pq.directions) else None
        # relation to an anchor ("below password")
        if pq.relation is not None and cand.size:
            rel, aterms = pq.relation
            avecs = [self._term_vec(t) for t in aterms]
            alex, _ = self._lexical(aterms, avecs)
            anchor = int(np.argmax(alex))
            if alex[anchor] >= 0.3:
                r = self._relation(rel, anchor, cand)
                score[cand] *= 0.45 + 0.55 * r
                score[anchor] *= 0.3
        # position on the page ("on the left", "top right")
        if pq.directions and cand.size:
            p = self._directional(pq.directions, cand)
            score[cand] *= 0.6 + 0.4 * p
        # ordinal among the comparable matches (same role, similar lexical score), in document order
        if pq.ordinal is not None:
            live = np.flatnonzero(score > 0)
            if live.size:
                lp = lex[live] * prior[live] + score[live]
                lead = int(live[np.argmax(lp)])
                group = live[(lex[live] >= ORDINAL_GROUP * lex[lead]) & (self._role_ids[live] == self._role_ids[lead])]
                k = pq.ordinal
                if group.size >= abs(k):
                    top = float(score.max())
                    pick = int(group[k - 1] if k > 0 else group[k])
                    # the pick becomes the best match; everything else stays clearly below it
                    np.minimum(score, max(0.0, top - ORDINAL_MARGIN), out=score)
                    score[pick] = top
        np.clip(score, 0.0, 1.0, out=score)

        above = np.flatnonzero(score >= threshold) if threshold > 0 else np.flatnonzero(score > 0)
        pool = top_k + TIE_POOL
        if above.size > pool:
            part = np.argpartition(-score[above], pool - 1)[:pool]
            above = above[part]
        cands = above.tolist()
        self._settle_ties(cands, score, lex)
        order = sorted(cands, key=lambda i: (-float(score[i]), i))[:top_k]
        matches = []
        for i in order:
            d = self._desc[i]
            m = {"ref": d.ref, "score": round(float(score[i]), 4), "role": d.role, "name": d.name or d.primary}
            if explain:
                m["lexical_score"] = round(float(lex[i]), 4)
                m["embedding_score"] = round(float(emb[i]), 4)
                m["composite"] = round(float(composite[i]), 4)
            matches.append(m)
        return self._result(matches, threshold, t0, n, explain)

    @staticmethod
    def _settle_ties(cands: list[int], score: np.ndarray, lex: np.ndarray) -> None:
        """Equivalent matches (same lexical score, final scores within TIE_EPS, i.e. apart only
        by hashing noise) get the same score, so document order decides between them."""
        groups: dict[float, list[int]] = {}
        for i in cands:
            groups.setdefault(round(float(lex[i]), 4), []).append(i)
        for members in groups.values():
            if len(members) < 2:
                continue
            members.sort(key=lambda i: -float(score[i]))
            lead = float(score[members[0]])
            for i in members[1:]:
                if lead - float(score[i]) <= TIE_EPS:
                    score[i] = lead

    @staticmethod
    def _result(matches: list[dict], threshold: float, t0: float, n: int, explain: bool) -> dict[str, Any]:
        best = matches[0] if matches else None
        score = best["score"] if best else 0.0
        return {
            "best_ref": best["ref"] if best else "",
            "confidence": confidence_for(score) if best else "low",
            "score": score,
            "matches": matches,
            "strategy": STRATEGY,
            "threshold": threshold,
            "latency_ms": round((time.perf_counter() - t0) * 1000.0, 3),
            "element_count": n,
        }


def find(
    query: Any,
    elements: Iterable[Any] | None,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    top_k: int = DEFAULT_TOP_K,
    lexical_weight: float | None = None,
    embedding_weight: float | None = None,
    explain: bool = False,
) -> dict[str, Any]:
    """One-shot find: ``ElementIndex(elements).find(query, ...)`` (the query is validated first)."""
    if not isinstance(query, str) or not query.strip():
        raise BadRequest("query is required", code="missing_query")
    t0 = time.perf_counter()
    res = ElementIndex(elements).find(
        query, threshold=threshold, top_k=top_k, lexical_weight=lexical_weight,
        embedding_weight=embedding_weight, explain=explain,
    )
    res["latency_ms"] = round((time.perf_counter() - t0) * 1000.0, 3)
    return res
