"""The query's structure applied to the element scores: modal dialogs, element states,
identifiers the page lacks, antonyms, exclusions, relations to an anchor, positions on the
page and ordinals.

Each ``apply_*`` step scales the score vector in place, in the order :func:`apply_structure`
runs them; the order matters (an ordinal picks among what the earlier steps left).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..index.descriptors import ElementDescriptor
from ..index.pageindex import PageIndex
from ..index.terms import PageTerms, TermVec
from ..query import container_ordinal
from ..query.parse import ParsedQuery, Term
from ..text import vocab
from ..weights import ANTONYM_PENALTY, MISSING_IDENTIFIER_PENALTY, ORDINAL_GROUP, ORDINAL_MARGIN, OUTSIDE_MODAL
from .coverage import lexical_scores

__all__ = ["ElementStates", "apply_structure", "match_strength", "directional", "relation"]

_F32 = np.float32


class ElementStates:
    """Per-element state vectors (checked, expanded, disabled...), made on first use."""

    def __init__(self, desc: Sequence[ElementDescriptor]) -> None:
        self._desc = desc
        self._cache: dict[str, np.ndarray] = {}

    def get(self, key: str) -> np.ndarray:
        """Per element: 1/0 for the state ``key`` (checked, expanded, disabled...), -1 if it has none."""
        v = self._cache.get(key)
        if v is None:
            out = []
            for d in self._desc:
                if key == "disabled":
                    out.append(1 if d.disabled else (0 if d.role.lower() in vocab.INTERACTIVE_ROLES else -1))
                    continue
                x = d.states.get(key)
                if isinstance(x, str):
                    x = {"true": True, "false": False, "mixed": True}.get(x.lower())
                out.append(-1 if not isinstance(x, bool) else int(x))
            v = np.array(out, dtype=np.int8)
            self._cache[key] = v
        return v


def apply_structure(pt: PageTerms, states: ElementStates, pq: ParsedQuery, tvs: Sequence[TermVec],
                    score: np.ndarray, lex: np.ndarray, prior: np.ndarray) -> None:
    """Scale ``score`` (per element, in place) by the structure of the parsed query ``pq``
    (``tvs``: its terms' vectors; ``lex``, ``prior``: the lexical scores and priors)."""
    page = pt.page
    apply_modal(page, pq, score)
    apply_states(states, pq, score)
    apply_term_penalties(pq, tvs, score)
    apply_exclusions(pt, pq, score)
    apply_position(pt, pq, score)
    apply_ordinal(page, pq, score, lex, prior, pt.desc)


def apply_modal(page: PageIndex, pq: ParsedQuery, score: np.ndarray) -> None:
    """While a modal dialog is open, the page behind it weighs less unless the query places the target."""
    if page.outside_modal is not None and not any(t.ctx or t.container for t in pq.terms):
        score[page.outside_modal] *= OUTSIDE_MODAL


def apply_states(states: ElementStates, pq: ParsedQuery, score: np.ndarray) -> None:
    """States: "the unchecked stops filter", "uncheck X" (X is checked now)."""
    for key, (want, factor) in pq.states.items():
        have = states.get(key)
        score[(have >= 0) & (have != int(want))] *= factor


def apply_term_penalties(pq: ParsedQuery, tvs: Sequence[TermVec], score: np.ndarray) -> None:
    """Identifiers the page lacks, and elements that say the opposite of a term."""
    for t, tv in zip(pq.terms, tvs):
        # a specific identifier the page does not contain ("INV-1024") -> nothing really matches
        if t.digits and tv.c_rows.size == 0 and tv.x_rows.size == 0:
            score *= MISSING_IDENTIFIER_PENALTY
        # the element says the opposite ("Write a review" for "read reviews")
        if tv.anti.size:
            score[tv.anti] *= ANTONYM_PENALTY


def apply_exclusions(pt: PageTerms, pq: ParsedQuery, score: np.ndarray) -> None:
    """Exclusions ("not in header", "except footer", "button not cancel")."""
    for group in pq.exclude:
        m = match_strength(pt, group)
        score[m >= 0.5] = 0.0


def apply_position(pt: PageTerms, pq: ParsedQuery, score: np.ndarray) -> None:
    """A relation to an anchor ("below password") and a position on the page ("top right")."""
    if pq.relation is None and not pq.directions:
        return
    cand = np.flatnonzero(score > 0)
    if pq.relation is not None and cand.size:
        rel, aterms = pq.relation
        avecs = [pt.term_vec(t) for t in aterms]
        alex, _ = lexical_scores(pt, aterms, avecs)
        anchor = int(np.argmax(alex))
        if alex[anchor] >= 0.3:
            r = relation(pt.page, rel, anchor, cand)
            score[cand] *= 0.45 + 0.55 * r
            score[anchor] *= 0.3
    if pq.directions and cand.size:
        p = directional(pt.page, pq.directions, cand)
        score[cand] *= 0.6 + 0.4 * p


def apply_ordinal(page: PageIndex, pq: ParsedQuery, score: np.ndarray, lex: np.ndarray, prior: np.ndarray,
                  desc: Sequence[ElementDescriptor] = ()) -> None:
    """An ordinal ("the third delete button") among the comparable matches (same role, similar
    lexical score), in document order: the pick becomes the best match."""
    if pq.ordinal is None:
        return
    live = np.flatnonzero(score > 0)
    if live.size:
        lp = lex[live] * prior[live] + score[live]
        lead = int(live[np.argmax(lp)])
        group = live[(lex[live] >= ORDINAL_GROUP * lex[lead]) & (page.role_ids[live] == page.role_ids[lead])]
        k = pq.ordinal
        pick = container_ordinal.pick(desc, group, score, k) if pq.ordinal_of_container and desc else None
        if pick is not None or group.size >= abs(k):
            top = float(score.max())
            if pick is None:
                pick = int(group[k - 1] if k > 0 else group[k])
            # everything else stays clearly below the pick
            np.minimum(score, max(0.0, top - ORDINAL_MARGIN), out=score)
            score[pick] = top


def match_strength(pt: PageTerms, terms: Sequence[Term]) -> np.ndarray:
    """Average max-strength of ``terms`` over own text, context and role (for exclusions)."""
    n = len(pt.desc)
    tot = np.zeros(n, dtype=_F32)
    k = 0
    for t in terms:
        if t.bonus:
            continue
        tv = pt.term_vec(t)
        s = np.zeros(n, dtype=_F32)
        if tv.c_rows.size:
            s[tv.c_rows] = tv.c_vals
        if tv.x_rows.size:
            s[tv.x_rows] = np.maximum(s[tv.x_rows], tv.x_vals)
        if t.role:
            np.maximum(s, pt.role_vec(t.role), out=s)
        tot += s
        k += 1
    return tot / k if k else tot


def directional(page: PageIndex, dirs: tuple[str, ...], cand: np.ndarray) -> np.ndarray:
    """Position score in [0, 1] for each candidate row."""
    g = page.geom[cand]
    has = page.has_geom[cand]
    W, H = page.extent
    cx = (g[:, 0] + g[:, 2] / 2) / W
    cy = (g[:, 1] + g[:, 3] / 2) / H
    hints = page.pos_hints[cand]
    m = len(page)
    order = cand.astype(_F32) / max(1, m - 1)
    parts = []
    for d in dirs:
        if d == "left":
            geo, fb = 1 - cx, hints[:, 0]
        elif d == "right":
            geo, fb = cx, hints[:, 1]
        elif d == "top":
            geo, fb = 1 - cy, np.where(hints[:, 2] != 0.5, hints[:, 2], 1 - order)
        elif d == "bottom":
            geo, fb = cy, np.where(hints[:, 3] != 0.5, hints[:, 3], order)
        else:  # center
            geo, fb = 1 - 2 * np.abs(cx - 0.5), np.full(cand.size, 0.5, dtype=_F32)
        parts.append(np.where(has, np.clip(geo, 0, 1), fb))
    return np.mean(parts, axis=0) if parts else np.ones(cand.size, dtype=_F32)


def relation(page: PageIndex, rel: str, anchor: int, cand: np.ndarray) -> np.ndarray:
    """Relation score in [0, 1] of each candidate row to the anchor row."""
    out = np.zeros(cand.size, dtype=_F32)
    if cand.size == 0:
        return out
    use_geo = bool(page.has_geom[anchor]) and bool(page.has_geom[cand].all())
    if use_geo:
        a = page.geom[anchor]
        g = page.geom[cand]
        acx, acy = a[0] + a[2] / 2, a[1] + a[3] / 2
        cx, cy = g[:, 0] + g[:, 2] / 2, g[:, 1] + g[:, 3] / 2
        dx, dy = cx - acx, cy - acy
        tol = 4.0
        if rel in ("below", "after"):
            ok, dist = dy > tol, dy + 0.5 * np.abs(dx)
        elif rel in ("above", "before"):
            ok, dist = dy < -tol, -dy + 0.5 * np.abs(dx)
        elif rel in ("left", "right"):
            same_row = (g[:, 1] < a[1] + max(a[3], 1.0)) & (g[:, 1] + np.maximum(g[:, 3], 1.0) > a[1])
            side = dx < -tol if rel == "left" else dx > tol
            ok = side & same_row
            if not ok.any():
                ok = side
            dist = np.abs(dx) + 2.0 * np.abs(dy)
        else:
            ok, dist = np.ones(cand.size, dtype=bool), np.hypot(dx, dy)
    else:
        d = (cand - anchor).astype(_F32)
        if rel in ("below", "after", "right"):
            ok, dist = d > 0, d
        elif rel in ("above", "before", "left"):
            ok, dist = d < 0, -d
        else:
            ok, dist = d != 0, np.abs(d)
    ok &= cand != anchor
    if ok.any():
        dmin = float(np.min(dist[ok]))
        dmin = max(dmin, 1e-3)
        out[ok] = dmin / np.maximum(dist[ok], dmin)
    return out
