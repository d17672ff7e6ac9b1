"""Typo and prefix tolerance: edit distance, and symmetric-delete indexes over a vocabulary
(:class:`FuzzyIndex` over a fixed one, :class:`GrowingFuzzyIndex` over every word pages have
shown, asked about one page's subset).
"""

from __future__ import annotations

import threading

from .lexical import KNOWN_STEMS

__all__ = ["FuzzyIndex", "GrowingFuzzyIndex", "GLOBAL_FUZZY", "MAX_FUZZY_LEN", "fuzzy_word", "osa_distance"]

MAX_FUZZY_LEN = 40    # no typo search for longer "words"


def osa_distance(a: str, b: str, limit: int = 2) -> int:
    """Optimal-string-alignment (Damerau) distance, early exit above ``limit``."""
    if a == b:
        return 0
    la, lb = len(a), len(b)
    if abs(la - lb) > limit:
        return limit + 1
    prev2: list[int] | None = None
    prev = list(range(lb + 1))
    for i in range(1, la + 1):
        cur = [i] + [0] * lb
        best = cur[0]
        ai = a[i - 1]
        for j in range(1, lb + 1):
            cost = 0 if ai == b[j - 1] else 1
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and ai == b[j - 2] and a[i - 2] == b[j - 1]:
                v = min(v, prev2[j - 2] + 1)
            cur[j] = v
            if v < best:
                best = v
        if best > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[lb]


def _deletes(w: str) -> set[str]:
    return {w[:i] + w[i + 1 :] for i in range(len(w))}


class FuzzyIndex:
    """Symmetric-delete index over a vocabulary: typo (edit distance 1, 2 for long words)
    and prefix lookups in time independent of the vocabulary size."""

    __slots__ = ("_vocab", "_dels", "_sorted")

    def __init__(self, vocabulary) -> None:
        self._vocab = {w for w in vocabulary if 3 <= len(w) <= MAX_FUZZY_LEN and w.isalpha()}
        dels: dict[str, list[str]] = {}
        for w in self._vocab:
            if len(w) >= 4:
                for d in _deletes(w):
                    dels.setdefault(d, []).append(w)
        self._dels = dels
        self._sorted = sorted(self._vocab)

    def __contains__(self, w: str) -> bool:
        return w in self._vocab

    def typos(self, w: str) -> list[tuple[str, int]]:
        """Vocabulary words within edit distance 1 (2 for words of 8+ letters)."""
        if len(w) < 4 or len(w) > MAX_FUZZY_LEN or not w.isalpha():
            return []
        limit = 2 if len(w) >= 8 else 1
        cands: set[str] = set(self._dels.get(w, ()))
        for d in _deletes(w):
            if d in self._vocab:
                cands.add(d)
            cands.update(self._dels.get(d, ()))
        out = []
        for c in cands:
            if c == w or len(c) < 4:
                continue
            dist = osa_distance(w, c, limit)
            if dist <= limit:
                out.append((c, dist))
        return out

    def completions(self, prefix: str, limit: int = 8) -> list[str]:
        """Vocabulary words that start with ``prefix`` (and are longer)."""
        import bisect

        out = []
        i = bisect.bisect_right(self._sorted, prefix)
        while i < len(self._sorted) and len(out) < limit:
            w = self._sorted[i]
            if not w.startswith(prefix):
                break
            out.append(w)
            i += 1
        return out

    def prefixes_of(self, w: str, min_len: int = 3) -> list[str]:
        """Vocabulary words that are proper prefixes of ``w`` (abbreviations on the page)."""
        return [w[:k] for k in range(min_len, len(w)) if w[:k] in self._vocab]


GLOBAL_FUZZY = FuzzyIndex(w for w in KNOWN_STEMS if len(w) >= 4)


def fuzzy_word(w: str) -> bool:
    """Whether the typo index takes ``w`` (3-40 letters)."""
    return 3 <= len(w) <= MAX_FUZZY_LEN and w.isalpha()


class GrowingFuzzyIndex:
    """A :class:`FuzzyIndex` over a vocabulary that only grows (every word the pages of the
    process have shown), queried for a subset of it: ``typos``/``completions``/``prefixes_of``
    with ``contains`` (membership in the subset, e.g. one page's words) answer exactly as a
    ``FuzzyIndex`` built over that subset would. Adding words is incremental, so a page whose
    words were seen before (the next snapshot of the same page) costs nothing.

    Additions hold a lock; lookups need none (what they read is replaced, never changed in
    place).
    """

    __slots__ = ("_dels", "_sorted", "_lock", "size")

    def __init__(self) -> None:
        self._dels: dict[str, tuple[str, ...]] = {}
        self._sorted: list[str] = []
        self._lock = threading.Lock()
        self.size = 0

    def add(self, new_words) -> None:
        """Add words not added before (each must pass :func:`fuzzy_word`)."""
        new_words = sorted(new_words)
        if not new_words:
            return
        with self._lock:
            dels = self._dels
            for w in new_words:
                if len(w) >= 4:
                    for d in _deletes(w):
                        # tuples, not lists: the garbage collector stops tracking them
                        dels[d] = dels.get(d, ()) + (w,)
            # two sorted runs: timsort merges them in linear time
            self._sorted = sorted(self._sorted + new_words)
            self.size += len(new_words)

    def typos(self, w: str, contains) -> list[tuple[str, int]]:
        """``FuzzyIndex(subset).typos(w)``."""
        if len(w) < 4 or len(w) > MAX_FUZZY_LEN or not w.isalpha():
            return []
        limit = 2 if len(w) >= 8 else 1
        dels = self._dels
        cands: set[str] = set(dels.get(w, ()))
        for d in _deletes(w):
            if len(d) >= 3:
                cands.add(d)  # a word of the subset? checked below with the others
            cands.update(dels.get(d, ()))
        out = []
        for c in cands:
            if c == w or len(c) < 4 or not contains(c):
                continue
            dist = osa_distance(w, c, limit)
            if dist <= limit:
                out.append((c, dist))
        return out

    def completions(self, prefix: str, contains, limit: int = 8) -> list[str]:
        """``FuzzyIndex(subset).completions(prefix, limit)``."""
        import bisect

        words_ = self._sorted
        out = []
        i = bisect.bisect_right(words_, prefix)
        while i < len(words_) and len(out) < limit:
            w = words_[i]
            if not w.startswith(prefix):
                break
            if contains(w):
                out.append(w)
            i += 1
        return out

    @staticmethod
    def prefixes_of(w: str, contains, min_len: int = 3) -> list[str]:
        """``FuzzyIndex(subset).prefixes_of(w, min_len)``."""
        return [w[:k] for k in range(min_len, len(w)) if contains(w[:k])]
