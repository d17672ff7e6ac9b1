"""An open section is not the answer to a query for something inside it: "show only staff" is the
"Yes" choice under the open "By staff status" filter, not the filter's header.

A filter or accordion header names what its content is about, so it covers the query's words
best; clicking it would fold the section shut, and the choice asked for would be gone. This
pass runs after scoring: when the best match is an expanded control and the elements that
follow it (within ``REACH`` rows) have it as their parent, the answer is one of them: the one
whose own text covers the query's words the header lacks, or, for a yes/no/all choice (a
boolean filter), the one the query's polarity names ("only staff" -> Yes, "not staff" -> No,
"all users" -> All). None is lifted when the content does not settle it, nor when the query
acts on the section itself ("collapse the staff filter").
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..text.lexical import is_stop, stem
from .base import PassPage
from .shared import lift_sole_first

__all__ = ["apply", "polarity"]

REACH = 24
_WORD = re.compile(r"[^\W_]+")
_NEGATIVE = frozenset({"not", "non", "no", "without", "exclude", "excluding", "except", "un"})
# words that ask for the section's own header: folding it, opening it, naming it
_ON_SECTION = frozenset({"collapse", "fold", "close", "hide", "shrink", "minimize", "minimise", "toggle", "expand",
                         "open", "unfold", "header", "heading", "section", "accordion", "disclosure"})
_EVERY = frozenset({"all", "any", "every", "everyone", "everything", "both", "reset"})
_CHOICES = {"yes": "yes", "true": "yes", "no": "no", "false": "no", "all": "all", "any": "all"}


@lru_cache(maxsize=4096)
def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(text.lower()))


def polarity(query: str) -> str:
    """"no", "all" or "yes": which choice of a boolean filter the query asks for."""
    ws = set(_words(query))
    if ws & _NEGATIVE:
        return "no"
    if ws & _EVERY:
        return "all"
    return "yes"


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Hand an open section's pick to the element inside it the query names."""
    descriptors = page.descriptors
    best = int(np.argmax(score))
    d = descriptors[best]
    if score[best] <= 0 or d.states.get("expanded") is not True or page.static[best] or not d.name:
        return
    if _ON_SECTION & set(_words(query)):
        return
    inside = [i for i in range(best + 1, min(len(descriptors), best + 1 + REACH))
              if not page.static[i] and not descriptors[i].disabled
              and (descriptors[i].parent_ref == d.ref or descriptors[i].parent == d.name)]
    if not inside:
        return
    names = [" ".join(_words(descriptors[i].name or "")) for i in inside]
    if all(n in _CHOICES for n in names):
        want = polarity(query)
        cands = [(1.0, i) for n, i in zip(names, inside) if _CHOICES[n] == want]
        lift_sole_first(cands, score, best)
        return
    header = {stem(w) for w in _words(d.name)}
    rest = {stem(w) for w in _words(query) if not is_stop(w)} - header
    cands = []
    for i in inside:
        covered = sum(1 for w in _words(descriptors[i].name or "") if stem(w) in rest)
        if covered:
            cands.append((float(covered), i))
    lift_sole_first(cands, score, best)
