"""What a CDP/browser error message means for an action: its error type, and whether
re-finding the element can help (stale or missing nodes, navigation races, occluded
elements: yes; network failures and unknown errors: no)."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["ERROR_TYPES", "classify_error"]

# (type, recoverable, patterns) in priority order; first match wins.
_RULES: list[tuple[str, bool, tuple[str, ...]]] = [
    ("network", False, (r"net::", r"\btime[d ]?out\b", r"timed out", r"err_connection", r"err_name_not_resolved",
                        r"connection (refused|reset|closed)", r"dns", r"network error", r"socket hang up")),
    ("navigation", True, (r"frame was detached", r"navigating frame", r"page was destroyed", r"navigat(ed|ion) (away|interrupted)",
                          r"frame detached", r"inspected target navigated", r"target navigated")),
    ("element_stale", True, (r"\bstale\b", r"detached from (the )?document", r"node is detached", r"is not attached",
                             r"execution context was destroyed", r"cannot find context with specified id",
                             r"does not belong to the document", r"no longer (exists|attached)")),
    ("element_not_found", True, (r"could not find node", r"node with given id", r"no node found", r"node not found",
                                 r"element not found", r"unknown ref", r"ref not found", r"no such element",
                                 r"could not compute box model", r"not found")),
    ("element_not_interactable", True, (r"not visible", r"obscured", r"not interactable", r"not clickable",
                                        r"intercept", r"outside (of )?the viewport", r"not in (the )?viewport",
                                        r"zero size", r"has no size", r"is disabled", r"covered by", r"not editable",
                                        r"read-?only", r"not focusable")),
]
_COMPILED = [(t, r, tuple(re.compile(p) for p in pats)) for t, r, pats in _RULES]
ERROR_TYPES: tuple[str, ...] = tuple(t for t, _, _ in _RULES) + ("unknown",)


def classify_error(message: Any) -> tuple[str, bool]:
    """``(error_type, recoverable)`` for an action error message."""
    text = str(message or "").lower()
    for etype, recoverable, pats in _COMPILED:
        if any(p.search(text) for p in pats):
            return etype, recoverable
    return "unknown", False
