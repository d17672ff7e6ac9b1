"""A control the page leaves unnamed, found by the kind of thing the query asks for and the words
just before it: "minimum units slider" is the unnamed slider under the "Minimum units" field,
"SQL editor" the unnamed code editor under the "Custom SQL query" heading.

Widget libraries draw sliders, code editors and date inputs whose accessible name is empty; a
person names them by what they are and by the caption above them. Scoring cannot match them
(they have no words), so a labelled neighbour of another kind wins ("Minimum units", a number
field; "Run SQL", a button). This pass runs after scoring: when the query names a kind of
control (a strong role word) that the best match is not, an unnamed control of that kind whose
caption (the nearest text before it, within ``REACH`` rows, and its heading) covers the query's
other words takes its place; two that cover as much leave the scores alone.

Two unnamed controls of one kind side by side are the two ends of a range (a range slider's
handles, a date range's inputs): "end year slider handle" is the second, "start ..." the first.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..text import vocab
from ..text.lexical import is_stop, role_word, stem
from .base import PassPage
from .shared import lift_sole_first

__all__ = ["apply", "parse"]

FITS = 0.8   # a role word fits a role it maps to at least this strongly
REACH = 16   # rows back to look for a caption (a slider's tick marks come between)
_WORD = re.compile(r"[^\W_]+")
_NUMBER = re.compile(r"^[\d\s.,:%+\-–]*$")
# words for a range's ends
_UPPER = frozenset(stem(w) for w in ("end", "max", "maximum", "upper", "high", "higher", "until"))
_LOWER = frozenset(stem(w) for w in ("start", "min", "minimum", "lower", "low", "begin", "beginning"))


@lru_cache(maxsize=4096)
def parse(query: str) -> tuple[frozenset[str], tuple[str, ...]] | None:
    """(the roles the query's kind word fits, the stems of its other words), or None when it
    names no strong kind of control or nothing else."""
    roles: set[str] = set()
    rest: list[str] = []
    for w in _WORD.findall(query.lower()):
        st = stem(w)
        rw = role_word(st) or (w if w in vocab.ROLE_WORDS else None)
        if rw and rw not in vocab.WEAK_ROLE_WORDS:
            roles.update(r for r, s in vocab.ROLE_WORDS[rw].items() if s >= FITS)
        elif not is_stop(w):
            rest.append(st)
    if not roles or not rest:
        return None
    return frozenset(roles), tuple(dict.fromkeys(rest))


def _unnamed(d) -> bool:
    return not (d.name or d.label or d.placeholder or d.title or d.description)


def _unnamed_rows(descriptors) -> list[int]:
    """Rows of the page's enabled controls that have no name of any kind."""
    return [i for i, d in enumerate(descriptors) if d.interactive is not False and not d.disabled and _unnamed(d)]


@lru_cache(maxsize=16384)
def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _WORD.findall(text.lower()))


def _caption(descriptors, i: int) -> frozenset[str]:
    """Stems of the nearest worded text before row ``i`` (numbers, a slider's ticks, skipped)
    and of its heading."""
    words = _stems(descriptors[i].heading or "")
    for j in range(i - 1, max(-1, i - 1 - REACH), -1):
        t = descriptors[j].primary
        if t and not _NUMBER.match(t):
            return words | _stems(t)
    return words


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Lift the unnamed control of the kind asked for whose caption covers the query."""
    got = parse(query)
    if got is None:
        return
    roles, rest = got
    descriptors = page.descriptors
    best = int(np.argmax(score))
    if score[best] <= 0:
        return
    if descriptors[best].role in roles:
        _range_end(page, rest, score, best)
        return
    cands: list[tuple[float, int]] = []
    for i in page.per_page("unnamed_controls", _unnamed_rows):
        if descriptors[i].role in roles:
            cap = _caption(descriptors, i)
            covered = sum(1 for w in rest if w in cap)
            if covered:
                cands.append((float(covered), i))
    if cands:
        most = max(c for c, _ in cands)
        if most == len(rest) or most >= 2:
            lift_sole_first([c for c in cands if c[0] == most], score, best)


def _range_end(page: PassPage, rest: tuple[str, ...], score: np.ndarray, best: int) -> None:
    """The best is one of two unnamed controls of its kind side by side: the end the query
    names ("end", "max"; "start", "min") picks which."""
    upper, lower = bool(_UPPER.intersection(rest)), bool(_LOWER.intersection(rest))
    if upper == lower:
        return
    descriptors = page.descriptors
    role = descriptors[best].role
    # (the first handle may have the caption before it as its label; neither has a name)
    pair = [j for j in (best - 1, best + 1) if 0 <= j < len(descriptors) and descriptors[j].role == role
            and not descriptors[j].name and not descriptors[j].disabled]
    if len(pair) != 1 or descriptors[best].name:
        return
    want = max(best, pair[0]) if upper else min(best, pair[0])
    if want != best:
        lift_sole_first([(1.0, want)], score, best)
