"""Recovery, pure logic: re-match a recorded intent on a new snapshot.

(Which action errors re-finding can help with is :func:`pinchtab.cdp.errors.classify_error`.)

* :func:`rematch` re-runs a recorded find on a fresh snapshot and compares the recorded
  descriptor (role, name, section/parent, position) with the candidates. It returns the new
  ref only when the combined evidence clears a safety threshold and beats the runner-up by a
  margin; otherwise ``None``. It never guesses: an element that merely has the same role
  is not a match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .index.descriptors import ElementDescriptor
from .index.embedding import HashingEmbedder
from .matcher import ElementIndex
from .text.lexical import analyze_text, normalize
from .weights import confidence_for

__all__ = [
    "RecoveryMatch",
    "descriptor_similarity",
    "rematch",
    "DEFAULT_MIN_SCORE",
]

DEFAULT_MIN_SCORE = 0.6
DEFAULT_MARGIN = 0.05


@dataclass(frozen=True, slots=True)
class RecoveryMatch:
    """The element a recorded intent maps to on the new snapshot."""

    ref: str
    score: float             # combined evidence in [0, 1]
    query_score: float       # the recorded query re-run on the new snapshot
    descriptor_score: float  # similarity to the recorded descriptor
    confidence: str
    descriptor: ElementDescriptor


_ROLE_FAMILY = {
    "button": "action", "link": "action", "menuitem": "action", "tab": "action",
    "textbox": "text", "searchbox": "text", "combobox": "text", "textarea": "text", "spinbutton": "text",
    "checkbox": "toggle", "switch": "toggle", "radio": "toggle", "menuitemcheckbox": "toggle",
}
_EMB = HashingEmbedder()


def _name_similarity(a: str, b: str) -> float:
    if not a and not b:
        return 0.5
    if not a or not b:
        return 0.0
    na, nb = " ".join(normalize(a).split()), " ".join(normalize(b).split())
    if na == nb:
        return 1.0
    ka, kb = analyze_text(a), analyze_text(b)
    sa, sb = set(ka.stems), set(kb.stems)
    best = 0.0
    if sa and sb:
        best = len(sa & sb) / len(sa | sb)
    if "".join(ka.stems) == "".join(kb.stems) or (ka.compounds & set(kb.stems)) or (kb.compounds & set(ka.stems)):
        best = max(best, 0.95 if len(sa) + len(sb) <= 3 else best)
    shared = set(ka.concepts) & set(kb.concepts)
    if shared:
        best = max(best, 0.85 * max(min(ka.concepts[c], kb.concepts[c]) for c in shared))
    cos = float(np.dot(_EMB.embed(a), _EMB.embed(b)))
    return max(best, 0.9 * max(0.0, cos) if cos >= 0.6 else 0.0)


def _same(a: str, b: str) -> bool:
    return " ".join(normalize(a).split()) == " ".join(normalize(b).split())


def descriptor_similarity(old: ElementDescriptor, new: ElementDescriptor, n_elements: int = 0) -> tuple[float, float]:
    """``(similarity, name_similarity)`` of two descriptors, each in [0, 1]."""
    ro, rn = old.role.lower(), new.role.lower()
    if ro == rn:
        role = 1.0
    elif ro and _ROLE_FAMILY.get(ro) and _ROLE_FAMILY.get(ro) == _ROLE_FAMILY.get(rn):
        role = 0.5
    else:
        role = 0.0
    name = _name_similarity(old.primary, new.primary)
    ctx_parts = []
    if old.section:
        ctx_parts.append(1.0 if _same(old.section, new.section) else 0.0)
    if old.parent:
        ctx_parts.append(1.0 if _same(old.parent, new.parent) else 0.0)
    ctx = sum(ctx_parts) / len(ctx_parts) if ctx_parts else 0.5
    span = max(5.0, 0.2 * n_elements)
    pos = max(0.0, 1.0 - abs(old.index - new.index) / span)
    return 0.25 * role + 0.5 * name + 0.15 * ctx + 0.1 * pos, name


def rematch(
    intent: Any,
    new_index: ElementIndex,
    *,
    min_score: float = DEFAULT_MIN_SCORE,
    margin: float = DEFAULT_MARGIN,
    candidates: int = 10,
) -> RecoveryMatch | None:
    """Find the recorded intent's element on a new snapshot, or None if not safely possible.

    ``intent`` is an :class:`~pinchtab.find.intent.IntentRecord` (anything with ``query``
    and ``descriptor``). The recorded query is re-run on ``new_index``; its top candidates,
    plus elements with the recorded role and a similar name, are scored as
    ``0.55 x query score + 0.45 x descriptor similarity``. The best is returned only if it
    reaches ``min_score``, has real name/query evidence (not just the same role), and beats
    the runner-up by ``margin`` (or is an exact name match).
    """
    query = getattr(intent, "query", "") or ""
    old: ElementDescriptor | None = getattr(intent, "descriptor", None)
    if old is None or len(new_index) == 0:
        return None
    qscores: dict[str, float] = {}
    if query.strip():
        res = new_index.find(query, threshold=0.0, top_k=candidates)
        qscores = {m["ref"]: float(m["score"]) for m in res["matches"] if m["score"] > 0}
    pool = list(qscores)
    n = len(new_index)
    for d in new_index.descriptors:
        if d.ref not in qscores and d.role.lower() == old.role.lower() and _name_similarity(old.primary, d.primary) >= 0.5:
            pool.append(d.ref)
    scored = []
    for ref in pool:
        d = new_index.get(ref)
        if d is None:
            continue
        dsim, nsim = descriptor_similarity(old, d, n)
        q = qscores.get(ref, 0.0)
        total = 0.55 * q + 0.45 * dsim
        evidence = nsim >= 0.4 or q >= 0.7
        scored.append((total, q, dsim, nsim, evidence, d))
    if not scored:
        return None
    scored.sort(key=lambda s: (-s[0], s[5].index))
    total, q, dsim, nsim, evidence, d = scored[0]
    if total < min_score or not evidence:
        return None
    if len(scored) > 1 and total - scored[1][0] < margin and not nsim > scored[1][3]:
        # two candidates about as good, and the name does not tell them apart: ambiguous
        return None
    return RecoveryMatch(
        ref=d.ref, score=round(total, 4), query_score=round(q, 4), descriptor_score=round(dsim, 4),
        confidence=confidence_for(total), descriptor=d,
    )
