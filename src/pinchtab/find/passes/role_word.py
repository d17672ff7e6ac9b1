"""A role word over a control named by the query's other words: "search field", "email box".

The query is "<words> <role word>" and the best match is a control of another kind whose own
name is nothing but those words ("Search" button): the lexical ranking takes the name's full
cover over the role. A person asking for the "search field" wants the field the words place,
here the text field in the "Search" form beside that button. This pass runs after scoring:

* the query has exactly one role word (``vocab.ROLE_WORDS``) and other words;
* the current best match is a control the role word hardly names (strength below ``WEAK``) and
  its own name's stems are all among the other words;
* a control the role word names fully (strength 1) whose own text or context (section, heading,
  parent, item) covers the other words is the candidate, own text counting double; exactly one
  must cover them best, and at least half.

That control then becomes the best match, just above the former best.
"""

from __future__ import annotations

import re

import numpy as np

from ..text import vocab
from ..text.lexical import stem
from ..weights import PASS_LIFT as LIFT
from .base import PassPage
from .shared import covers, unique_best

__all__ = ["apply"]

WEAK = 0.5
_FILLER = frozenset({"a", "an", "the", "my", "your", "our", "this", "that", "to", "in", "on", "of", "for", "please"})
_WORD = re.compile(r"[^\W_]+")


def _stems(s: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _WORD.findall(s.lower()))


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Lift the control the role word names over one named only by the query's other words."""
    words = [w for w in _WORD.findall(query.lower()) if w not in _FILLER]
    roles_said = [w for w in words if w in vocab.ROLE_WORDS]
    if len(roles_said) != 1 or len(words) < 2:
        return
    strength = vocab.ROLE_WORDS[roles_said[0]]
    rest = tuple(stem(w) for w in words if w != roles_said[0])
    best = int(np.argmax(score))
    d = page.descriptors[best]
    if score[best] <= 0 or page.static[best] or strength.get(d.role, 0.0) >= WEAK:
        return
    name = _stems(d.name)
    if not name or not name <= set(rest):
        return
    rows = [i for i, c in enumerate(page.descriptors)
            if strength.get(c.role, 0.0) >= 1.0 and not c.disabled and not page.static[i]]
    if not rows:
        return
    descs = [page.descriptors[i] for i in rows]
    own = [_stems(" ".join((c.name, c.label, c.placeholder, c.title))) for c in descs]
    around = [_stems(f"{c.section} {c.heading} {c.parent} {c.item}") for c in descs]
    tops, top = unique_best(rows, covers(rest, own, around))
    if top < 0.5 or len(tops) > 1:
        return
    score[tops[0]] = min(1.0, float(score[best]) + LIFT)
