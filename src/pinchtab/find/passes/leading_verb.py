"""Near-ties settled by the word a label opens with: "merge button" is "Merge pull request", not
"Select merge method".

A control's label usually opens with what it does. When the best match opens with an action
the query does not ask for ("Select ...", "Delete ...") and a close runner-up of the same role
(within ``MARGIN``) opens with the query's first word, the runner-up does what was asked and
the best only mentions it: the runner-up becomes the best match. Only near-ties move; a clear
lexical lead stays.

Likewise a label that says "all" does more than a query that does not ask for all: "Choose" is
"Choose selected permissions", not its neighbour "Choose all permissions" (a close runner-up of
the same role, opening with the same word, without "all").
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..text import vocab
from ..text.lexical import stem
from ..weights import PASS_LIFT as LIFT
from .base import PassPage

__all__ = ["apply"]

MARGIN = 0.06
# the "all" rule's: a wider action is a stronger sign of the wrong control than an opening verb
# (and the narrower control is often disabled until something is selected, which costs it)
ALL_MARGIN = 0.1
# words a label opens with that name an action
_ACTIONS = frozenset(stem(w) for w in vocab.ACTION_VERBS | set(vocab.VERB_ROLE_HINTS) | {
    "select", "choose", "pick", "view", "show", "open", "manage", "change", "set", "go", "see"})
_WORD = re.compile(r"[^\W_]+")
# words that widen an action to every item
_ALL = frozenset(stem(w) for w in ("all", "every", "everything", "entire", "whole"))


@lru_cache(maxsize=4096)
def _query_stems(query: str) -> tuple[str, frozenset[str]]:
    """(the query's first word, all its words), stemmed."""
    ws = [stem(w) for w in _WORD.findall(query.lower())]
    return (ws[0] if ws else ""), frozenset(ws)


@lru_cache(maxsize=16384)
def _first_stem(name: str) -> str:
    m = _WORD.search(name.lower())
    return stem(m.group(0)) if m else ""


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Settle a near-tie by the labels' first words."""
    descriptors, static = page.descriptors, page.static
    best = int(np.argmax(score))
    top = float(score[best])
    if top <= 0:
        return
    lead, q = _query_stems(query)
    fb = _first_stem(descriptors[best].name or "")
    if fb in q and not (_ALL & q) and _ALL & _name_stems(descriptors[best].name or ""):
        _narrower(page, score, best, fb)
        return
    if fb not in _ACTIONS or fb in q or static[best]:
        return
    near = np.flatnonzero(score >= top - MARGIN)
    role = descriptors[best].role
    picks = [i for i in near.tolist()
             if i != best and not static[i] and descriptors[i].role == role
             and _first_stem(descriptors[i].name or "") == lead]
    if len(picks) == 1:
        score[picks[0]] = min(1.0, top + LIFT)


@lru_cache(maxsize=16384)
def _name_stems(name: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _WORD.findall(name.lower()))


def _narrower(page: PassPage, score: np.ndarray, best: int, first: str) -> None:
    """Lift the one close runner-up like the best (role, first word) that does not say "all"."""
    descriptors, static = page.descriptors, page.static
    top = float(score[best])
    near = np.flatnonzero(score >= top - ALL_MARGIN)
    role = descriptors[best].role
    picks = [i for i in near.tolist()
             if i != best and not static[i] and descriptors[i].role == role
             and _first_stem(descriptors[i].name or "") == first
             and not (_ALL & _name_stems(descriptors[i].name or ""))]
    if len(picks) == 1:
        score[picks[0]] = min(1.0, top + LIFT)
