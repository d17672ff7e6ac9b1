"""A choice named by its own word and its group's name: "Line chart type" is the "Line" radio of
the "Chart type" group.

The group's name covers more of the query than the choice's one word, so the lexical ranking
picks the group. This pass runs after scoring:

* the best match is a group of choices (``GROUPS``) whose own text (name, label) is all in the
  query, and the query has words beyond it;
* the group's choices are the run of choice elements (``CHOICES``) right after it in document
  order (the snapshot lists a group's options after it);
* exactly one name among them has all the remaining words in its own text.

The choice of that name (the radio or box, when an option wraps one) then becomes the best
match, just above the group.
"""

from __future__ import annotations

import re

import numpy as np

from ..text.lexical import stem
from ..weights import PASS_LIFT as LIFT
from .base import PassPage
from .wrapped_control import CONTROLS

__all__ = ["apply"]

GROUPS = frozenset({"listbox", "radiogroup", "group", "tablist", "menu", "menubar"})
CHOICES = frozenset({"option", "radio", "checkbox", "switch", "tab", "menuitem", "menuitemradio", "menuitemcheckbox"})
_FILLER = frozenset({"a", "an", "the", "my", "your", "our", "this", "that", "to", "in", "on", "of", "for", "as",
                     "please", "choose", "pick", "select", "set", "option"})
_WORD = re.compile(r"[^\W_]+")


def _stems(s: str) -> set[str]:
    return {stem(w) for w in _WORD.findall(s.lower())}


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Lift the group's choice the query's other words name over the group."""
    descriptors = page.descriptors
    best = int(np.argmax(score))
    group = descriptors[best]
    if score[best] <= 0 or group.role not in GROUPS:
        return
    own = _stems(f"{group.name} {group.label}")
    words = {stem(w) for w in _WORD.findall(query.lower()) if w not in _FILLER}
    rest = words - own
    if not own or not own <= words or not rest:
        return
    named: dict[str, list[int]] = {}
    i = best + 1
    while i < len(descriptors) and descriptors[i].role in CHOICES:
        if rest <= _stems(descriptors[i].name):
            named.setdefault(descriptors[i].name.lower(), []).append(i)
        i += 1
    if len(named) != 1:
        return
    same = next(iter(named.values()))
    # an option that wraps its radio: the radio is what takes the click and shows the state
    pick = next((j for j in same if descriptors[j].role in CONTROLS), same[0])
    score[pick] = min(1.0, float(score[best]) + LIFT)
