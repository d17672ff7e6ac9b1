"""A label that wraps its own control: "pie" is the radio button, not the option around it.

Some widget libraries render a choice as an element with a role of its own (an ``option``, a
clickable list item) whose only content is the real control and its text, so the snapshot
shows the same name twice, wrapper first. Both score alike and document order would pick the
wrapper; the control is what the agent acts on (and what reports the checked state). When the
best match is such a wrapper and the very next element is a radio, checkbox or switch of the
same name, scoring within ``MARGIN``, the control becomes the best match.
"""

from __future__ import annotations

import numpy as np

from ..weights import PASS_LIFT as LIFT
from .base import PassPage

__all__ = ["apply"]

MARGIN = 0.05  # wider than a pass's lift: a pass that picked the wrapper picked its control
WRAPPERS = frozenset({"option", "listitem", "clickable", "cell", "gridcell", "generic", "text", "label"})
CONTROLS = frozenset({"radio", "checkbox", "switch", "menuitemradio", "menuitemcheckbox"})


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Move the best match from a wrapper to the control it wraps."""
    descriptors = page.descriptors
    best = int(np.argmax(score))
    top = float(score[best])
    nxt = best + 1
    if top <= 0 or nxt >= len(descriptors) or descriptors[best].role not in WRAPPERS:
        return
    inner = descriptors[nxt]
    if inner.role in CONTROLS and inner.name and inner.name == descriptors[best].name and float(score[nxt]) >= top - MARGIN:
        score[nxt] = min(1.0, top + LIFT)
        # near the ceiling the lift is cut short, and equal matches are evened out afterwards:
        # the wrapper steps down instead
        score[best] = min(top, float(score[nxt]) - LIFT)
