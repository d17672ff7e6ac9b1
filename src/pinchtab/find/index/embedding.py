"""Hashing embedder: a model-free sentence vector for fuzzy similarity.

Features of a piece of text are hashed (stable CRC32, signed) into a fixed number of
dimensions and the vector is L2-normalised:

* ``w:<stem>``     - each content word (stemmed), weight 1
* ``c:<concept>``  - synonym concepts, so "log in" and "sign in" share mass
* ``g:<trigram>``  - character trigrams of each word ("#pas", "pas", ... "rd#"), which
                     gives typo and sub-word tolerance ("pasword", "config"/"configuration")
* ``r:<role>``     - the element's role (weakly)

The matcher keeps two vectors per element, one of its own text (name, aria-label,
placeholder, description, value, role) and one of its context (parent, section, heading,
ancestors); a query is split the same way, words it puts in context ("in the footer",
"Emma's") being compared with element context only. So context the query never mentions
cannot add noise, and context it does mention cannot be matched by a label.
Similarity is the (clipped) cosine, computed for all elements at once as one
matrix-vector product over a prebuilt ``float32`` matrix.
"""

from __future__ import annotations

import math
import threading
import zlib
from functools import lru_cache
from typing import Iterable

import numpy as np

from ..text.lexical import analyze_text

__all__ = ["HashingEmbedder", "DEFAULT_DIM"]

DEFAULT_DIM = 256
NUMBER_WEIGHT = 0.3
MAX_TRIGRAM_WORD = 40  # trigrams of very long tokens (URLs, hashes) are taken from their start only
TEXT_CACHE_MAX = 8_192
# embedder configuration -> (stem features, word pairs, text features) caches
_SHARED: dict[tuple, tuple[dict, dict, dict]] = {}


SCRATCH_MAX = 4 << 20  # bytes of float64 row sums kept per thread between index builds
_SCRATCH = threading.local()


def _scratch(size: int) -> np.ndarray:
    """``size`` float64 zeros in this thread's reused buffer (``size * 8 <= SCRATCH_MAX``)."""
    buf = getattr(_SCRATCH, "buf", None)
    if buf is None or buf.size < size:
        buf = _SCRATCH.buf = np.empty(max(size, 1 << 14), dtype=np.float64)
    out = buf[:size]
    out.fill(0.0)
    return out


@lru_cache(maxsize=200_000)
def _slot(feature: str, dim: int) -> tuple[int, float]:
    h = zlib.crc32(feature.encode("utf-8"))
    return (h % dim, 1.0 if (h >> 31) & 1 else -1.0)


@lru_cache(maxsize=50_000)
def _trigrams(st: str) -> tuple[str, ...]:
    w = f"#{st[:MAX_TRIGRAM_WORD]}#"
    if len(w) < 3:
        return ()
    return tuple(w[i : i + 3] for i in range(len(w) - 2))


@lru_cache(maxsize=50_000)
def _word_slots(st: str, ns: str, dim: int) -> tuple[tuple[int, ...], tuple[float, ...], bool]:
    """``_slot`` of a word's features: the word's, then each of its trigrams', as (slots,
    signs, whether the slots are distinct)."""
    pre = ns + "g:"
    pairs = [_slot(ns + "w:" + st, dim), *[_slot(pre + t, dim) for t in _trigrams(st)]]
    slots = tuple([i for i, _ in pairs])
    return slots, tuple([s for _, s in pairs]), len(set(slots)) == len(slots)


