"""Semantic ``find``: locate snapshot elements by natural-language description.

Pipeline (see ``/work/shared/spec/find-architecture.md``)::

    snapshot elements -> descriptors -> lexical matcher  \\
                                     -> hashing embedder  -> combined score -> best ref
                                                                           -> intent cache / recovery

Public API::

    find(query, elements, *, threshold=0.3, top_k=3, lexical_weight=None,
         embedding_weight=None, explain=False) -> dict          # one-shot
    index = ElementIndex(elements)                               # once per snapshot
    index.find(query, same kwargs) -> dict                        # per query
    index.get(ref) -> ElementDescriptor | None; len(index); index.descriptors

    IntentCache(max_entries=1024, ttl=600.0, max_per_tab=128)    # per-tab LRU + TTL
    classify_error(message) -> (error_type, recoverable)
    rematch(intent, new_index, min_score=0.6) -> RecoveryMatch | None

The result dict has exactly the ``POST /find`` response fields: ``best_ref``,
``confidence``, ``score``, ``matches``, ``strategy``, ``threshold``, ``latency_ms``,
``element_count``. When nothing reaches the threshold: ``best_ref`` is ``""``, ``score``
is ``0.0``, ``confidence`` is ``"low"`` and ``matches`` is empty.
"""

from .descriptors import ElementDescriptor, build_descriptors
from .embedding import HashingEmbedder
from .intent import IntentCache, IntentRecord
from .matcher import (
    DEFAULT_EMBEDDING_WEIGHT,
    DEFAULT_LEXICAL_WEIGHT,
    DEFAULT_THRESHOLD,
    DEFAULT_TOP_K,
    STRATEGY,
    ElementIndex,
    confidence_for,
    find,
)
from .query import ParsedQuery, parse_query
from .recovery import ERROR_TYPES, RecoveryMatch, classify_error, descriptor_similarity, rematch

__all__ = [
    "find",
    "ElementIndex",
    "ElementDescriptor",
    "build_descriptors",
    "HashingEmbedder",
    "IntentCache",
    "IntentRecord",
    "classify_error",
    "rematch",
    "RecoveryMatch",
    "descriptor_similarity",
    "ERROR_TYPES",
    "confidence_for",
    "parse_query",
    "ParsedQuery",
    "STRATEGY",
    "DEFAULT_THRESHOLD",
    "DEFAULT_TOP_K",
    "DEFAULT_LEXICAL_WEIGHT",
    "DEFAULT_EMBEDDING_WEIGHT",
]
