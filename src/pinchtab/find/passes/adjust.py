"""Adjusting a quantity: "make it louder", "fewer servings", "turn the heating down", "one more
green curry".

Such a query asks to move a quantity up or down, and means the control that does it: an
"Increase"/"Decrease"/"+"/"−" button for that quantity (or for that item, in a cart row), or the
slider / number field of the quantity. It often shares no word with that control ("louder"
and "Volume"), or shares only the quantity, which its heading or a plain number field names
as well as the control does. This pass runs after scoring:

* the query holds a direction: a comparative ("louder", "warmer", "fewer", "more"), a
  direction verb ("raise", "reduce") or a particle after a verb ("turn the heating down");
* what it adjusts is the comparative's own quantity ("louder": volume, sound) and the
  query's other words ("servings", "green curry"), each widened by the general groups of
  ``QUANTITIES`` ("heating" is a temperature, "people" on a recipe are its servings);
* a control whose own text says that direction (and not the opposite) and whose own text or
  item context covers what is adjusted is a candidate; so is a slider or number field whose
  own name does (it moves both ways), ranked below a control that says the direction;
  exactly one must rank first.

That candidate then becomes the best match (just above the former best, or a low-confidence
match when nothing else matched).
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..text.lexical import stem
from ..weights import PASS_LIFT as LIFT
from .base import PassPage

__all__ = ["apply", "parse"]

UP, DOWN = 1, -1

# general groups of what UI controls adjust: a query word in a group stands for all of it
QUANTITIES: tuple[frozenset[str], ...] = tuple(frozenset(g.split()) for g in (
    "volume sound audio loudness speaker",
    "temperature temp heat heating thermostat",
    "brightness light lights lamp",
    "speed rate playback",
    "size zoom font",
    "servings serving portions portion people persons",
    "quantity qty amount count number items",
))

# query word -> (direction, what it implies is adjusted, as words of QUANTITIES)
COMPARATIVES: dict[str, tuple[int, str]] = {
    "louder": (UP, "volume"), "quieter": (DOWN, "volume"), "softer": (DOWN, "volume"),
    "warmer": (UP, "temperature"), "hotter": (UP, "temperature"),
    "cooler": (DOWN, "temperature"), "colder": (DOWN, "temperature"),
    "brighter": (UP, "brightness"), "dimmer": (DOWN, "brightness"), "darker": (DOWN, "brightness"),
    "faster": (UP, "speed"), "quicker": (UP, "speed"), "slower": (DOWN, "speed"),
    "bigger": (UP, "size"), "larger": (UP, "size"), "smaller": (DOWN, "size"),
    "more": (UP, ""), "fewer": (DOWN, ""), "less": (DOWN, ""),
    "higher": (UP, ""), "lower": (DOWN, ""),
    "increase": (UP, ""), "raise": (UP, ""), "boost": (UP, ""), "increment": (UP, ""),
    "decrease": (DOWN, ""), "reduce": (DOWN, ""), "decrement": (DOWN, ""),
}
# "turn it up", "turn the heating down": a particle after one of these verbs
_PARTICLE_VERBS = frozenset({"turn", "crank", "bump", "dial", "move"})  # not "set up", "put down"
_PARTICLES = {"up": UP, "down": DOWN}

# words a control says for each direction (own text; "+" and "−" count as words)
_SAYS = {
    UP: frozenset({"increase", "increment", "raise", "up", "plus", "+", "more", "higher", "louder", "warmer",
                   "brighter", "faster", "bigger", "larger"}),
    DOWN: frozenset({"decrease", "decrement", "lower", "down", "minus", "-", "−", "less", "fewer", "reduce",
                     "quieter", "cooler", "dimmer", "slower", "smaller"}),
}
_SIDES = frozenset({"left", "right", "side", "corner", "half", "part", "edge"})
_RANGE_ROLES = frozenset({"slider", "spinbutton"})
_FILLER = frozenset({"the", "a", "an", "it", "its", "my", "this", "that", "to", "for", "of", "on", "in", "please",
                     "make", "turn", "crank", "bump", "dial", "put", "set", "move", "get", "give", "one", "bit",
                     "little", "much", "lot", "some", "up", "down", "be", "is", "i", "want", "need", "can", "you",
                     "by", "than", "slightly", "even", "way", "too", "so", "just"})
_WORD = re.compile(r"[^\W_]+|[+−]")
_STEMMED_GROUPS = tuple(frozenset(stem(w) for w in g) for g in QUANTITIES)
COVERAGE = 0.5
ALONE = 0.45  # the score when nothing else matched: low confidence


def _words(s: str) -> list[str]:
    return _WORD.findall(s.lower())


def _widen(st: str) -> frozenset[str]:
    for g in _STEMMED_GROUPS:
        if st in g:
            return g
    return frozenset({st})


@lru_cache(maxsize=4096)
def parse(query: str) -> tuple[int, tuple[frozenset[str], ...]] | None:
    """(direction, what is adjusted: one set of stems per query word) or None (cached per text)."""
    ws = _words(query)
    direction = 0
    implied = ""
    rest: list[str] = []
    for i, w in enumerate(ws):
        if w in COMPARATIVES and not direction and not (i + 1 < len(ws) and ws[i + 1] in _SIDES):
            direction, implied = COMPARATIVES[w]  # ("lower left corner" is a position)
            continue
        if w in _PARTICLES and not direction and any(v in _PARTICLE_VERBS for v in ws[:i]):
            direction = _PARTICLES[w]
            continue
        if w not in _FILLER:
            rest.append(w)
    if not direction:
        return None
    what = [_widen(stem(w)) for w in rest]
    if implied:
        what.append(_widen(stem(implied)))
    if not what:
        return None
    return direction, tuple(what)


class _Texts:
    """Per index: each element's own words, own stems and item-context stems (once)."""

    __slots__ = ("own", "own_stems", "ctx")

    def __init__(self, descriptors) -> None:
        self.own: list[frozenset[str]] = []
        self.own_stems: list[frozenset[str]] = []
        self.ctx: list[frozenset[str]] = []
        for d in descriptors:
            own = frozenset(_words(" ".join((d.name, d.label, d.title, d.description))))
            self.own.append(own)
            self.own_stems.append(frozenset(stem(w) for w in own))
            self.ctx.append(frozenset(stem(w) for w in _words(f"{d.item} {d.heading}")))


