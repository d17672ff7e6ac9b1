"""A control over a text that only says the query's words: "member list" is the "View all 14
members" button, not the "Members" heading above the list; "I'm allowed to work in the EU" is the
"Yes" radio of that question, not the question's text.

A heading or a label names what the controls under it are about, so it covers the query's
words as well as they do, and its short name is covered better. But a person asks find for
something to act on: a heading is the answer only when the query asks for one by a role word
("Members heading"). This pass runs after scoring:

* the best match is a text that says things (a heading, a text, a paragraph, a label: not a
  cell, whose value is what "Emma's role" asks for) and no role word of the query names its role;
* a control (not disabled) within ``MARGIN`` of it whose own label and context (section,
  heading, parent, item) hold at least as many of the query's words as the text's own and
  context do is a candidate;

the best-scored candidate then becomes the best match, just above the text.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..index.descriptors import ElementDescriptor
from ..text import vocab
from ..text.lexical import is_stop, stem
from ..weights import PASS_LIFT as LIFT
from .base import PassPage

__all__ = ["apply"]

MARGIN = 0.2
# roles of texts that say what is around them; a cell's text is a value a query may ask for
_SAYING = frozenset({"heading", "text", "statictext", "paragraph", "label"})
_WORD = re.compile(r"[^\W_]+")


@lru_cache(maxsize=4096)
def _query(query: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """(the query's stems but stop words, its role words)."""
    ws = _WORD.findall(query.lower())
    return frozenset(stem(w) for w in ws if not is_stop(w)), tuple(w for w in ws if w in vocab.ROLE_WORDS)


@lru_cache(maxsize=16384)
def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _WORD.findall(text.lower()))


def _said(d: ElementDescriptor) -> frozenset[str]:
    """The stems of an element's label and of what is around it."""
    return _stems(" ".join((d.name, d.label, d.title, d.section, d.heading, d.parent, d.item)))


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Hand a text's pick to the close control that says as much of the query."""
    descriptors, static = page.descriptors, page.static
    best = int(np.argmax(score))
    top = float(score[best])
    if top <= 0 or not static[best] or descriptors[best].role not in _SAYING:
        return
    q, roles = _query(query)
    role = descriptors[best].role
    if any(vocab.ROLE_WORDS[r].get(role, 0.0) > 0 for r in roles):
        return
    need = max(1, len(q & _said(descriptors[best])))
    near = np.flatnonzero(score >= top - MARGIN)
    picks = [(float(score[i]), -i) for i in near.tolist()
             if i != best and not static[i] and not descriptors[i].disabled and len(q & _said(descriptors[i])) >= need]
    if picks:
        score[-max(picks)[1]] = min(1.0, top + LIFT)
