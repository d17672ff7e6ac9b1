"""Typos matched on word forms, not stems: "serings" -> "Servings", "reciepts" -> "Receipts".

The lexical side compares stems, and a misspelt word stems differently from the word it
misspells ("serings" -> "ser", "servings" -> "serv"; edit distance 2 between the stems, and
"ser" is too short to fuzz at all). So a word the page does not contain is also compared, as
typed, with the words of the elements' own text as written (edit distance 1: a transposition,
a missing, doubled or wrong letter, the first letter kept; 2 for words of 8+ letters, or for a letter typed two
places early or late - "sreach" for "search", the same letters at distance 2), and each hit is
answered with that word's stem, which the postings know.

The page's word forms (by length) are gathered once per index, lazily (on the first query
that needs them), from a per-text cache shared by indexes; candidates of about the right
length and letters are then checked with the edit distance.
"""

from __future__ import annotations

import re

from . import lexical

__all__ = ["surface_typos", "per_index", "MIN_LEN"]

MIN_LEN = 4
ANAGRAM_MIN = 5
_WORD = re.compile(r"[^\W\d_]+")


_TEXT_FORMS: dict[str, tuple[str, ...]] = {}  # text -> its word forms worth fuzzing (shared by indexes)
TEXT_CACHE_MAX = 50_000


def _text_forms(text: str) -> tuple[str, ...]:
    f = _TEXT_FORMS.get(text)
    if f is None:
        f = tuple(w for w in _WORD.findall(text.lower()) if MIN_LEN <= len(w) <= lexical.MAX_FUZZY_LEN)
        if len(_TEXT_FORMS) > TEXT_CACHE_MAX:
            _TEXT_FORMS.clear()
        _TEXT_FORMS[text] = f
    return f


class _PageForms:
    """The page's word forms, by length."""

    __slots__ = ("forms", "by_len")

    def __init__(self, descriptors) -> None:
        texts = {s for d in descriptors for s in (d.name, d.label, d.placeholder, d.title, d.description) if s}
        seen: set[str] = set().union(*map(_text_forms, texts)) if texts else set()
        by_len: dict[int, list[str]] = {}
        for w in seen:
            by_len.setdefault(len(w), []).append(w)
        self.forms = seen
        self.by_len = by_len


def per_index(owner, attr: str, build, descriptors):
    """``build(descriptors)``, made once and kept on ``owner`` (an object of one snapshot's index)."""
    v = getattr(owner, attr, None)
    if v is None:
        v = build(descriptors)
        setattr(owner, attr, v)
    return v


def surface_typos(owner, descriptors, raw: str) -> list[tuple[str, int]]:
    """(stem, distance) of the page words (of ``descriptors``) within a typo of ``raw`` as typed;
    the page's forms are kept on ``owner``."""
    raw = raw.lower()
    if len(raw) < MIN_LEN or not raw.isalpha():
        return []
    pf = per_index(owner, "_typo_forms", _PageForms, descriptors)
    if raw in pf.forms:
        return []
    limit = 2 if len(raw) >= 8 else 1
    letters = set(raw)
    cands: set[str] = set()
    for n in range(len(raw) - limit, len(raw) + limit + 1):
        for c in pf.by_len.get(n, ()):
            # a typo changes at most ``limit`` letters: a cheap filter before the distance
            # and keeps the first letter ("same" is not a typo of "name")
            if c[0] == raw[0] and len(letters.symmetric_difference(c)) <= 2 * limit:
                cands.add(c)
    moved: set[str] = set()
    if len(raw) >= ANAGRAM_MIN:
        key = sorted(raw)
        moved = {c for c in pf.by_len.get(len(raw), ()) if c[0] == raw[0] and sorted(c) == key}
    out: dict[str, int] = {}
    for c in cands | moved:
        dist = lexical.osa_distance(raw, c, 2)
        if dist <= limit or (c in moved and dist <= 2):
            st = lexical.stem(c)
            if dist < out.get(st, 99):
                out[st] = dist
    return list(out.items())
