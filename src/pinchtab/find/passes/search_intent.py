"""Searching for something: "find a song", "filter this playlist", "look for a hotel".

A search verb followed by an indefinite or demonstrative object asks for the search field, not
for an element that happens to name the object: "find a song" is not the "Liked Songs" link.
The lexical ranking cannot tell, since the object is what the other element says. This pass
runs after scoring:

* the query is "<find|search|filter> <a|an|this|for|some|any|another> <object>" or
  "look for|up <object>", with no role word (then the role decides: "find the login button");
* the current best match is not itself a search control (its own text says search, find or
  filter: "Search flights" for "search for flights" stays);
* a search field (a searchbox, or a text field or combobox whose own text says search, find or
  filter) is the candidate; with several, the one whose own text or context covers the object
  ("Search in playlist" for "filter this playlist"; own text counts double), else the first on the page (the site's
  own search usually comes first); two that cover the object equally are no guess.

That field then becomes the best match (just above the former best, or a low-confidence match
when nothing else matched).
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..text import vocab
from ..text.lexical import stem
from ..weights import PASS_LIFT as LIFT
from .base import PassPage
from .shared import covers, unique_best

__all__ = ["apply", "parse"]

VERBS = frozenset({"find", "search", "filter"})
# indefinite or demonstrative: "find a song" searches, "find the pricing page" names a thing
_DETS = frozenset({"a", "an", "this", "for", "some", "any", "another", "these", "other", "through"})
_FILLER = _DETS | frozenset({"the", "my", "our", "your", "of", "in", "on", "to", "please", "me", "new", "different"})
_SAYS_SEARCH = frozenset({"search", "find", "filter", "look", "lookup"})
_FIELD_ROLES = frozenset({"textbox", "combobox", "textarea", "input", "textfield"})
_WORD = re.compile(r"[^\W_]+")
ALONE = 0.45


def _words(s: str) -> list[str]:
    return _WORD.findall(s.lower())


@lru_cache(maxsize=4096)
def parse(query: str) -> tuple[str, ...] | None:
    """The object's stems of a search request, or None."""
    ws = _words(query)
    if len(ws) < 2:
        return None
    if ws[0] == "look" and ws[1] in ("for", "up"):
        rest = ws[2:]
    elif ws[0] in VERBS and ws[1] in _DETS:
        rest = ws[1:]
    elif ws[0] == "search" and len(ws) == 2 and stem(ws[1]) != ws[1] and ws[1].endswith("s"):
        rest = ws[1:]  # "search customers": a plural is as indefinite as "a customer"
    else:
        return None
    obj = tuple(stem(w) for w in rest if w not in _FILLER)
    if not obj or any(w in vocab.ROLE_WORDS or st in vocab.ROLE_WORDS for w, st in zip(rest, map(stem, rest))):
        return None
    return obj


class _Fields:
    """Per index: the search fields (rows, document order) with their own and context stems."""

    __slots__ = ("rows", "own", "around", "says")

    def __init__(self, descriptors) -> None:
        self.rows: list[int] = []
        self.own: list[frozenset[str]] = []
        self.around: list[frozenset[str]] = []
        self.says: list[bool] = []
        for i, d in enumerate(descriptors):
            own = _words(" ".join((d.name, d.label, d.placeholder, d.title, d.description)))
            says = bool(_SAYS_SEARCH & set(own))
            self.says.append(says)
            # a field in a search landmark searches too, whatever its placeholder says ("name, email")
            says_field = says or "search" in _words(d.section)
            if d.disabled or not (d.role == "searchbox" or (d.role in _FIELD_ROLES and says_field)):
                continue
            self.rows.append(i)
            self.own.append(frozenset(stem(w) for w in own))
            self.around.append(frozenset(stem(w) for w in _words(f"{d.item} {d.heading} {d.parent} {d.section}")))


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Lift the search field to the top for a search request."""
    static = page.static
    obj = parse(query)
    if obj is None:
        return
    fields = page.per_page("search_fields", _Fields)
    if not fields.rows:
        return
    best = int(np.argmax(score))
    if score[best] > 0 and fields.says[best] and not static[best] and (
            best in fields.rows or set(obj) & {stem(w) for w in _words(page.descriptors[best].name)}):
        return  # the best match is a search control already ("Search flights"; a bare "Search" button is not)
    # the object in the field's own text ("Search in playlist") counts more than around it
    tops, top = unique_best(fields.rows, covers(obj, fields.own, fields.around))
    if top > 0 and len(tops) > 1:
        return  # two fields search that: no guess
    pick = tops[0]
    if pick != best:
        score[pick] = min(1.0, max(float(score[best]) + LIFT, ALONE))
