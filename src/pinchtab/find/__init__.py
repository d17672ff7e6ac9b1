"""Semantic ``find``: locate snapshot elements by natural-language description.

Pipeline (see ``shared/spec/find-architecture.md``)::

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
    rematch(intent, new_index, min_score=0.6) -> RecoveryMatch | None

The result dict has exactly the ``POST /find`` response fields: ``best_ref``,
``confidence``, ``score``, ``matches``, ``strategy``, ``threshold``, ``latency_ms``,
``element_count``. When nothing reaches the threshold: ``best_ref`` is ``""``, ``score``
is ``0.0``, ``confidence`` is ``"low"`` and ``matches`` is empty. ``matches`` holds at most
``top_k`` entries ``{ref, score, role, name}`` sorted by score (equivalent matches, e.g.
several identical "Save" buttons, in document order); with ``explain`` each adds
``lexical_score``, ``embedding_score`` and ``composite`` (0.6/0.4 mix before the query's
structure - exclusions, ordinals, positions - is applied). Scores are rounded to 4 places.
Weights: give one and the other is its complement; give both and they are normalised to
sum 1; negative or both zero is a ``BadRequest``. A missing/empty/non-string query raises
``BadRequest("query is required", code="missing_query")``.

Element dicts (what the snapshot should supply; only ``ref`` is required, unknown keys are
ignored, elements without ``ref`` are skipped):

* own text, by weight: ``name`` (accessible name); ``label``/``aria_label``;
  ``placeholder``, ``title``/``alt``/``tooltip``, ``description`` (icon-only buttons:
  "gear icon"); ``text``; ``value`` (weak); ``type`` (input type); ``href`` (weak).
* ``role``: matched by role words ("button", "field", "dropdown"...), and actionable roles
  are preferred over containers/text unless a role word asks for them.
* context, in order of usefulness: ``parent`` - a name ("Login form") **or the ref of the
  parent element** (refs are resolved: a button in a table row sees the row's text, a menu
  item its menu, a control in a dialog knows it is in a dialog, a cell its column header);
  ``section`` (landmark/region name, inherited by descendants); ``heading`` (nearest
  preceding heading); ``item`` (text of the repeated item around a control - a mail row, a
  comment, a product card - or a dialog's opening text). These drive "in the footer",
  "Alice's row", "reply to Gary", "not in the header". When the query opens with the
  control's own word ("refund Chen Wei"), its other words count nearly fully in context.
* ``depth`` (tree depth, document order): tells which elements a dialog contains.
* ``positional``: ``{x, y, width, height}`` enables "top right", "below password",
  "left of state"; without it positions fall back to section names and document order.
* states: ``interactive`` (false lowers the score a little), ``disabled``, ``modal``
  (dialog; while one is open, the page behind it weighs less unless the query places the
  target), ``expanded``, ``checked`` (state words: "the unchecked newsletter box",
  "collapsed section", "uncheck X").
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .index.descriptors import ElementDescriptor, build_descriptors
    from .index.embedding import HashingEmbedder
    from .intent import IntentCache, IntentRecord
    from .matcher import ElementIndex, find
    from .query.parse import ParsedQuery, parse_query
    from .recovery import RecoveryMatch, descriptor_similarity, rematch
    from .weights import (
        DEFAULT_EMBEDDING_WEIGHT,
        DEFAULT_LEXICAL_WEIGHT,
        DEFAULT_THRESHOLD,
        DEFAULT_TOP_K,
        STRATEGY,
        confidence_for,
    )

# Loaded on first use: the matcher pulls in numpy (~0.1-0.25 s and ~18 MB), which a bridge needs
# only at its first find, not to start (its intent cache and locators need none of it).
_WHERE = {
    "ElementDescriptor": "index.descriptors", "build_descriptors": "index.descriptors",
    "HashingEmbedder": "index.embedding", "IntentCache": "intent", "IntentRecord": "intent", "ElementIndex": "matcher",
    "find": "matcher", "ParsedQuery": "query.parse", "parse_query": "query.parse", "RecoveryMatch": "recovery",
    "descriptor_similarity": "recovery", "rematch": "recovery", "DEFAULT_EMBEDDING_WEIGHT": "weights",
    "DEFAULT_LEXICAL_WEIGHT": "weights", "DEFAULT_THRESHOLD": "weights", "DEFAULT_TOP_K": "weights",
    "STRATEGY": "weights", "confidence_for": "weights",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "find",
    "ElementIndex",
    "ElementDescriptor",
    "build_descriptors",
    "HashingEmbedder",
    "IntentCache",
    "IntentRecord",
    "rematch",
    "RecoveryMatch",
    "descriptor_similarity",
    "confidence_for",
    "parse_query",
    "ParsedQuery",
    "STRATEGY",
    "DEFAULT_THRESHOLD",
    "DEFAULT_TOP_K",
    "DEFAULT_LEXICAL_WEIGHT",
    "DEFAULT_EMBEDDING_WEIGHT",
]
