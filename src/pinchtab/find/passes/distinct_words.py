"""Among close candidates, the words that tell them apart decide: "can delete user permission" is
the option "... | user | Can delete user", not the list box "Chosen user permissions" nor the
option "... | permission | Can delete permission".

A long list of options that share most of their text ("<app> | user | Can add user", "... Can
change user", ...) scores alike on the shared words, and a short name that holds one common
query word ("Users") beats them on how much of its name the query covers. What separates the
candidates is how rare each query word is among *them*: a word every close candidate holds
("permission" in every option and list box of a permissions widget) says nothing; a word only
one or two hold ("view", "groups") decides. Each query word is weighed by that rarity among
the close candidates (within ``MARGIN`` of the best); the candidate whose own label covers the
rare words clearly best (by ``LEAD``, and at least ``MIN_COVER`` of the weight) becomes the best
match. A control is never handed over to static text.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

import numpy as np

from ..index.descriptors import ElementDescriptor
from ..text.lexical import is_stop, stem
from ..weights import PASS_LIFT as LIFT
from .base import PassPage

__all__ = ["apply"]

MARGIN = 0.2      # how far below the best a candidate may score and still be weighed
MAX_CANDS = 12    # the best this many within the margin
LEAD = 0.3        # how much more of the weight the pick must cover than the best
MIN_COVER = 0.75  # the share of the weight the pick must cover
SHARED = 0.5      # a sibling shares at least this share of the longer label's words
_WORD = re.compile(r"[^\W_]+")


@lru_cache(maxsize=4096)
def _query_stems(query: str) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for w in _WORD.findall(query.lower()):
        if not is_stop(w):
            seen.setdefault(stem(w), None)
    return tuple(seen)


@lru_cache(maxsize=16384)
def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _WORD.findall(text.lower()))


def _own(d: ElementDescriptor) -> frozenset[str]:
    return _stems(" ".join(t for t in (d.name, d.label, d.title) if t))


def _has_sibling(k: int, rows: list[int], own: list[frozenset[str]], descriptors) -> bool:
    """Whether candidate ``k`` has a close candidate of its role that shares most of its words:
    one of a list whose members differ in a word or two."""
    mine, role = own[k], descriptors[rows[k]].role
    for j, o in enumerate(own):
        if j != k and descriptors[rows[j]].role == role and len(mine & o) >= SHARED * max(len(mine), len(o)):
            return True
    return False


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Lift the close candidate that covers the query's rare words clearly best."""
    q = _query_stems(query)
    if len(q) < 2:
        return
    best = int(np.argmax(score))
    top = float(score[best])
    if top <= 0:
        return
    near = np.flatnonzero(score >= top - MARGIN)
    if near.size < 2:
        return
    if near.size > MAX_CANDS:
        near = near[np.argsort(-score[near], kind="stable")[:MAX_CANDS]]
    descriptors, static = page.descriptors, page.static
    rows = near.tolist()
    own = [_own(descriptors[i]) for i in rows]
    n = len(rows)
    weight = {}
    for w in q:
        df = sum(w in o for o in own)
        if df:
            weight[w] = math.log((n + 1) / df)
    total = sum(weight.values())
    if total <= 0:
        return
    cover = [sum(v for w, v in weight.items() if w in o) / total for o in own]
    b = rows.index(best)
    picks = sorted(((c, -float(score[i]), i) for k, (c, i) in enumerate(zip(cover, rows))
                    if i != best and (not static[i] or static[best]) and _has_sibling(k, rows, own, descriptors)),
                   reverse=True)
    if not picks:
        return
    c, _, pick = picks[0]
    if c < MIN_COVER or c < cover[b] + LEAD or (len(picks) > 1 and picks[1][0] == c):
        return
    score[pick] = min(1.0, top + LIFT)
