"""Per-text caches of find's index build: what each distinct text contributes.

What a piece of text contributes to an element - its postings and its embedding features -
depends only on the text and its field weight, and pages repeat their texts (table rows,
"Edit" buttons, the section and parent of hundreds of elements), as do consecutive snapshots
of one page. So each distinct text (role, context...) becomes a "part" once: its posting keys
(interned to ids) and values, and its embedding (slot, value) pairs, appended to flat arrays
of a bounded process-wide cache (:class:`PartCache`, one per embedder configuration).
Building an index (:mod:`.pageindex`) is then a loop that lists the part ids of each element,
and a few vectorised numpy operations over :class:`PartArrays` that gather the parts' arrays,
sort and max-merge the postings and sum the embedding features. The result is the same,
float for float, as posting into per-key dicts and summing feature dicts element by element.
"""

from __future__ import annotations

import itertools
import re
import threading
from dataclasses import dataclass

import numpy as np

from ..text import fuzzy, lexical, vocab
from ..text.lexical import analyze_text
from ..weights import (
    CTX_EMB_ANCESTOR,
    CTX_EMB_ITEM,
    CTX_EMB_PARENT,
    CTX_EMB_SECTION,
    F_HREF,
    F_ROLE_TEXT,
    Q_COMPOUND,
    X_ANCESTOR,
    X_ANCESTOR_ROLE,
    X_HEADING,
    X_ITEM,
    X_PARENT,
    X_SECTION,
)
from .embedding import HashingEmbedder

__all__ = ["PartCache", "PartArrays", "part_cache", "SPEC_CACHE_MAX", "SPEC_ARENA_MAX"]

SPEC_CACHE_MAX = 50_000      # cached parts, or posting keys; past either a fresh cache starts
SPEC_ARENA_MAX = 2_000_000   # ... or this many posting entries / embedding features
_CAPS = re.compile(r"\b[A-Z]{2,5}\b")
_META_WIDTH = 8


class Arena:
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


@dataclass(frozen=True, slots=True)
class PartArrays:
    """The arenas of a :class:`PartCache` at one moment; row ``p`` of the per-part columns
    describes part ``p`` (its runs in the arenas are ``[off, off + len)``)."""

    keys: np.ndarray      # posting key ids (int32), all parts' runs
    codes: np.ndarray     # posting value codes into ``values`` (int32), parallel to ``keys``
    slots: np.ndarray     # embedding feature slots (int32)
    fvals: np.ndarray     # embedding feature values (float64), parallel to ``slots``
    values: np.ndarray    # value code -> posting value (float64)
    bigrams: np.ndarray   # adjacent word pair ids (int32)
    kinds: np.ndarray     # key id -> 0 concept/exact-form key, 1 word, 2 word the typo index takes (int8)
    k_off: np.ndarray     # per part: its run in keys/codes
    k_len: np.ndarray
    e_off: np.ndarray     # ... in slots/fvals
    e_len: np.ndarray
    b_off: np.ndarray     # ... in bigrams
    b_len: np.ndarray
    hint: np.ndarray      # ... its position hint code (``PartCache.hints``; 0 none)
    has_caps: np.ndarray  # ... 1 if it has abbreviations (``PartCache.caps``)


