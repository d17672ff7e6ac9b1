"""find's tunable numbers: every weight, factor, prior and limit the matcher scores with,
the confidence bands, and the validation of the caller's threshold and lexical/embedding mix.

Changing a number here changes find's results: check with ``bench/find_build.py --golden``
and the accuracy benches.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import BadRequest

STRATEGY = "combined:lexical+embedding:hashing"
DEFAULT_LEXICAL_WEIGHT = 0.6
DEFAULT_EMBEDDING_WEIGHT = 0.4
DEFAULT_THRESHOLD = 0.3
DEFAULT_TOP_K = 3
HIGH_CONFIDENCE = 0.80
MEDIUM_CONFIDENCE = 0.60

# field weights (own text)
F_NAME = 1.0
F_LABEL = 0.9
F_PLACEHOLDER = 0.8
F_TITLE = 0.8
F_DESCRIPTION = 0.8
F_TEXT = 0.75
F_COLUMN = 0.8
F_VALUE = 0.55
F_TYPE = 0.5
F_ROLE_TEXT = 0.45
F_HREF = 0.35
# context weights
X_PARENT = 1.0
X_SECTION = 0.9
X_ANCESTOR = 0.8
X_HEADING = 0.75
X_ITEM = 0.9
X_ANCESTOR_ROLE = 0.8
# how much a context match counts for an ordinary term / own-text match for a context term
CONTEXT_FACTOR = 0.55
# embedding: context weights (element side; context has its own matrix)
CTX_EMB_PARENT = 0.6
CTX_EMB_SECTION = 0.45
CTX_EMB_ANCESTOR = 0.35
CTX_EMB_ITEM = 0.5
CONTEXT_LEAK = 0.25

CTX_OWN_FACTOR = 0.85
# context matches of an element whose own name holds the query's leading verb ("refund" of
# "refund Chen Wei" on a Refund button, "Chen Wei" in its row)
LEAD_VERB_CONTEXT = 0.85
# an action verb ("refund", "turn on", "select") makes static text, cells and headings less likely
ACTION_NON_INTERACTIVE = 0.85
# while a modal dialog is open the page behind it cannot be used: its elements weigh less,
# unless the query places the target itself ("privacy link in the footer")
OUTSIDE_MODAL = 0.7
# "approve pull request": an element that lacks the query's specific action ("Pull requests"); a
# control of a kind the action is not done with (a field, a list box) that lacks it: twice
MISSING_ACTION = 0.8
# "trash can icon": the word "icon" as a role word, on a page whose snapshot marks icon controls
W_ICON = 1.0
# a strong role word ("text area", "checkbox") the element's role does not fit at all
ROLE_MISMATCH = 0.8

Q_COMPOUND = 0.95
Q_TYPO1 = 0.8
Q_TYPO2 = 0.68
Q_PREFIX = 0.75
Q_ABBREV = 0.7
Q_PHRASE_PART = 0.45
# the one content word of a phrase with stop words ("save as") matched on its own
Q_LONE_PHRASE_WORD = 0.8

IDF_ALPHA = 0.25
COVERAGE_POWER = 2.0
NON_INTERACTIVE_PRIOR = 0.85
CONTAINER_PRIOR = 0.75
DISABLED_PRIOR = 0.92
UNKNOWN_ROLE_PRIOR = 0.95
VERB_HINT_WEIGHT = 0.15
ORDINAL_GROUP = 0.95
MISSING_IDENTIFIER_PENALTY = 0.5
ANTONYM_PENALTY = 0.7
TIE_EPS = 0.02
# how far a post-scoring pass (item action, adjust, search) lifts its pick over the former best:
# above TIE_EPS, so the pick is not settled back into a tie
PASS_LIFT = 0.03
ORDINAL_MARGIN = 0.05
TIE_POOL = 16


def confidence_for(score: float) -> str:
    if score >= HIGH_CONFIDENCE:
        return "high"
    if score >= MEDIUM_CONFIDENCE:
        return "medium"
    return "low"


def check_number(v: Any, name: str, code: str) -> float:
    """``v`` as a float; a ``BadRequest`` with ``code`` unless it is a finite number."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(float(v)):
        raise BadRequest(f"{name} must be a number", code=code)
    return float(v)


def mix_weights(lw: Any, ew: Any) -> tuple[float, float]:
    """(lexical, embedding) weights summing to 1: defaults, one given (the other is its
    complement) or both (normalised)."""
    if lw is None and ew is None:
        return DEFAULT_LEXICAL_WEIGHT, DEFAULT_EMBEDDING_WEIGHT
    if lw is not None:
        lw = check_number(lw, "lexicalWeight", "invalid_weights")
    if ew is not None:
        ew = check_number(ew, "embeddingWeight", "invalid_weights")
    if lw is None:
        lw = 1.0 - ew
    elif ew is None:
        ew = 1.0 - lw
    if lw < 0 or ew < 0:
        raise BadRequest("lexicalWeight and embeddingWeight must be between 0 and 1", code="invalid_weights")
    total = lw + ew
    if total <= 0:
        raise BadRequest("lexicalWeight and embeddingWeight cannot both be zero", code="invalid_weights")
    return lw / total, ew / total
