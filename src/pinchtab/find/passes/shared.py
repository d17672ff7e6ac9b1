"""Shared pieces of the post-scoring passes (:mod:`.adjust`, :mod:`.search_intent`,
:mod:`.text_entry`, :mod:`.item_action`, :mod:`.toggle`, :mod:`.sort_intent`): how well a
candidate covers the words a query names, the one best, and how a pick is put first."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..weights import PASS_LIFT

__all__ = ["covers", "unique_best", "lift_sole_first"]

AROUND = 0.5  # a word found around a candidate (its section, heading, item) counts half


def covers(words: Sequence[str], own: Sequence[frozenset[str]], around: Sequence[frozenset[str]]) -> list[float]:
    """Per candidate: the share of ``words`` in its own stems (1) or around it (``AROUND``)."""
    n = len(words)
    return [sum(1.0 if w in o else AROUND if w in a else 0.0 for w in words) / n for o, a in zip(own, around)]


def unique_best(rows: Sequence[int], scores: Sequence[float]) -> tuple[list[int], float]:
    """(the rows sharing the highest score, that score)."""
    top = max(scores)
    return [r for r, c in zip(rows, scores) if c == top], top


def lift_sole_first(cands: list[tuple[float, int]], score: np.ndarray, best: int) -> None:
    """``cands``: (rank key, row); the row with the highest key, when no other has it, scores
    just above row ``best`` (in place); two that rank first alike are no pick."""
    if not cands:
        return
    cands.sort(reverse=True)
    if len(cands) > 1 and cands[1][0] == cands[0][0]:
        return
    score[cands[0][1]] = min(1.0, float(score[best]) + PASS_LIFT)
