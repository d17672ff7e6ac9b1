"""Combined matcher: lexical + hashing-embedding scores, merged per element, then the
query's structure (context, exclusions, positions, relations, ordinals) is applied.

Everything that depends only on the page is built once, into the :class:`ElementIndex`'s
:class:`~.index.pageindex.PageIndex`: descriptors, inverted indexes (key -> element rows, for own
text and for context), name sizes, roles, geometry, the page vocabulary (for typos) and the
embedding matrix. A query then touches only the postings of its own terms and does a
handful of numpy operations over the element axis, so ``index.find`` costs the query, not
the page.

The build itself works per distinct text, not per element: what a text (or a combination
of context texts) contributes is computed once and kept in a bounded process-wide cache
(:mod:`.index.parts`), so repeated texts (table rows, "Edit" buttons, a section shared by hundreds
of elements) and the next snapshot of the same page cost a lookup.

Where things are: the tunable numbers in :mod:`.weights`; words (normalisation, stems,
vocabulary, typos) in :mod:`.text`; the query read in :mod:`.query`; per-text caches in
:mod:`.index.parts`; the page index in :mod:`.index.pageindex` (postings in
:mod:`.index.postings`); query terms against a page in :mod:`.index.terms`; lexical scoring in
:mod:`.scoring.coverage`; the query's structure (states, modal dialogs, exclusions, relations,
positions, ordinals) in :mod:`.scoring.structure`; the post-scoring passes in :mod:`.passes`.
This module puts them together and ranks.

Scoring, per element (all vectors over the element axis):

* each query term gets a match strength in [0, 1]: exact stem 1, compound 0.95, synonym
  0.9 (related 0.72), typo 0.8, prefix 0.75, abbreviation 0.7 - times the field weight
  (name 1, aria-label 0.9, placeholder/description/title 0.8, value 0.55 ...). Words
  matched only in the element's context (parent, section, ancestors) count 0.55, or fully
  when the query put them in a context phrase ("in the footer") or they are container
  nouns ("footer"). Role words match the element's role.
* lexical = weighted coverage of the query terms (rarer page words weigh a bit more;
  generic verbs are bonus-only) x (0.8 + 0.2 x share of the element's own name that the
  query covered) x a mild prior for actionable elements.
* embedding = cosine of hashed word/concept/trigram vectors.
* composite = w_lex x lexical + w_emb x embedding (default 0.6 / 0.4). Elements below a
  lower internal threshold on *both* sides are dropped before the merge, so candidates
  strong on only one side survive until the final threshold.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from ..cancellation import checkpoint
from ..errors import BadRequest
from .index.descriptors import ElementDescriptor, build_descriptors
from .index.embedding import HashingEmbedder
from .index.lru import LRU
from .index.pageindex import PageIndex, build_page_index
from .index.terms import PageTerms
from .passes import PASSES, PassPage
from .query.parse import ParsedQuery, parse_query_for_page
from .scoring.coverage import lexical_scores
from .scoring.structure import ElementStates, apply_structure
from .text import paraphrase
from .weights import (
    DEFAULT_EMBEDDING_WEIGHT,
    DEFAULT_LEXICAL_WEIGHT,
    DEFAULT_THRESHOLD,
    DEFAULT_TOP_K,
    STRATEGY,
    TIE_EPS,
    TIE_POOL,
    check_number,
    confidence_for,
    mix_weights,
)

__all__ = [
    "ElementIndex",
    "find",
    "confidence_for",
    "STRATEGY",
    "DEFAULT_LEXICAL_WEIGHT",
    "DEFAULT_EMBEDDING_WEIGHT",
    "DEFAULT_THRESHOLD",
    "DEFAULT_TOP_K",
]

_F32 = np.float32


@dataclass(frozen=True, slots=True)
class _Plan:
    text: str  # the query as read: misspelt words spelt as the page does
    parsed: ParsedQuery
    qvec: tuple
    term_vecs: tuple


class ElementIndex:
    """Precomputed matching structures for one snapshot. Immutable; safe to share.

    ``index.find(query, ...)`` returns the ``POST /find`` response dict. Keep one index per
    snapshot (e.g. in the tab's ref cache) and reuse it for every query on that snapshot.
    """

    def __init__(self, elements: Iterable[Any] | None = None, *, embedder: HashingEmbedder | None = None) -> None:
        self._desc: list[ElementDescriptor] = build_descriptors(elements or ())
        self._by_ref = {d.ref: d for d in self._desc}
        self._emb = embedder or HashingEmbedder()
        self._plans = LRU(512)
        self._page: PageIndex = build_page_index(self._desc, self._emb)
        self._terms = PageTerms(self._page, self._desc, self._emb)
        self._states = ElementStates(self._desc)
        self._pass_page = PassPage(self._desc, self._page.static)

    # ------------------------------------------------------------------ accessors
    def __len__(self) -> int:
        return len(self._desc)

    def __iter__(self):
        return iter(self._desc)

    def __contains__(self, ref: object) -> bool:
        return ref in self._by_ref

    @property
    def descriptors(self) -> Sequence[ElementDescriptor]:
        return tuple(self._desc)

    def get(self, ref: str) -> ElementDescriptor | None:
        """Descriptor of ``ref``, or None."""
        return self._by_ref.get(ref)

    def clear_caches(self) -> None:
        """Forget cached query plans and term postings (benchmarks use this for cold timings)."""
        self._plans.clear()
        self._terms.clear()

    def _plan(self, query: str) -> _Plan:
        plan = self._plans.get(query)
        if plan is None:
            text = self._terms.corrected(query)
            pq = parse_query_for_page(text, self._page.pairs)
            tvs = tuple(self._terms.term_vec(t) for t in pq.terms)
            plan = _Plan(text, pq, self._terms.query_vector(pq, tvs), tvs)
            self._plans.put(query, plan)
        return plan

    # ------------------------------------------------------------------ find
    def find(
        self,
        query: Any,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        top_k: int = DEFAULT_TOP_K,
        lexical_weight: float | None = None,
        embedding_weight: float | None = None,
        explain: bool = False,
    ) -> dict[str, Any]:
        """Match ``query`` against this snapshot; returns the ``POST /find`` response dict."""
        opts = dict(threshold=threshold, top_k=top_k, lexical_weight=lexical_weight,
                    embedding_weight=embedding_weight, explain=explain)
        result = self._find(query, **opts)
        if paraphrase.applies(query, result["score"]):
            result = self._reworded(query, result, opts)
        return result

    def _reworded(self, query: str, result: dict[str, Any], opts: dict[str, Any]) -> dict[str, Any]:
        """The answer to ``query`` reworded in the page's words (:mod:`.text.paraphrase`, with
        WordNet), its scores discounted by how loose the rewording is, when that beats
        the weak ``result``; else ``result``."""
        page = self._pass_page.per_page("paraphrase_words", lambda descs: paraphrase.page_words(descs, self._page.static))
        rw = paraphrase.rewrite(self._plan(query.strip()).text, page)
        if rw is None:
            return result
        alt = self._find(rw.text, **opts)
        if alt["score"] * rw.factor <= max(result["score"], opts["threshold"]):
            return result
        for m in alt["matches"]:
            m["score"] = round(m["score"] * rw.factor, 4)
        alt["matches"] = [m for m in alt["matches"] if m["score"] >= opts["threshold"]]
        alt["score"] = alt["matches"][0]["score"]
        alt["confidence"] = confidence_for(alt["score"])
        alt["latency_ms"] = round(alt["latency_ms"] + result["latency_ms"], 3)
        if opts["explain"]:
            alt["reworded"] = rw.text
        return alt

    def _find(self, query: Any, *, threshold: float, top_k: int, lexical_weight: float | None,
              embedding_weight: float | None, explain: bool) -> dict[str, Any]:
        t0 = time.perf_counter()
        if not isinstance(query, str) or not query.strip():
            raise BadRequest("query is required", code="missing_query")
        threshold = check_number(threshold, "threshold", "invalid_threshold")
        if not 0.0 <= threshold <= 1.0:
            raise BadRequest("threshold must be between 0 and 1", code="invalid_threshold")
        if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
            raise BadRequest("topK must be a positive integer", code="invalid_top_k")
        wl, we = mix_weights(lexical_weight, embedding_weight)
        n = len(self._desc)
        if n == 0:
            return self._result([], threshold, t0, 0, explain)
        plan = self._plan(query.strip())
        pq = plan.parsed
        lex, prior = lexical_scores(self._terms, pq.terms, plan.term_vecs, hints=pq.verb_hints, lead=pq.lead_verb,
                                    action=pq.action_verb, shared=pq.shared, icon_term=pq.icon_term)
        q_own, q_ctx, a = plan.qvec
        page = self._page
        emb = page.matrix @ q_own
        if a < 1.0:
            emb = a * emb + (1.0 - a) * (page.ctx_matrix @ q_ctx)
        emb.clip(0.0, 1.0, out=emb)
        composite = wl * lex + we * emb
        internal = max(0.05, 0.5 * threshold)
        score = (composite * prior).astype(_F32, copy=False)
        score[(lex < internal) & (emb < internal)] = 0.0  # below on both sides
        apply_structure(self._terms, self._states, pq, plan.term_vecs, score, lex, prior)
        score.clip(0.0, 1.0, out=score)
        if score.size >= 2:  # a pass moves one element above others: nothing to move on a 1-element page
            for p in PASSES:
                checkpoint()
                p.apply(self._pass_page, plan.text, score)

        above = (score >= threshold if threshold > 0 else score > 0).nonzero()[0]
        pool = top_k + TIE_POOL
        if above.size > pool:
            part = np.argpartition(-score[above], pool - 1)[:pool]
            above = above[part]
        cands = above.tolist()
        self._settle_ties(cands, score, lex)
        order = sorted(cands, key=lambda i: (-float(score[i]), i))[:top_k]
        matches = []
        for i in order:
            d = self._desc[i]
            m = {"ref": d.ref, "score": round(float(score[i]), 4), "role": d.role, "name": d.name or d.primary}
            if explain:
                m["lexical_score"] = round(float(lex[i]), 4)
                m["embedding_score"] = round(float(emb[i]), 4)
                m["composite"] = round(float(composite[i]), 4)
            matches.append(m)
        result = self._result(matches, threshold, t0, n, explain)
        gap = float(score[order[0]]) - float(score[order[1]]) if len(order) >= 2 else 1.0
        if len(order) >= 2 and (gap == 0.0 or result["confidence"] == "low"
                                or (gap <= UNSURE_GAP and result["confidence"] != "high")):
            result["distinguish"] = _distinguish([self._desc[i] for i in order[:UNSURE_SHOWN]])
        if order:
            top = self._desc[order[0]]
            if top.states.get("expanded") is False and top.text and _held_words(plan.text, top):
                # matched (at least partly) on what it hides: the agent opens it, then looks again
                result["hint"] = f"{top.ref} is collapsed and holds what you asked for: expand it (click {top.ref}) first"
        return result

    @staticmethod
    def _settle_ties(cands: list[int], score: np.ndarray, lex: np.ndarray) -> None:
        """Equivalent matches (same lexical score, final scores within TIE_EPS, i.e. apart only
        by hashing noise) get the same score, so document order decides between them."""
        groups: dict[float, list[int]] = {}
        for i in cands:
            groups.setdefault(round(float(lex[i]), 4), []).append(i)
        for members in groups.values():
            if len(members) < 2:
                continue
            members.sort(key=lambda i: -float(score[i]))
            lead = float(score[members[0]])
            for i in members[1:]:
                if lead - float(score[i]) <= TIE_EPS:
                    score[i] = lead

    @staticmethod
    def _result(matches: list[dict], threshold: float, t0: float, n: int, explain: bool) -> dict[str, Any]:
        best = matches[0] if matches else None
        score = best["score"] if best else 0.0
        return {
            "best_ref": best["ref"] if best else "",
            "confidence": confidence_for(score) if best else "low",
            "score": score,
            "matches": matches,
            "strategy": STRATEGY,
            "threshold": threshold,
            "latency_ms": round((time.perf_counter() - t0) * 1000.0, 3),
            "element_count": n,
        }


# find is unsure when the best two tie, when its best is a low-confidence match, or when the best
# two are this close and the best is not a high-confidence match: it then says, for its first
# candidates, the words that tell each apart from the others
UNSURE_GAP = 0.08
UNSURE_SHOWN = 3
_WORDS = re.compile(r"[^\W_]+")


def _distinguish(cands: list[ElementDescriptor]) -> dict[str, str]:
    """ref -> the words of a candidate's own label that the other candidates' labels lack, else
    (labels alike) the words around it (its row, parent, section) that theirs lack, so an agent
    can pick one in the same call."""
    own = [_WORDS.findall(d.name or d.primary) for d in cands]
    around = [_WORDS.findall(" ".join(t for t in (d.item, d.parent, d.section, d.heading) if t)) for d in cands]
    own_sets = [{w.lower() for w in ws} for ws in own]
    around_sets = [{w.lower() for w in ws} for ws in around]
    out: dict[str, str] = {}
    for k, d in enumerate(cands):
        others_own = set().union(*(s for j, s in enumerate(own_sets) if j != k))
        words = _unique(own[k], others_own)
        if not words:
            others_all = others_own.union(*(s for j, s in enumerate(around_sets) if j != k))
            words = _unique(around[k], others_all)
        out[d.ref] = " ".join(words[:8])
    return out


def _unique(words: list[str], others: set[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for w in words:
        lw = w.lower()
        if lw not in others and lw not in seen:
            seen.add(lw)
            out.append(w)
    return out


def _held_words(query: str, d: ElementDescriptor) -> bool:
    """Whether a word of the query is in what a collapsed element hides and not in its name."""
    name, held = (d.name or "").lower(), d.text.lower()
    return any(w not in name and w in held for w in query.lower().split() if len(w) > 2)


def find(
    query: Any,
    elements: Iterable[Any] | None,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    top_k: int = DEFAULT_TOP_K,
    lexical_weight: float | None = None,
    embedding_weight: float | None = None,
    explain: bool = False,
) -> dict[str, Any]:
    """One-shot find: ``ElementIndex(elements).find(query, ...)`` (the query is validated first)."""
    if not isinstance(query, str) or not query.strip():
        raise BadRequest("query is required", code="missing_query")
    t0 = time.perf_counter()
    res = ElementIndex(elements).find(
        query, threshold=threshold, top_k=top_k, lexical_weight=lexical_weight,
        embedding_weight=embedding_weight, explain=explain,
    )
    res["latency_ms"] = round((time.perf_counter() - t0) * 1000.0, 3)
    return res