class PartCache:
    """Interned posting keys, and the parts of texts, roles and contexts (one cache per
    embedder configuration, shared by the indexes of the process; thread-safe)."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.strs: list[str] = []
        self.kinds: list[int] = []  # 0 concept/exact-form key, 1 word, 2 word the typo index takes
        self.kinds_a = Arena(np.int8, runs=False)  # ... as an array
        self.vcodes: dict[float, int] = {}
        self.vtable = Arena(np.float64, 64, runs=False)
        # arenas: posting key ids and value codes, embedding slots and values, bigram ids
        self.keys = Arena(np.int32, 1 << 14)
        self.codes = Arena(np.int32, 1 << 14)
        self.slots = Arena(np.int32, 1 << 15)
        self.fvals = Arena(np.float64, 1 << 15)
        self.bigrams = Arena(np.int32)
        self.bigram_ids: dict[tuple[str, str], int] = {}
        # per part (a row): its runs in the arenas (offset, length: keys and codes, embedding,
        # bigrams), position hint code, whether it has abbreviations (``caps``)
        self.meta = Arena(np.int64, runs=False, width=_META_WIDTH)
        self.caps: list[tuple[str, ...]] = []
        self.pairs: list[tuple[int, ...]] = []  # per part: its bigram ids (small pages read these)
        self.fuzzy = fuzzy.GrowingFuzzyIndex()  # over the typo-index words interned so far
        self.fuzzy_upto = 0
        # position hints (left, right, top, bottom) contexts give; code 0 is "none"
        self.hints: list[tuple[float, float, float, float]] = [(0.5, 0.5, 0.5, 0.5)]
        self.hint_codes: dict[tuple, int] = {self.hints[0]: 0}
        self.posts: dict[tuple, tuple[tuple[int, ...], tuple[float, ...]]] = {}
        self.plans: dict[tuple, tuple[tuple[int, ...], tuple[float, ...]]] = {}  # (text, joins) -> ``_keys_of``
        self.owns: dict[tuple, int] = {}
        self.own_of: dict[str, int] = {}  # text -> one of its own parts (they have the same keys)
        self.roles: dict[str, int] = {}
        self.hrefs: dict[str, int] = {}
        self.contexts: dict[tuple, int] = {}
        self.names: dict[str, tuple[int, int]] = {}
        # an element's own texts -> its own parts, name part, name size, primary text (pageindex)
        self.elements: dict[tuple, tuple] = {}
        self.lock = threading.RLock()
        self._arenas = (self.keys, self.codes, self.slots, self.fvals, self.vtable, self.bigrams, self.kinds_a, self.meta)
        self._arrays: PartArrays | None = None  # the last view made by ``arrays``

    def full(self) -> bool:
        return (len(self.caps) > SPEC_CACHE_MAX or len(self.strs) > SPEC_CACHE_MAX or len(self.posts) > SPEC_CACHE_MAX
                or len(self.plans) > SPEC_CACHE_MAX or len(self.elements) > SPEC_CACHE_MAX or len(self.keys) > SPEC_ARENA_MAX or len(self.slots) > SPEC_ARENA_MAX)

    def typo_index(self) -> fuzzy.GrowingFuzzyIndex:
        """The typo index, once the words interned so far are in it. Made up to date on a
        lookup rather than at every build: most queries never fuzz a word, and a page never
        seen adds ~1,000 words (their deletes) to it."""
        if self.fuzzy_upto < len(self.strs):
            with self.lock:
                strs, kinds = self.strs, self.kinds
                self.fuzzy.add([strs[j] for j in range(self.fuzzy_upto, len(strs)) if kinds[j] == 2])
                self.fuzzy_upto = len(strs)
        return self.fuzzy

    def arrays(self) -> PartArrays:
        """The arenas as they are now (a consistent view: parts are only ever appended)."""
        with self.lock:
            ka = self.kinds_a
            if len(ka) < len(self.kinds):  # the kinds of the keys interned since the last view
                ka.pend.extend(self.kinds[len(ka):])
                ka.pn = len(self.kinds) - ka.n
            last = self._arrays
            if last is not None and not any(a.pn for a in self._arenas):
                return last  # nothing appended since (the same page again): the same view
            meta = self.meta.flush()
            last = self._arrays = PartArrays(
                keys=self.keys.flush(), codes=self.codes.flush(), slots=self.slots.flush(), fvals=self.fvals.flush(),
                values=self.vtable.flush(), bigrams=self.bigrams.flush(), kinds=self.kinds_a.flush(),
                k_off=meta[:, 0], k_len=meta[:, 1], e_off=meta[:, 2], e_len=meta[:, 3], b_off=meta[:, 4],
                b_len=meta[:, 5], hint=meta[:, 6], has_caps=meta[:, 7])
            return last

    def _ids(self, keys) -> list[int]:
        ids, strs, kinds = self.ids, self.strs, self.kinds
        out = []
        prefixes, longest = ("c:", lexical.SURFACE), fuzzy.MAX_FUZZY_LEN
        for k in keys:
            j = ids.get(k)
            if j is None:
                # kind 2: ``fuzzy.fuzzy_word(k)``
                kinds.append(0 if k.startswith(prefixes) else (2 if 3 <= len(k) <= longest and k.isalpha() else 1))
                j = ids[k] = len(strs)
                strs.append(k)
            out.append(j)
        return out

    def _part(self, keys: list[int], vals, slots=(), fvals=(), bigrams=(), caps: tuple[str, ...] = (),
              hint: tuple | None = None) -> int:
        """Register a part (call with the lock held); returns its id."""
        if vals:
            vc = self.vcodes
            codes = [vc.get(v) for v in vals]  # a few distinct values (weights x match kinds)
            if None in codes:
                for t, v in enumerate(vals):
                    if codes[t] is None:
                        c = vc.get(v)
                        codes[t] = c if c is not None else vc.setdefault(v, self.vtable.push1(v))
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
        self.pairs.append(tuple(bl))
        return len(self.caps) - 1

    def _keys_of(self, text: str, joins: bool) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """The posting keys of ``text`` (ids, in the order ``post`` makes them) and per key the
        factor of the field weight its value is (1, ``STEM_ONLY`` or ``Q_COMPOUND``: the
        largest of its matches). Call with the lock held."""
        p = self.plans.get((text, joins))
        if p is None:
            keys = analyze_text(text) if joins else analyze_text(text, joins=False)
            items: dict[str, float] = {}
            get = items.get
            stem_only, surface = lexical.STEM_ONLY, lexical.SURFACE
            for raw, k in zip(keys.raw, keys.stems):
                if raw == k:
                    if get(k, 0.0) < 1.0:
                        items[k] = 1.0
                else:
                    if get(k, 0.0) < stem_only:
                        items[k] = stem_only
                    items[surface + raw] = 1.0
            if joins:
                for k in keys.compounds:
                    if get(k, 0.0) < Q_COMPOUND:
                        items[k] = Q_COMPOUND
            for k in keys.concepts:
                items[k] = 1.0
            p = self.plans[(text, joins)] = (tuple(self._ids(items)), tuple(items.values()))
        return p

    def post(self, text: str, w: float, joins: bool) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """``post(table, analyze_text(text, joins=joins), row, w, with_compounds=joins)`` as
        (key ids, values): per key the largest value. A text's keys are worked out once
        (``_keys_of``), whatever the weight: with ``w > 0`` the largest of ``w * f`` is ``w``
        times the largest ``f`` (rounding is monotonic), so the values are the same floats."""
        p = self.posts.get((text, w, joins))
        if p is not None:
            return p
        with self.lock:
            if w > 0:
                ids, fs = self._keys_of(text, joins)
                p = (ids, tuple([w * f for f in fs]))  # w * 1.0 is w
            else:
                p = ((), ())  # no value beats the 0 a missing key has
            self.posts[(text, w, joins)] = p
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
                if w > 0:  # (a part of no weight has no keys)
                    self.own_of.setdefault(text, p)
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
                hint=pos_hint(section, parent, ancestors, anc_roles))
        return p

    def name(self, text: str) -> tuple[int, int]:
        """Part holding the name keys of an element whose primary text is ``text``, and its
        name size."""
        with self.lock:
            nm = self.names.get(text)
            if nm is None:
                pk = analyze_text(text)
                words_ = {st for st in pk.stems if not st[0].isdigit()} or set(pk.stems)
                # its keys are ``pk.keys()``, those ``post`` makes of it with the compounds: the
                # keys of an own part of the text, whatever its weight (the names table reads
                # a part's keys only), else a part of them
                p = self.own_of.get(text)
                if p is None:
                    p = self._part(list(self._keys_of(text, True)[0]), [])
                nm = self.names[text] = (p, max(1, len(words_)))
        return nm


PART_CACHES: dict[tuple, PartCache] = {}


def part_cache(emb: HashingEmbedder) -> PartCache:
    cfg = (emb.dim, emb.word_weight, emb.concept_weight, emb.trigram_weight)
    s = PART_CACHES.get(cfg)
    if s is None or s.full():
        s = PART_CACHES[cfg] = PartCache()  # indexes being built keep the one they hold
    return s


_HEADER_WORDS = ("header", "banner", "top bar", "topbar", "navbar", "masthead")
_FOOTER_WORDS = ("footer", "contentinfo", "bottom")
_LEFT_WORDS = ("sidebar", "side bar", "sidenav", "complementary", "left")


def pos_hint(section: str, parent: str, ancestors: tuple[str, ...], anc_roles: tuple[str, ...]) -> tuple | None:
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
