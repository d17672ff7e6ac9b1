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
from functools import lru_cache

from . import english, fuzzy, lexical, vocab
from .synonyms import SYNONYMS

__all__ = ["surface_typos", "correct_query", "MIN_LEN"]

MIN_LEN = 4
ANAGRAM_MIN = 5
_WORD = re.compile(r"[^\W\d_]+")


_TEXT_FORMS: dict[str, tuple[str, ...]] = {}  # text -> its word forms worth fuzzing (shared by indexes)
TEXT_CACHE_MAX = 50_000


def _text_forms(text: str) -> tuple[str, ...]:
    f = _TEXT_FORMS.get(text)
    if f is None:
        f = tuple(w for w in _WORD.findall(text.lower()) if MIN_LEN <= len(w) <= fuzzy.MAX_FUZZY_LEN)
        if len(_TEXT_FORMS) > TEXT_CACHE_MAX:
            _TEXT_FORMS.clear()
        _TEXT_FORMS[text] = f
    return f


class _Forms:
    """Word forms, by length."""

    __slots__ = ("forms", "by_len")

    def __init__(self, seen: set[str]) -> None:
        by_len: dict[int, list[str]] = {}
        for w in seen:
            by_len.setdefault(len(w), []).append(w)
        self.forms = seen
        self.by_len = by_len


class _PageForms(_Forms):
    """The page's word forms (elements' own text), by length."""

    __slots__ = ()

    def __init__(self, descriptors) -> None:
        texts = {s for d in descriptors for s in (d.name, d.label, d.placeholder, d.title, d.description) if s}
        super().__init__(set().union(*map(_text_forms, texts)) if texts else set())


@lru_cache(maxsize=1)
def vocab_forms() -> _Forms:
    """The words a query is read with (role, ordinal, direction, container and state words,
    verbs, the synonym groups' words): "seond submit button", "btuton on the left"."""
    ws: set[str] = set()
    for group in (vocab.GENERIC_WORDS, vocab.LOW_WEIGHT_WORDS, vocab.VERB_ROLE_WORDS, vocab.STATE_WORDS,
                  vocab.STATE_VERBS, vocab.ORDINALS, vocab.NEGATION_WORDS, vocab.DIRECTION_WORDS,
                  vocab.DIRECTION_MARKERS, vocab.CONTAINER_WORDS, vocab.ROLE_WORDS, vocab.ACTION_VERBS,
                  vocab.VERB_ROLE_HINTS, vocab.STOP_WORDS):
        ws.update(group)
    for phrase in vocab.ROLE_PHRASES:
        ws.update(phrase)
    for _, _, members in SYNONYMS:
        for m in members:
            ws.update(m.split())
    return _Forms({w for w in ws if w.isalpha() and MIN_LEN <= len(w) <= fuzzy.MAX_FUZZY_LEN})


def _per_index(owner, attr: str, build, descriptors):
    """``build(descriptors)``, made once and kept on ``owner`` (an object of one snapshot's index)."""
    v = getattr(owner, attr, None)
    if v is None:
        v = build(descriptors)
        setattr(owner, attr, v)
    return v


def _near_forms(pf: _Forms, raw: str) -> dict[str, int]:
    """The forms of ``pf`` within a typo of ``raw`` (lowercase, as typed) -> the distance."""
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
        dist = fuzzy.osa_distance(raw, c, 2)
        if dist <= limit or (c in moved and dist <= 2):
            out[c] = dist
    return out


def surface_typos(owner, descriptors, raw: str) -> list[tuple[str, int]]:
    """(stem, distance) of the page words (of ``descriptors``) within a typo of ``raw`` as typed;
    the page's forms are kept on ``owner``."""
    raw = raw.lower()
    if len(raw) < MIN_LEN or not raw.isalpha():
        return []
    pf = _per_index(owner, "_typo_forms", _PageForms, descriptors)
    if raw in pf.forms:
        return []
    out: dict[str, int] = {}
    for c, dist in _near_forms(pf, raw).items():
        st = lexical.stem(c)
        if dist < out.get(st, 99):
            out[st] = dist
    return list(out.items())


@lru_cache(maxsize=4096)
def _suspects(query: str) -> tuple[str, ...]:
    """The words of ``query`` that may be misspelt, whatever the page: long enough, not words
    the vocabulary knows (lowercase; cached per text)."""
    voc = vocab_forms().forms
    out = []
    for w in _WORD.findall(query.lower()):
        if len(w) >= MIN_LEN and w not in voc and w not in lexical.KNOWN_STEMS:
            st = lexical.stem(w)
            if st not in lexical.KNOWN_STEMS and w not in out:
                out.append(w)
    return tuple(out)


def correct_query(owner, descriptors, query: str, on_page) -> str:
    """``query`` with each misspelt word replaced by the one word it is a typo of.

    A word is misspelt when it is neither on the page (``on_page(stem)``) nor a word the
    vocabulary knows, nor a common English word (:mod:`.english`), and exactly one word (one
    stem) is within a typo of it (at the least distance), among the page's words and the words
    queries are read with (:func:`vocab_forms`); with none or several it stays as typed (the
    term's own typo alternatives still apply). The whole query is then read as if spelt right:
    phrases form again ("traash can" -> "trash can"), an ordinal counts again ("thrid
    button"), and the word is embedded with the letters the page shares ("shufle" ->
    shuffle)."""
    fixes: dict[str, str] = {}
    for raw in _suspects(query):
        if on_page(lexical.stem(raw)):
            continue
        pf = _per_index(owner, "_typo_forms", _PageForms, descriptors)
        if raw in pf.forms:
            continue
        near = _near_forms(vocab_forms(), raw)
        near.update(_near_forms(pf, raw))
        if not near:
            continue
        best = min(near.values())
        at = [c for c, d in near.items() if d == best]
        if len({lexical.stem(c) for c in at}) != 1:
            continue  # "carx": the page's "Cart" or its "card"? no guess
        if english.is_english(raw):
            continue  # a word the page lacks, not a typo ("train" is not "Trail")
        fixes[raw] = min(at, key=lambda c: (len(c), c))
    if not fixes:
        return query
    return _WORD.sub(lambda m: fixes.get(m.group(0).lower(), m.group(0)), query)
