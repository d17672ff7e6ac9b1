"""Shared pieces of the post-scoring passes (:mod:`.adjust`, :mod:`.search_intent`,
:mod:`.text_entry`): how well a candidate covers the words a query names, and the one best."""

from __future__ import annotations

from typing import Sequence

__all__ = ["covers", "unique_best"]

AROUND = 0.5  # a word found around a candidate (its section, heading, item) counts half


def covers(words: Sequence[str], own: Sequence[frozenset[str]], around: Sequence[frozenset[str]]) -> list[float]:
    """Per candidate: the share of ``words`` in its own stems (1) or around it (``AROUND``)."""
    n = len(words)
    return [sum(1.0 if w in o else AROUND if w in a else 0.0 for w in words) / n for o, a in zip(own, around)]


def unique_best(rows: Sequence[int], scores: Sequence[float]) -> tuple[list[int], float]:
    """(the rows sharing the highest score, that score)."""
    top = max(scores)
    return [r for r, c in zip(rows, scores) if c == top], top