class HashingEmbedder:
    """Feature-hashing text embedder (no model, no downloads, deterministic across runs)."""

    def __init__(self, dim: int = DEFAULT_DIM, *, word_weight: float = 1.0, concept_weight: float = 0.7,
                 trigram_weight: float = 1.0) -> None:
        if dim < 16:
            raise ValueError("dim must be >= 16")
        self.dim = dim
        self.word_weight = word_weight
        self.concept_weight = concept_weight
        self.trigram_weight = trigram_weight
        # caches depend only on the configuration: embedders configured alike share them, so
        # the per-snapshot indexes (one embedder each) reuse what earlier snapshots computed
        caches = _SHARED.get((dim, word_weight, concept_weight, trigram_weight))
        if caches is None:
            caches = _SHARED.setdefault((dim, word_weight, concept_weight, trigram_weight), ({}, {}, {}))
        self._stem_cache: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = caches[0]
        self._pairs_cache: dict[tuple[str, str], tuple[tuple[int, ...], tuple[float, ...]]] = caches[1]
        self._text_cache: dict[tuple[str, float], tuple[tuple[int, ...], tuple[float, ...]]] = caches[2]

    # -- feature accumulation -------------------------------------------------------------
    def _word_pairs(self, st: str, ns: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """(slots, signed unit weights) of a word: the word itself and its trigrams."""
        key = (st, ns)
        pairs = self._pairs_cache.get(key)
        if pairs is None:
            slots, signs, distinct = _word_slots(st, ns, self.dim)
            ntri = len(slots) - 1
            tw = self.trigram_weight / math.sqrt(ntri) if ntri else 0.0
            if distinct and tw != 0.0:
                # no two features share a slot: each value is its own (0.0 + x is x for x != 0)
                pairs = (slots, (signs[0] * self.word_weight, *[s * tw for s in signs[1:]]))
            else:
                out: dict[int, float] = {slots[0]: signs[0] * self.word_weight}
                get = out.get
                for i, s in zip(slots[1:], signs[1:]):
                    out[i] = get(i, 0.0) + s * tw
                pairs = (tuple(out), tuple(out.values()))
            if len(self._pairs_cache) > 200_000:
                self._pairs_cache.clear()
            self._pairs_cache[key] = pairs
        return pairs

    def add_stem(self, acc: dict[int, float], st: str, weight: float, ns: str = "") -> None:
        get = acc.get
        for i, v in zip(*self._word_pairs(st, ns)):
            acc[i] = get(i, 0.0) + v * weight

    def add_concept(self, acc: dict[int, float], concept: str, weight: float, ns: str = "") -> None:
        i, s = _slot(ns + concept, self.dim)
        acc[i] = acc.get(i, 0.0) + s * weight * self.concept_weight

    def add_feature(self, acc: dict[int, float], feature: str, weight: float) -> None:
        i, s = _slot(feature, self.dim)
        acc[i] = acc.get(i, 0.0) + s * weight

    def add_text(self, acc: dict[int, float], text: str, weight: float, ns: str = "", scale=None) -> None:
        """Add a text's features; ``ns`` namespaces them, ``scale(stem)`` (e.g. an idf) weighs words."""
        if not text or weight <= 0:
            return
        keys = analyze_text(text)
        for st in keys.stems:
            # counts, badges and symbols ("Reviews (42)", "$890") say little about what an element is
            w = weight if st[0].isalpha() else weight * NUMBER_WEIGHT
            self.add_stem(acc, st, w * scale(st) if scale is not None else w, ns)
        if keys.concepts:
            norm = 1.0 / math.sqrt(len(keys.concepts))
            for c, q in keys.concepts.items():
                self.add_concept(acc, c, weight * q * norm, ns)

    def text_features(self, text: str, weight: float) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """What ``add_text(acc, text, weight)`` adds, in order: (slots, values).

        Summing the values into their slots in this order (``np.bincount``) gives exactly the
        floats ``add_text`` accumulates. Cached per (text, weight); the index build keeps a
        copy, so the cache is small.
        """
        key = (text, weight)
        f = self._text_cache.get(key)
        if f is not None:
            return f
        slots: list[int] = []
        vals: list[float] = []
        if text and weight > 0:
            keys = analyze_text(text)
            pairs = self._word_pairs
            for st in keys.stems:
                w = weight if st[0].isalpha() else weight * NUMBER_WEIGHT
                ps, pv = pairs(st, "")
                slots += ps
                vals += [v * w for v in pv]
            if keys.concepts:
                norm = 1.0 / math.sqrt(len(keys.concepts))
                cw = self.concept_weight
                for c, q in keys.concepts.items():
                    i, s = _slot(c, self.dim)
                    slots.append(i)
                    vals.append(s * (weight * q * norm) * cw)
        f = (tuple(slots), tuple(vals))
        if len(self._text_cache) > TEXT_CACHE_MAX:
            self._text_cache.clear()
        self._text_cache[key] = f
        return f

    def feature_features(self, feature: str, weight: float) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """What ``add_feature(acc, feature, weight)`` adds, as ``text_features`` does."""
        i, s = _slot(feature, self.dim)
        return (i,), (s * weight,)

    def matrix_from_features(self, n: int, rows: np.ndarray, slots: np.ndarray, vals: np.ndarray) -> np.ndarray:
        """``matrix`` of ``n`` rows from (row, slot, value) triples listed in accumulation order:
        the same floats as adding them into per-row dicts (``add_text``...) and ``matrix``."""
        dim = self.dim
        if n == 0:
            return np.zeros((0, dim), dtype=np.float32)
        flat = rows * dim
        flat += slots
        size = n * dim
        if size * 8 > SCRATCH_MAX:
            m = np.bincount(flat, weights=vals, minlength=size).astype(np.float32).reshape(n, dim)
            sq = m * m
        else:
            # the float64 sums (and the squares below) go to a buffer kept between builds: a
            # fresh one of this size would be mapped anew and cost a page fault per 4 KiB.
            # ``add.at`` adds in input order, as ``bincount`` does: the same sums.
            buf = _scratch(size)
            np.add.at(buf, flat, vals)
            m = buf.astype(np.float32).reshape(n, dim)
            sq = np.multiply(m, m, out=buf.view(np.float32)[:size].reshape(n, dim))
        norms = np.sqrt(np.add.reduce(sq, axis=1))  # np.linalg.norm(m, axis=1), without its checks
        norms[norms == 0] = 1.0
        m /= norms[:, None]
        return m

    # -- cached sparse features (query side) --------------------------------------------------
    def stem_features(self, st: str, ns: str = "") -> tuple[np.ndarray, np.ndarray]:
        """(slots, signed unit weights) of a word: what ``add_stem(acc, st, 1.0, ns)`` adds."""
        key = (st, ns)
        f = self._stem_cache.get(key)
        if f is None:
            acc: dict[int, float] = {}
            self.add_stem(acc, st, 1.0, ns)
            f = (np.fromiter(acc.keys(), dtype=np.int64, count=len(acc)),
                 np.fromiter(acc.values(), dtype=np.float32, count=len(acc)))
            if len(self._stem_cache) > 50_000:
                self._stem_cache.clear()
            self._stem_cache[key] = f
        return f

    def concept_slot(self, concept: str, ns: str = "") -> tuple[int, float]:
        i, s = _slot(ns + concept, self.dim)
        return i, s * self.concept_weight

    def feature_slot(self, feature: str) -> tuple[int, float]:
        return _slot(feature, self.dim)

    # -- vectors ----------------------------------------------------------------------------
    def dense(self, acc: dict[int, float]) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        if acc:
            idx = np.fromiter(acc.keys(), dtype=np.int64, count=len(acc))
            val = np.fromiter(acc.values(), dtype=np.float32, count=len(acc))
            v[idx] = val
            n = float(np.linalg.norm(v))
            if n > 0:
                v /= n
        return v

    def embed(self, text: str) -> np.ndarray:
        """Vector of a plain piece of text."""
        acc: dict[int, float] = {}
        self.add_text(acc, text, 1.0)
        return self.dense(acc)

    def embed_many(self, texts: Iterable[str]) -> np.ndarray:
        rows = [self.embed(t) for t in texts]
        if not rows:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack(rows)

    def matrix(self, accs: list[dict[int, float]]) -> np.ndarray:
        """Stack feature dicts into an L2-normalised ``(n, dim)`` float32 matrix."""
        m = np.zeros((len(accs), self.dim), dtype=np.float32)
        for r, acc in enumerate(accs):
            if acc:
                m[r, list(acc.keys())] = list(acc.values())
        norms = np.linalg.norm(m, axis=1)
        norms[norms == 0] = 1.0
        m /= norms[:, None]
        return m
