"""A query reworded in the page's words, for a query that shares too few with it.

"perks" on a careers page with a "Benefits" link, "how much electricity am I using" with an
"Energy usage" link, "I'm going out" with a "Leaving home" scene: no word, stem or synonym of
find's own vocabulary is shared, so nothing matches. WordNet (:mod:`.wordnet`, a table shipped
with find) relates them. A query word no element has anywhere (own text or context) is replaced by the word of a
control's own text that WordNet relates to it most closely: a synonym of one of its two most
frequent senses (or the head of a multi-word synonym: "fringe benefit" -> "benefit"), a
derivation or similar adjective, or the hypernym of a noun's first sense. Never one WordNet names
as its opposite ("upgrade" is not "downgrade"), nor a stop, role or generic word.

The matcher scores the reworded query like any other and takes its answer only when the first
answer was weak (see :mod:`pinchtab.find.matcher`) and the reworded one, discounted by how
loose each replacement is (:data:`STRENGTH`), beats it. At most one replacement may be a
hypernym ("date of birth" reworded as "period of first" is no question of the user's).

Measured before it was kept (docs/find.md): it answers queries of the held-out sets nothing
matched and loses none that were right; no-match queries stay empty.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from . import lexical, vocab
from . import wordnet as wordnet_mod

__all__ = ["Rewrite", "PageWords", "applies", "page_words", "rewrite", "STRENGTH"]

# a query whose best answer scores below this is reworded and asked again (measured: 0.3 won one
# query less, 0.52 lost one); a long query is a description, not a wording to swap words in
REWORD_BELOW = 0.45
REWORD_MAX_WORDS = 12

# how much of a match a replacement keeps, by WordNet relation
STRENGTH = {"syn": 1.0, "deriv": 0.8, "sim": 0.8, "hyper": 0.7}
HEAD_OF_COMPOUND = 0.9  # "fringe benefit" -> "benefit": the head word of a multi-word synonym
MIN_WORD = 4            # shorter related words are too often another word ("cod" -> "code")
MAX_LOOSE = 1           # replacements weaker than a derivation a query may have
_WORD = re.compile(r"[^\W\d_]+")
_SPLIT = re.compile(r"[_\-]")
_BLOCKED = (frozenset(lexical.stem(w) for w in vocab.GENERIC_WORDS) | frozenset(vocab.GENERIC_WORDS)
            | frozenset(lexical.stem(w) for w in vocab.ROLE_WORDS) | frozenset(vocab.ROLE_WORDS))
# what a descriptor says of itself, and what it says of where it is
_OWN_FIELDS = ("name", "label", "placeholder", "title", "description")
_ALL_FIELDS = _OWN_FIELDS + ("value", "text", "parent", "section", "heading", "item", "column")


@dataclass(frozen=True, slots=True)
class PageWords:
    """The stems of every word on a page, and the controls' own words (stem -> word as written)."""

    stems: frozenset[str]
    controls: dict[str, str]


@dataclass(frozen=True, slots=True)
class Rewrite:
    text: str
    factor: float                        # product of the replacements' strengths
    swaps: tuple[tuple[str, str], ...]   # (query word, page word)


def applies(query: str, best_score: float) -> bool:
    """Whether a query whose best answer scored ``best_score`` is to be reworded."""
    return best_score < REWORD_BELOW and len(query.split()) <= REWORD_MAX_WORDS


def page_words(descriptors: Sequence, static: Iterable[bool]) -> PageWords:
    """:class:`PageWords` of a page (``static[i]``: row ``i`` is text, not a control)."""
    stems: set[str] = set()
    controls: dict[str, str] = {}
    for d, is_static in zip(descriptors, static):
        for f in _ALL_FIELDS:
            stems.update(lexical.stem(w) for w in _WORD.findall((getattr(d, f) or "").lower()))
        for a in d.ancestors:
            stems.update(lexical.stem(w) for w in _WORD.findall(a.lower()))
        if is_static:
            continue
        for f in _OWN_FIELDS:
            for w in _WORD.findall((getattr(d, f) or "").lower()):
                controls.setdefault(lexical.stem(w), w)
    return PageWords(frozenset(stems), controls)


def _candidates(wn: wordnet_mod.WordNet, word: str) -> list[tuple[str, float]]:
    """(single word, strength) WordNet relates to ``word``, best first; none of its opposites."""
    opposite = {lexical.stem(p) for a in wn.antonyms(word) for p in _SPLIT.split(a)}
    seen: dict[str, float] = {}  # word -> its best strength, in WordNet's order
    for r in wn.related(word):
        parts = [p for p in _SPLIT.split(r.lemma) if p]
        forms = [("".join(parts), 1.0)]  # "pick up" is the page's "Pickup"
        if len(parts) > 1 and r.kind != "deriv" and r.pos == "n":
            forms.append((parts[-1], HEAD_OF_COMPOUND))
        for form, f in forms:
            st = lexical.stem(form)
            if len(form) < MIN_WORD or lexical.is_stop(form) or st in _BLOCKED or st in opposite:
                continue
            if form not in seen or seen[form] < STRENGTH[r.kind] * f:
                seen[form] = STRENGTH[r.kind] * f
    return sorted(seen.items(), key=lambda c: -c[1])


def rewrite(query: str, page: PageWords, wn: wordnet_mod.WordNet | None = None) -> Rewrite | None:
    """``query`` with each word no element has replaced by the control word WordNet relates to
    it most closely, or None (no such word, or too loose a rewording)."""
    wn = wn or wordnet_mod.load()
    out: list[str] = []
    swaps: list[tuple[str, str]] = []
    strengths: list[float] = []
    for w in _WORD.findall(query.lower()):
        st = lexical.stem(w)
        if len(w) < 3 or lexical.is_stop(w) or st in page.stems or st in _BLOCKED:
            out.append(w)
            continue
        best = next(((page.controls[lexical.stem(c)], s) for c, s in _candidates(wn, w)
                     if lexical.stem(c) in page.controls and lexical.stem(c) != st), None)
        if best is None:
            out.append(w)
            continue
        out.append(best[0])
        swaps.append((w, best[0]))
        strengths.append(best[1])
    if not swaps or sum(s < STRENGTH["deriv"] for s in strengths) > MAX_LOOSE:
        return None
    return Rewrite(" ".join(out), math.prod(strengths), tuple(swaps))