def _covered(what: tuple[frozenset[str], ...], words: frozenset[str]) -> float:
    return sum(1 for g in what if g & words) / len(what)


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Lift the adjusting control to the top."""
    descriptors, static = page.descriptors, page.static
    parsed = parse(query)
    if parsed is None:
        return
    direction, what = parsed
    tx = page.per_page("adjust_words", _Texts)
    says, opposite = _SAYS[direction], _SAYS[-direction]
    cands: list[tuple[int, float, int]] = []  # (says the direction, coverage, row)
    for i, d in enumerate(descriptors):
        if static[i] or d.disabled:
            continue
        own = tx.own[i]
        if own & says and not own & opposite:
            cov = _covered(what, tx.own_stems[i] | tx.ctx[i])
            if cov >= COVERAGE:
                cands.append((1, cov, i))
        elif d.role in _RANGE_ROLES:
            cov = _covered(what, tx.own_stems[i])
            if cov >= COVERAGE:
                cands.append((0, cov, i))
    if not cands:
        return
    cands.sort(reverse=True)
    if len(cands) > 1 and cands[1][:2] == cands[0][:2]:
        return  # two controls fit equally: no guess
    pick = cands[0][2]
    best = int(np.argmax(score))
    if best == pick:
        return
    score[pick] = min(1.0, max(float(score[best]) + LIFT, ALONE))
