"""Lexical layer: normalisation, tokens, stems, stop words, synonym/abbreviation concepts,
role words and typo/prefix tolerance.

Element text and queries go through the same pipeline so that they meet on the same keys:

* ``stem``       - light suffix stripping ("bountied" -> "bounty", "logged" -> "log").
* ``compound``   - adjacent words joined ("Log Out" also yields "logout", "e-mail" -> "email").
* ``concept``    - synonym group id (``"c:login"`` for sign in / log in / login ...).

The scoring itself (vectorised over an index) lives in :mod:`pinchtab.find.index.terms`,
:mod:`pinchtab.find.scoring` and :mod:`pinchtab.find.matcher`; this module only turns text
into those keys (typo and prefix lookups are in :mod:`.fuzzy`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from . import vocab
from .numbers import NUMBER_SYNONYMS
from .synonyms import ANTONYMS, SYNONYMS

__all__ = [
    "normalize",
    "words",
    "stem",
    "TextKeys",
    "analyze_text",
    "Unit",
    "query_units",
    "concepts_of_word",
    "SYN_QUALITY",
    "REL_QUALITY",
]

SURFACE = "="       # key prefix for exact word forms
MAX_QUERY_WORDS = 64  # longer queries are cut (a description, not a document)
STEM_ONLY = 0.95    # a match on the stem only ("replies" for "reply")
SYN_QUALITY = 0.9   # query term matched an element through a synonym group
REL_QUALITY = 0.72  # ... through a looser "related" group

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_DIGIT_SEP = re.compile(r"(?<=\d)[,](?=\d{3}\b)")
_TOKEN = re.compile(r"\d+(?:\.\d+)?(?![^\W_])|[^\W_]+|[#@?$+×]")
_APOS = re.compile(r"(?<=[a-z])['’](?=[a-z])")
_POSS = re.compile(r"(?<=[a-z])['’]s\b")

# Words ignored inside phrases ("create an account" == "create account").
_PHRASE_IGNORABLE = frozenset("a an the my your our this that these those me us its their his her some please".split())


@lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """Unicode-normalise, split camelCase, lowercase; keeps word characters and a few symbols."""
    if not text:
        return ""
    t = unicodedata.normalize("NFKC", text)
    if not t.isascii():
        # fold accents ("sesión" -> "sesion"); other scripts are kept as they are
        t = "".join(c for c in unicodedata.normalize("NFKD", t) if not unicodedata.combining(c))
        t = unicodedata.normalize("NFKC", t)
    # each substitution only where its pattern can match (camelCase needs a capital, the
    # possessive an apostrophe, a digit group a comma): the same string, fewer regex scans
    lower = t.lower()
    t = _CAMEL.sub(" ", t).lower() if lower != t else lower
    t = t.replace("&", " and ").replace("\u00a0", " ").replace("…", " ")
    if "'" in t or "’" in t:
        t = _POSS.sub("", t)
        t = _APOS.sub("", t)
    if "," in t:
        t = _DIGIT_SEP.sub("", t)
    return t


def words(text: str) -> list[str]:
    """Lowercase word tokens (stop words included)."""
    return _TOKEN.findall(normalize(text))


_VOWELS = frozenset("aeiouy")


def _undouble(w: str) -> str:
    if len(w) >= 3 and w[-1] == w[-2] and w[-1] not in "lsz" and w[-1] not in _VOWELS:
        return w[:-1]
    return w


@lru_cache(maxsize=65536)
def stem(w: str) -> str:
    """Light English stemmer: plurals, -ing, -ed, final -e. Idempotent enough for matching."""
    if len(w) <= 3 or not w.isalpha() or w in vocab.STEM_EXCEPTIONS:
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("ied") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith(("sses", "ches", "shes", "xes", "zes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w in vocab.STEM_EXCEPTIONS:
        return w
    if w.endswith("ing") and len(w) >= 6:
        base = w[:-3]
        if len(base) >= 3 and any(c in _VOWELS for c in base):
            w = _undouble(base)
    elif w.endswith("ed") and len(w) >= 5 and w[-3] != "e":
        base = w[:-2]
        if len(base) >= 3 and any(c in _VOWELS for c in base):
            w = _undouble(base)
    if len(w) >= 4 and w.endswith("e") and w[-2] not in _VOWELS:
        w = w[:-1]
    return w


def _phrase_stems(text: str) -> tuple[str, ...]:
    return tuple(stem(t) for t in words(text) if t not in _PHRASE_IGNORABLE)


# ---------------------------------------------------------------------------------------
# Concept tables, built once at import from synonyms.SYNONYMS.
# ---------------------------------------------------------------------------------------
_WORD_CONCEPTS: dict[str, dict[str, float]] = {}
_PHRASES: dict[tuple[str, ...], dict[str, float]] = {}
_PHRASE_ROLE: dict[tuple[str, ...], str] = {}
_MAX_PHRASE = 1


def _add_concept(table: dict, key, cid: str, q: float) -> None:
    d = table.setdefault(key, {})
    if d.get(cid, 0.0) < q:
        d[cid] = q


_ROLE_TAILS = frozenset(stem(w) for w in vocab.ROLE_WORDS) | frozenset(vocab.ROLE_WORDS)
for _cid, _tier, _members in SYNONYMS + NUMBER_SYNONYMS:
    _q = SYN_QUALITY if _tier == "syn" else REL_QUALITY
    _cid = "c:" + _cid
    _member_stems = {_phrase_stems(m) for m in _members}
    for _m in _members:
        _st = _phrase_stems(_m)
        if not _st:
            _st = tuple(stem(t) for t in words(_m))
        if not _st:
            continue
        if len(_st) > 1 and _st[-1] in _ROLE_TAILS and _st[:-1] in _member_stems:
            # "search box" = "search" + a role word: let the role word do its job
            continue
        if len(_st) == 1:
            _add_concept(_WORD_CONCEPTS, _st[0], _cid, _q)
        else:
            _add_concept(_PHRASES, _st, _cid, _q)
            _MAX_PHRASE = max(_MAX_PHRASE, len(_st))
            # the joined form ("signin", "logout") carries the same concept
            _add_concept(_WORD_CONCEPTS, "".join(_st), _cid, _q)

for _ph, _role in vocab.ROLE_PHRASES.items():
    _st = tuple(stem(t) for t in _ph)
    _PHRASE_ROLE[_st] = _role
    _MAX_PHRASE = max(_MAX_PHRASE, len(_st))

# first stem of a phrase -> its longest phrase: most words start none, so most positions of
# a text are passed over with one dict lookup
_PHRASE_FIRST: dict[str, int] = {}
for _ph in (*_PHRASES, *_PHRASE_ROLE):
    _PHRASE_FIRST[_ph[0]] = max(_PHRASE_FIRST.get(_ph[0], 0), len(_ph))

_STOP = frozenset(vocab.STOP_WORDS)
_ROLE_WORD_STEMS: dict[str, str] = {}
for _rw in vocab.ROLE_WORDS:
    _ROLE_WORD_STEMS[stem(_rw)] = _rw
    _ROLE_WORD_STEMS[_rw] = _rw
for _rw in ("buttons", "links", "tabs", "fields", "inputs", "boxes", "checkboxes", "dropdowns", "menus", "options",
            "rows", "cells", "columns", "images", "icons", "toggles", "switches", "radios", "headings", "menuitems"):
    _ROLE_WORD_STEMS[stem(_rw)] = _ROLE_WORD_STEMS.get(stem(_rw[:-1]), _ROLE_WORD_STEMS.get(stem(_rw[:-2]), stem(_rw)))
_ROLE_WORD_STEMS = {k: v for k, v in _ROLE_WORD_STEMS.items() if v in vocab.ROLE_WORDS}
_GENERIC_STEMS = frozenset(stem(w) for w in vocab.GENERIC_WORDS) | frozenset(vocab.GENERIC_WORDS)
_CONTAINER_STEMS = frozenset(stem(w) for w in vocab.CONTAINER_WORDS) | frozenset(vocab.CONTAINER_WORDS)
# bonus-only concepts: verbs that say what to do, not which element
_GENERIC_CONCEPTS = frozenset({"c:enable", "c:disable", "c:open"})

KNOWN_STEMS: frozenset[str] = frozenset(_WORD_CONCEPTS) | frozenset(w for ph in _PHRASES for w in ph)


def concepts_of_word(st: str) -> dict[str, float]:
    return _WORD_CONCEPTS.get(st, {})


def is_stop(word: str) -> bool:
    """Stop word check on the raw (unstemmed) word."""
    return word in _STOP


def role_word(st: str) -> str | None:
    return _ROLE_WORD_STEMS.get(st)


def _match_phrases(stems: list[str]) -> list[tuple[int, int, dict[str, float] | None, str | None]]:
    """Greedy longest phrase matches over a stem sequence: (start, end, concepts, role)."""
    out = []
    i, n = 0, len(stems)
    first = _PHRASE_FIRST
    while i < n:
        hit = None
        for L in range(min(first.get(stems[i], 0), n - i), 1, -1):
            key = tuple(stems[i : i + L])
            c = _PHRASES.get(key)
            r = _PHRASE_ROLE.get(key)
            if c is not None or r is not None:
                hit = (i, i + L, c, r)
                break
        if hit:
            hit = _extend_overlap(stems, hit)
            out.append(hit)
            i = hit[1]
        else:
            i += 1
    return out


def _extend_overlap(stems: list[str], hit):
    """"play audio version": "play audio" and "audio version" overlap and mean the same
    thing, so they are one phrase (its last word is not left over as a word of its own)."""
    s, e, c, r = hit
    while c and r is None:
        nxt = None
        for L in range(min(_PHRASE_FIRST.get(stems[e - 1], 0), len(stems) - e + 1), 1, -1):
            c2 = _PHRASES.get(tuple(stems[e - 1 : e - 1 + L]))
            if c2 and any(q >= SYN_QUALITY and c2.get(k, 0.0) >= SYN_QUALITY for k, q in c.items()):
                nxt = (e - 1 + L, c2)
                break
        if nxt is None:
            break
        e = nxt[0]
        c = {k: max(q, nxt[1].get(k, 0.0)) for k, q in {**nxt[1], **c}.items()}
    return s, e, c, r


# ---------------------------------------------------------------------------------------
# Element text -> keys
# ---------------------------------------------------------------------------------------
@dataclass(slots=True)
class TextKeys:
    """Matching keys of one piece of element text."""

    stems: list[str] = field(default_factory=list)          # content stems, in order (no stop words)
    raw: list[str] = field(default_factory=list)            # the words those stems came from
    compounds: set[str] = field(default_factory=set)        # adjacent joins ("logout")
    concepts: dict[str, float] = field(default_factory=dict)  # concept key -> tier quality
    bigrams: set[tuple[str, str]] = field(default_factory=set)  # adjacent raw words, for literal checks

    def keys(self) -> set[str]:
        return set(self.stems) | self.compounds | set(self.concepts) | self.surface_keys()

    def surface_keys(self) -> set[str]:
        """``"=word"`` keys for words whose stem differs from the word (exact-form matching)."""
        return {SURFACE + w for w, st in zip(self.raw, self.stems) if w != st}


@lru_cache(maxsize=32768)
def analyze_text(text: str, *, joins: bool = True) -> TextKeys:
    """Tokens, compounds and concepts of a piece of element text (cached; treat as read-only)."""
    out = TextKeys()
    ws = words(text)
    if not ws:
        return out
    raw = [w for w in ws if w not in _STOP] or list(ws)  # a name of only stop words ("To") keeps them
    if len(ws) <= 3 and ws[0] in _STOP and ws[0] not in raw[:1] and ws[0] in _LEADING:
        raw = [ws[0], *raw]  # a short field label led by a preposition: "From account", "To account"
    elif 1 < len(ws) <= 4 and ws[-1] in _STOP and ws[-1] in _LEADING and raw and raw[-1] != ws[-1]:
        raw = [*raw, ws[-1]]  # ... or ended by one: "Quiet hours to", "Price from"
    content = [stem(w) for w in raw]
    out.stems = content
    out.raw = raw
    for st in content:
        c = _WORD_CONCEPTS.get(st)
        if c:
            for k, q in c.items():
                if out.concepts.get(k, 0.0) < q:
                    out.concepts[k] = q
    # phrases (ignorable words dropped, stop words kept: "log in", "sign up")
    ph_stems = [stem(w) for w in ws if w not in _PHRASE_IGNORABLE]
    for _s, _e, c, _r in _match_phrases(ph_stems):
        if c:
            for k, q in c.items():
                if out.concepts.get(k, 0.0) < q:
                    out.concepts[k] = q
    for i in range(len(ws) - 1):
        out.bigrams.add((ws[i], ws[i + 1]))
    if joins and len(ws) > 1:
        for i in range(len(ws) - 1):
            a, b = ws[i], ws[i + 1]
            if a.isalnum() and b.isalnum() and len(a) + len(b) <= 16:
                j = stem(a + b)
                out.compounds.add(j)
                c = _WORD_CONCEPTS.get(j)
                if c:
                    for k, q in c.items():
                        if out.concepts.get(k, 0.0) < q:
                            out.concepts[k] = q
    return out


# ---------------------------------------------------------------------------------------
# Query -> units
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Unit:
    """One meaningful piece of a query: a word, a recognised phrase, or a role word."""

    text: str                            # surface words joined by spaces
    words: tuple[str, ...]               # raw lowercase words
    stems: tuple[str, ...]               # content stems (for a phrase: its words minus stop words)
    concepts: tuple[tuple[str, float], ...]  # concept key -> quality
    joined: str                          # joined stem ("signin") for compound matching
    role: str | None = None              # role word key (vocab.ROLE_WORDS) if this is a role word/phrase
    stop: bool = False                   # stop word
    generic: bool = False                # bonus-only verb/filler
    container: bool = False              # section/container noun (header, dialog, menu...)
    phrase: bool = False
    owner: bool = False                  # possessor ("Emma's role"): names the context


_LEADING = frozenset({"from", "to", "via", "for", "until", "after", "before"})
_POSSESSOR = re.compile(r"\b([^\W_]+)['’]s\b")


_NTH = re.compile(r"^\d+(?:st|nd|rd|th)$")
_EVERY_PERIOD = frozenset("second seconds minute minutes hour hours day days week weeks month months year years "
                          "time times other".split())


@lru_cache(maxsize=4096)
def query_units(query: str) -> tuple[Unit, ...]:
    """Split a query into units; multi-word synonym and role phrases become single units."""
    ws = words(query)
    if not ws:
        return ()
    possessors = set(_POSSESSOR.findall(unicodedata.normalize("NFKC", query).lower()))
    keep: list[str] = []
    owned: list[bool] = []
    for k, w in enumerate(ws):
        if w in _PHRASE_IGNORABLE:
            continue
        if w == "every" and k + 1 < len(ws) and ws[k + 1] not in _EVERY_PERIOD:
            w = "all"  # "select every customer" is "select all" ("every month" is a period)
        elif w not in vocab.ORDINALS and _NTH.match(w):
            w = w[:-2]  # "pick the 15th": a day of a month, past the ordinals that count elements
        keep.append(w)
        owned.append(w in possessors)
    if not keep:
        keep, owned = list(ws), [False] * len(ws)
    keep, owned = keep[:MAX_QUERY_WORDS], owned[:MAX_QUERY_WORDS]
    stems = [stem(w) for w in keep]
    matches = {m[0]: m for m in _match_phrases(stems)}
    units: list[Unit] = []
    i = 0
    while i < len(keep):
        m = matches.get(i)
        if m is not None:
            s, e, c, r = m
            wds = tuple(keep[s:e])
            sts = tuple(stem(x) for x in wds if x not in _STOP) or tuple(stems[s:e])
            joined = "".join(stems[s:e])
            concepts = dict(c or {})
            jc = _WORD_CONCEPTS.get(joined)
            if jc:
                for k, q in jc.items():
                    concepts[k] = max(concepts.get(k, 0.0), q)
            # "turn off": a phrase made of generic verbs and particles says what to do, like "disable"
            generic = ((bool(concepts) and all(k in _GENERIC_CONCEPTS for k in concepts))
                       or all(x in _STOP or stem(x) in _GENERIC_STEMS for x in wds))
            units.append(
                Unit(
                    text=" ".join(wds), words=wds, stems=sts, concepts=tuple(sorted(concepts.items())), joined=joined,
                    role=r, phrase=True, generic=generic, owner=owned[s],
                )
            )
            i = e
            continue
        w, st = keep[i], stems[i]
        concepts = _WORD_CONCEPTS.get(st, {})
        stop = w in _STOP
        generic = (st in _GENERIC_STEMS or w in vocab.GENERIC_WORDS) and not stop
        role = _ROLE_WORD_STEMS.get(st) or _ROLE_WORD_STEMS.get(w)
        if w == "select" and 0 < i == len(keep) - 1 and units and not units[-1].stop and not units[-1].generic:
            # "the product select", "country select": a noun after what it holds is the dropdown
            generic, role = False, "dropdown"
        units.append(
            Unit(
                text=w, words=(w,), stems=(st,), concepts=tuple(sorted(concepts.items())), joined=st,
                role=role, stop=stop,
                generic=generic,
                container=st in _CONTAINER_STEMS, owner=owned[i],
            )
        )
        i += 1
    return tuple(units)


def _side_keys(text: str) -> frozenset[str]:
    """Keys that identify one side of an antonym pair: its stem(s)/joined form and syn concepts."""
    st = _phrase_stems(text) or tuple(stem(t) for t in words(text))
    keys = {"".join(st)}
    if len(st) == 1:
        keys |= {c for c, q in _WORD_CONCEPTS.get(st[0], {}).items() if q >= SYN_QUALITY}
    else:
        keys |= {c for c, q in _PHRASES.get(st, {}).items() if q >= SYN_QUALITY}
    return frozenset(keys)


# key -> keys of its opposites
OPPOSITES: dict[str, frozenset[str]] = {}
for _a, _b in ANTONYMS:
    _ka, _kb = _side_keys(_a), _side_keys(_b)
    _shared = _ka & _kb
    _ka, _kb = _ka - _shared, _kb - _shared
    for _k in _ka:
        OPPOSITES[_k] = OPPOSITES.get(_k, frozenset()) | _kb
    for _k in _kb:
        OPPOSITES[_k] = OPPOSITES.get(_k, frozenset()) | _ka
