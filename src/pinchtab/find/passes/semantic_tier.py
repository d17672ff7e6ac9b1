"""The semantic tier of ``find``: a guarded rescue for queries that share no word with the page.

Lexical matching and the hashing embedder decide whenever the query shares words (or known
synonyms) with an element. When it shares none ("upload my CV" -> "Resume/CV", "save as
draft" -> "Save and finish later"), nothing reaches the threshold and ``find`` returns no
match; the distilled sentence model of :mod:`pinchtab.find.semantic.model` may still relate them.

Measured on five sets (README, find section), its similarities are too noisy to blend into
every score: adding even a small calibrated share to all elements cost 1-5 points of P@1 on
the tuned sets (it reorders elements the lexical side already ranks right) and broke no-match
abstention. So it only acts when no element reaches ``RESCUE_BELOW``, and only for an
element whose own text is clearly the most similar one (``SIM_MIN``, ``MARGIN`` over the
second) that is a control (not static text), which then scores ``RESCUE_SCALE * sim`` (0.30-0.50: low confidence).

The element side is its own text (name, label, placeholder, title, description); element
vectors are computed once per index, lazily, from the model's per-text cache.
"""

from __future__ import annotations

import numpy as np

from ..semantic import model as semantic_model
from .base import PassPage

__all__ = ["apply", "element_matrix", "own_text"]

RESCUE_BELOW = 0.3
SIM_MIN = 0.6
MARGIN = 0.05
RESCUE_SCALE = 0.5


def own_text(d) -> str:
    parts: list[str] = []
    for s in (d.name, d.label, d.placeholder, d.title, d.description):
        if s and s not in parts:
            parts.append(s)
    return " ".join(parts)[:300]


def element_matrix(page: PassPage, model: semantic_model.StaticModel) -> np.ndarray:
    """(n, dim) own-text vectors of the elements (built once, kept with the page)."""
    return page.per_page("semantic_matrix", lambda descs: model.embed_many([own_text(d) for d in descs]))


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Raise the rescued element when the rescue applies."""
    if float(score.max()) >= RESCUE_BELOW:
        return
    model = semantic_model.get_model()  # looked up per call: tests replace it
    if model is None:
        return
    q = model.embed(query)
    if not q.any():
        return
    sim = np.where(page.static, -1.0, element_matrix(page, model) @ q)  # a control, not a status text that happens to be close
    top2 = np.argpartition(-sim, 1)[:2]
    a, b = (top2[0], top2[1]) if sim[top2[0]] >= sim[top2[1]] else (top2[1], top2[0])
    if sim[a] >= SIM_MIN and sim[a] - sim[b] >= MARGIN:
        score[a] = max(float(score[a]), RESCUE_SCALE * float(sim[a]))
