"""Writing something: "write a review", "type a message", "fill in the note".

A verb of text entry followed by what is written asks for the field to write it in. The field
often says nothing of it in its own text (a review box labelled "Tried it? Share your tips"),
while the button that sends it does ("Post review"), so the lexical ranking picks the button.
This pass runs after scoring:

* the query opens with ``VERBS`` and names an object ("a review");
* the current best match is not a text field, and its own text does not say the verb (a
  "Write a review" button that opens the form stays);
* a text field (textbox, textarea) whose own text or context (section, heading, parent, item)
  covers the object is the candidate, own text counting double; exactly one must cover it best.

That field then becomes the best match, just above the former best.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..text.lexical import stem
from ..weights import PASS_LIFT as LIFT
from .base import PassPage
from .shared import covers, unique_best

__all__ = ["apply", "parse"]

VERBS = frozenset({"write", "type", "fill"})  # not "enter" ("enter the chat" goes in)
_FILLER = frozenset({"a", "an", "the", "my", "your", "our", "this", "some", "in", "out", "into", "here", "please",
                     "new", "short", "quick"})
_FIELD_ROLES = frozenset({"textbox", "textarea"})
_WORD = re.compile(r"[^\W_]+")


def _words(s: str) -> list[str]:
    return _WORD.findall(s.lower())


@lru_cache(maxsize=4096)
def parse(query: str) -> tuple[str, tuple[str, ...]] | None:
    """(verb, the object's stems) of a request to write something, or None."""
    ws = _words(query)
    if len(ws) < 2 or ws[0] not in VERBS or ws[1] in ("of", "s"):
        return None  # "type of payment" names a field, it does not ask to type
    obj = tuple(stem(w) for w in ws[1:] if w not in _FILLER)
    return (ws[0], obj) if obj else None


class _Fields:
    """Per index: own words of every element; text fields with own and context stems."""

    __slots__ = ("own_words", "rows", "own", "around")

    def __init__(self, descriptors) -> None:
        self.own_words: list[frozenset[str]] = []
        self.rows: list[int] = []
        self.own: list[frozenset[str]] = []
        self.around: list[frozenset[str]] = []
        for i, d in enumerate(descriptors):
            own = _words(" ".join((d.name, d.label, d.placeholder, d.title, d.description)))
            self.own_words.append(frozenset(own))
            if d.disabled or d.role not in _FIELD_ROLES:
                continue
            self.rows.append(i)
            self.own.append(frozenset(stem(w) for w in own))
            self.around.append(frozenset(stem(w) for w in _words(f"{d.section} {d.heading} {d.parent} {d.item}")))


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Lift the field to write in to the top."""
    descriptors = page.descriptors
    parsed = parse(query)
    if parsed is None:
        return
    verb, obj = parsed
    best = int(np.argmax(score))
    if score[best] <= 0 or descriptors[best].role in _FIELD_ROLES:
        return
    fields = page.per_page("text_fields", _Fields)
    if not fields.rows or verb in fields.own_words[best]:
        return
    tops, top = unique_best(fields.rows, covers(obj, fields.own, fields.around))
    if top <= 0 or len(tops) > 1:
        return
    score[tops[0]] = min(1.0, float(score[best]) + LIFT)
