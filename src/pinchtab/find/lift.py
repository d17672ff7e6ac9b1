"""How a post-scoring pass (item action, toggle) puts its pick first: the one candidate that
ranks first, lifted just above the former best; two that rank first alike are no pick."""

from __future__ import annotations

import numpy as np

from .weights import PASS_LIFT

__all__ = ["lift_sole_first"]


def lift_sole_first(cands: list[tuple[float, int]], score: np.ndarray, best: int) -> np.ndarray:
    """``cands``: (rank key, row); the row with the highest key, when no other has it, scores
    just above row ``best`` (in place)."""
    if not cands:
        return score
    cands.sort(reverse=True)
    if len(cands) > 1 and cands[1][0] == cands[0][0]:
        return score
    score[cands[0][1]] = min(1.0, float(score[best]) + PASS_LIFT)
    return score
