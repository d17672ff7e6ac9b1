"""Turning something on or off: "turn off the kitchen lights", "switch the alarm on", "disable
the living room camera".

Such a query means a toggle (a switch, a checkbox, a pressed-state button) for the thing it
names. The page often names that thing better elsewhere: a room's tab ("Kitchen") covers
"kitchen" with its whole name and outscores the "Kitchen pendants" switch under the room's
heading. This pass runs after scoring: when the best match is not a toggle, a toggle whose own
text or item context covers every query word the best match covers (and some word at all) takes
its place; two such toggles that cover as much leave the scores alone. What is covered is read
on word stems of the element's own text and of its item and heading.

"Select dana", "tick the second invoice" ask the same of a checkbox (a row's selection box
names its row): there only a checkbox takes the place, and not of a choice the verb already
fits (a radio, an option, a tab).
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..text.lexical import stem
from .base import PassPage
from .shared import lift_sole_first

__all__ = ["apply", "parse"]

TOGGLE_ROLES = frozenset({"switch", "checkbox", "menuitemcheckbox"})
_PARTICLE_VERBS = frozenset({"turn", "switch", "flip"})
_PARTICLES = frozenset({"on", "off"})
_VERBS = frozenset({"toggle", "enable", "disable", "activate", "deactivate"})
# the state a verb turns on or off, as a toggle's label says it
_STATE_OF = {"activate": "active", "deactivate": "active", "enable": "enabled", "disable": "enabled"}
# verbs that mark a box: they ask for a checkbox, and leave a choice of another kind alone
_MARK_VERBS = frozenset({"select", "deselect", "unselect", "tick", "untick", "check", "uncheck"})
_CHOICES = frozenset({"radio", "option", "menuitemradio", "tab", "treeitem", "row", "checkbox", "switch",
                      "menuitemcheckbox", "combobox", "listbox"})
_FILLER = frozenset({"the", "a", "an", "it", "its", "my", "our", "this", "that", "these", "those", "all", "please",
                     "to", "for", "of", "in", "at", "i", "want", "need", "can", "you", "now", "again", "and",
                     "turn", "switch", "flip", "on", "off", "toggle", "enable", "disable", "activate", "deactivate"}
                    | _MARK_VERBS)
_WORD = re.compile(r"[^\W_]+")


@lru_cache(maxsize=4096)
def parse(query: str) -> tuple[str, ...] | None:
    """The stems of what is turned on or off, or None when the query does not ask that."""
    ws = _WORD.findall(query.lower())
    if not ws:
        return None
    asks = ws[0] in _VERBS or ws[0] in _MARK_VERBS or (ws[0] in _PARTICLE_VERBS and any(w in _PARTICLES for w in ws[1:]))
    if not asks:
        return None
    what = tuple(dict.fromkeys(stem(w) for w in ws if w not in _FILLER))
    return what or None


class _Texts:
    """Per index: each element's own and item/heading stems (once)."""

    __slots__ = ("stems",)

    def __init__(self, descriptors) -> None:
        self.stems: list[frozenset[str]] = [
            frozenset(stem(w) for w in _WORD.findall(f"{d.name} {d.label} {d.title} {d.item} {d.heading}".lower()))
            for d in descriptors
        ]


def _is_toggle(d) -> bool:
    return d.role in TOGGLE_ROLES or (d.role in ("button", "togglebutton") and "pressed" in d.states)


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Lift the toggle for what the query turns on or off to the top."""
    descriptors = page.descriptors
    what = parse(query)
    if what is None:
        return
    best = int(np.argmax(score))
    if score[best] <= 0 or _is_toggle(descriptors[best]):
        return
    first = _WORD.findall(query.lower())[0]
    mark = first in _MARK_VERBS
    # "deactivate the account" turns off the box that says "Active"
    state = stem(_STATE_OF[first]) if first in _STATE_OF else None
    if mark and descriptors[best].role in _CHOICES:
        return
    tx = page.per_page("toggle_words", _Texts)
    # a static text (a help line) cannot be turned on: it sets no words a toggle must have
    needed = set() if page.static[best] else {w for w in what if w in tx.stems[best]}
    cands: list[tuple[float, int]] = []  # (words covered, row)
    for i, d in enumerate(descriptors):
        if not _is_toggle(d) or d.disabled or score[i] <= 0 or (mark and d.role != "checkbox"):
            continue
        covered = {w for w in what if w in tx.stems[i]}
        if state is not None and state in tx.stems[i]:
            covered.add(state)
        if covered and covered >= needed:
            cands.append((len(covered), i))
    lift_sole_first(cands, score, best)  # two toggles that fit equally: no guess
