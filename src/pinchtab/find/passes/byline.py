"""The author of an article or post is the name its byline gives: "author name link" is the
"Daniela Morales" link after the text "By", "author profile" the link in the "Byline" block.

A byline names its author without the word: the link holds a person's name, and what says it
is the author is the text before it ("By", "Written by", "Posted by") or the block around it
(a parent or section named "Byline"). No query word matches the link's own text, so the
lexical ranking leaves it at the bottom. This pass runs after scoring:

* the query has an author word (``AUTHOR``; not "reporter" or "journalist", which a query names
  as often as recipients: "send a tip to reporters") and the best match's own text does not (a
  "Become an author" link keeps its place);
* a control right after a static text that is a byline's opening, or inside a block named
  "Byline", is a candidate; exactly one must cover the query's other words best (its own text
  counting fully, its context half).

That control then becomes the best match: just above the former best, and at least ``ALONE`` (a
low-confidence match) when nothing else matched.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..text import vocab
from ..text.lexical import is_stop, stem
from ..weights import PASS_LIFT as LIFT
from .base import PassPage
from .shared import covers, unique_best

__all__ = ["apply"]

AUTHOR = frozenset(stem(w) for w in ("author", "authors", "writer", "byline"))
ALONE = 0.45
_OPENINGS = frozenset({"by", "by:", "written by", "posted by", "words by", "story by", "reported by"})
_WORD = re.compile(r"[^\W_]+")
_BYLINE = stem("byline")


@lru_cache(maxsize=4096)
def _query(query: str) -> tuple[bool, tuple[str, ...]]:
    """(whether the query names an author, its other words as stems)."""
    ws = [w for w in _WORD.findall(query.lower()) if not is_stop(w) and w not in vocab.ROLE_WORDS]
    stems = [stem(w) for w in ws]
    return any(s in AUTHOR for s in stems), tuple(s for s in stems if s not in AUTHOR)


@lru_cache(maxsize=16384)
def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _WORD.findall(text.lower()))


def _bylines(descriptors, static) -> list[int]:
    """Rows of controls a byline names as an author (once per page)."""
    out = []
    for i, d in enumerate(descriptors):
        if static[i]:
            continue
        prev = descriptors[i - 1] if i else None
        opened = prev is not None and static[i - 1] and " ".join(prev.name.lower().split()) in _OPENINGS
        if opened or _BYLINE in _stems(f"{d.parent} {d.section}"):
            out.append(i)
    return out


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Lift the control a byline names when the query asks for the author."""
    asks, rest = _query(query)
    if not asks:
        return
    descriptors = page.descriptors
    best = int(np.argmax(score))
    if AUTHOR & _stems(f"{descriptors[best].name} {descriptors[best].label}"):
        return
    rows = page.per_page("bylines", lambda descs: _bylines(descs, page.static))
    if not rows:
        return
    if rest:
        own = [_stems(descriptors[i].name) for i in rows]
        around = [_stems(f"{descriptors[i].parent} {descriptors[i].section} {descriptors[i].heading} {descriptors[i].item}")
                  for i in rows]
        tops, _ = unique_best(rows, covers(rest, own, around))
    else:
        tops = rows
    if len(tops) != 1:
        return
    pick = tops[0]
    above = float(score[best]) + (LIFT if pick != best else 0.0)
    score[pick] = min(1.0, max(above, ALONE))
