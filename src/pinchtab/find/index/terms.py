"""Query terms against one page: each term's match strength per element, role vectors and
the query's embedding.

A query term (:class:`~pinchtab.find.query.parse.Term`) resolves to alternatives - its stem and
surface form, synonyms and concepts, compounds, and for a word not on the page its typos,
completions and abbreviations - whose postings are max-merged into a :class:`TermVec`: the
rows it matches in own text, in the element's name and in context, with strengths. Cached
per index (:class:`PageTerms`); the page-independent embedding of a term is cached
process-wide.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..query.parse import ParsedQuery, Term
from ..text import lexical, typos, vocab
from ..text.fuzzy import GLOBAL_FUZZY, MAX_FUZZY_LEN
from ..weights import CONTEXT_LEAK, IDF_ALPHA, Q_ABBREV, Q_COMPOUND, Q_LONE_PHRASE_WORD, Q_PREFIX, Q_TYPO1, Q_TYPO2
from .descriptors import ElementDescriptor
from .embedding import HashingEmbedder
from .lru import LRU
from .pageindex import PageIndex

__all__ = ["PageTerms", "TermVec"]

_F32 = np.float32
_EMPTY_I = np.zeros(0, dtype=np.int32)
_EMPTY_F = np.zeros(0, dtype=np.float32)
SMALL_MERGE = 512
_TERM_FEATURES: dict = {}
TERM_CACHE_MAX = 20_000  # query units whose page-independent parts are kept (process-wide)
_OPPOSED_KEYS: dict = {}  # query unit (joined, stems, concepts) -> the keys of its antonyms
_TOGGLE_ROLES = frozenset({"switch", "checkbox", "menuitemcheckbox", "togglebutton"})


def _nonempty(v) -> bool:
    return bool(v.any()) if isinstance(v, np.ndarray) else bool(v)


@dataclass(frozen=True, slots=True)
class TermVec:
    """Where one query term matches on the page, and how strongly (rows ascending)."""

    c_rows: np.ndarray   # rows matched in own text
    c_vals: np.ndarray
    n_rows: np.ndarray   # rows where the match hit the element's name
    n_vals: np.ndarray   # how many name words that hit covers
    x_rows: np.ndarray   # rows matched in context
    x_vals: np.ndarray
    df: int
    anti: np.ndarray     # rows whose own text says the opposite (and not the term itself)


class PageTerms:
    """Resolves query terms against one page index; keeps what it resolved (bounded)."""

    def __init__(self, page: PageIndex, desc: Sequence[ElementDescriptor], emb: HashingEmbedder) -> None:
        self.page = page
        self.desc = desc
        self.emb = emb
        self._vecs = LRU(2048)
        self._roles: dict[str, np.ndarray] = {}
        self._icons: np.ndarray | bool | None = None  # icon controls (False: the page has none)

    def clear(self) -> None:
        """Forget the resolved terms."""
        self._vecs.clear()

    def corrected(self, query: str) -> str:
        """``query`` with its misspelt words spelt as the page does (:func:`..text.typos.correct_query`)."""
        vids, vpage = self.page.vocab.ids, self.page.vocab.page
        return typos.correct_query(self, self.desc, query, lambda st: vids.get(st) in vpage)

    def word_alternatives(self, st: str, raw: str, concepts, joins=(), *, fuzzy: bool = True) -> dict[str, float]:
        alts: dict[str, float] = {}

        def put(k: str, q: float) -> None:
            if alts.get(k, 0.0) < q:
                alts[k] = q

        put(st, 1.0)  # element postings carry STEM_ONLY for inflected forms
        if raw != st:
            put(lexical.SURFACE + raw, 1.0)
        for c, q in concepts:
            put(c, q)
        vids, vpage = self.page.vocab.ids, self.page.vocab.page
        for j in joins:
            if vids.get(j) in vpage:
                put(j, Q_COMPOUND)
        if (fuzzy and vids.get(st) not in vpage and st not in lexical.KNOWN_STEMS
                and raw not in lexical.KNOWN_STEMS):
            for v, dist in typos.surface_typos(self, self.desc, raw):  # "serings": its stem "ser" misleads
                put(v, Q_TYPO1 if dist == 1 else Q_TYPO2)
        if not st.isalpha() or len(st) < 3:
            return alts
        # acronyms on the page ("INV" for invoice, "QTY" for quantity)
        abbrevs = self.page.abbrevs
        if abbrevs:
            # the page's words that are prefixes of the term (``fuzzy.prefixes_of``), abbreviations
            # first: a test of the few abbreviations is cheaper than one of the page's words
            for k in range(3, len(st)):
                v = st[:k]
                if v in abbrevs and k / len(st) >= 0.4 and v in self.page.fuzzy:
                    put(v, Q_ABBREV)
        if (vids.get(st) in vpage or not fuzzy or len(st) < 4 or len(st) > MAX_FUZZY_LEN
                or st in lexical.KNOWN_STEMS or raw in lexical.KNOWN_STEMS):
            # on the page, or a known word spelled right (its synonyms were added above): no fuzzing
            return alts
        # unknown word, not on this page: typos, prefixes, abbreviations
        for cand in {st, raw}:
            for v, dist in self.page.fuzzy.typos(cand):
                put(v, Q_TYPO1 if dist == 1 else Q_TYPO2)
        for v in self.page.fuzzy.completions(st):
            if len(st) / len(v) >= 0.4:
                put(v, Q_PREFIX)
        for v in self.page.fuzzy.prefixes_of(st):
            if len(v) / len(st) >= 0.5:
                put(v, Q_ABBREV)
        for v, dist in GLOBAL_FUZZY.typos(st):
            for c, q in lexical.concepts_of_word(v).items():
                put(c, q * (Q_TYPO1 if dist == 1 else Q_TYPO2))
        return alts

    def accumulate(self, alts: dict[str, float], n: int, hit_weight: float = 1.0):
        """Max-merge the postings of a term's alternatives -> (own text, context, name hits).

        Small merges run on Python dicts (cheaper than numpy calls at this size); large
        ones on dense numpy arrays. Returns dicts row -> value, or dense arrays.
        """
        cd, xd = self.page.content, self.page.context
        ids, cs, xs = cd.ids, cd.span, xd.span
        cstart, cend, xstart, xend = cd.start, cd.end, xd.start, xd.end
        found = []  # (alternative, quality, its number in content or None, ... in context or None)
        total = 0
        for k, q in alts.items():
            j = ids.get(k)
            if j is None:
                continue
            tc = cs.get(j)
            tx = xs.get(j)
            if tc is not None:
                total += cend[tc] - cstart[tc]
            elif tx is None:
                continue
            if tx is not None:
                total += xend[tx] - xstart[tx]
            found.append((k, q, tc, tx))
        if total <= SMALL_MERGE:
            c: dict[int, float] = {}
            x: dict[int, float] = {}
            h: dict[int, float] = {}
            names = self.page.names
            for k, q, tc, tx in found:
                if tc is not None:
                    for r, v in cd.dict_at(tc).items():
                        v *= q
                        if v > c.get(r, 0.0):
                            c[r] = v
                    if q >= 0.6:
                        nm = names.list_at(names.span.get(ids[k]))
                        if nm:
                            for r in nm:
                                h[r] = hit_weight
                if tx is not None:
                    for r, v in xd.dict_at(tx).items():
                        v *= q
                        if v > x.get(r, 0.0):
                            x[r] = v
            if h:
                h = {r: v for r, v in h.items() if r in c}
            return c, x, h
        c = np.zeros(n, dtype=_F32)
        x = np.zeros(n, dtype=_F32)
        nh = np.zeros(n, dtype=_F32)
        names = self.page.names
        for k, q, tc, tx in found:
            if tc is not None:
                rows, vals = cd.arrays_at(tc)
                c[rows] = np.maximum(c[rows], vals * q)
                if q >= 0.6:
                    nr = names.get_rows(k)
                    if nr is not None:
                        nh[nr] = hit_weight
            if tx is not None:
                rows, vals = xd.arrays_at(tx)
                x[rows] = np.maximum(x[rows], vals * q)
        nh[c <= 0] = 0.0
        return c, x, nh

    @staticmethod
    def _dense(v, n: int) -> np.ndarray:
        if isinstance(v, np.ndarray):
            return v
        d = np.zeros(n, dtype=_F32)
        if v:
            d[np.fromiter(v.keys(), dtype=np.int64, count=len(v))] = np.fromiter(v.values(), dtype=_F32, count=len(v))
        return d

    @staticmethod
    def _sparse(v) -> tuple[np.ndarray, np.ndarray]:
        if isinstance(v, np.ndarray):
            rows = np.flatnonzero(v).astype(np.int32)
            return rows, v[rows]
        if not v:
            return _EMPTY_I, _EMPTY_F
        return (np.fromiter(v.keys(), dtype=np.int32, count=len(v)),
                np.fromiter(v.values(), dtype=_F32, count=len(v)))

    def term_vec(self, term: Term) -> TermVec:
        key = term.key
        tv = self._vecs.get(key)
        if tv is not None:
            return tv
        n = len(self.desc)
        u = term.unit
        if u.phrase:
            alts = {u.joined: 1.0}
            for c_, q in u.concepts:
                alts[c_] = max(alts.get(c_, 0.0), q)
            parts = [self.accumulate(alts, n, float(len(u.stems)))]
            # partial credit: the phrase's words on their own, averaged
            words_ = [w for w in u.words if not lexical.is_stop(w)] or list(u.words)
            # "save as draft": a phrase with one content word falls back on that word, but
            # only where the phrase means nothing on the page ("sign in" is not "sign-up")
            lone = len(words_) == 1 and len(u.words) > 1 and not any(_nonempty(p) for p in parts[0][:2])
            if len(words_) > 1 or lone:
                subs = []
                for w in words_:
                    st = lexical.stem(w)
                    a = self.word_alternatives(st, w, tuple(lexical.concepts_of_word(st).items()), fuzzy=False)
                    subs.append(self.accumulate(a, n))
                k = float(len(words_)) if len(words_) > 1 else 1.0 / Q_LONE_PHRASE_WORD
                if all(isinstance(p[0], dict) for p in subs + parts):
                    cs: dict[int, float] = {}
                    xs: dict[int, float] = {}
                    hs: dict[int, float] = {}
                    for cw, xw, hw in subs:
                        for r, v in cw.items():
                            cs[r] = cs.get(r, 0.0) + v / k
                        for r, v in xw.items():
                            xs[r] = xs.get(r, 0.0) + v / k
                        for r, v in hw.items():
                            hs[r] = hs.get(r, 0.0) + v
                    c, x, h = parts[0]
                    for r, v in cs.items():
                        if v > c.get(r, 0.0):
                            c[r] = v
                    for r, v in xs.items():
                        if v > x.get(r, 0.0):
                            x[r] = v
                    for r, v in hs.items():
                        if v > h.get(r, 0.0):
                            h[r] = v
                    parts = [(c, x, h)]
                else:
                    c, x, h = (self._dense(v, n) for v in parts[0])
                    cs = sum(self._dense(p[0], n) for p in subs) / k
                    xs = sum(self._dense(p[1], n) for p in subs) / k
                    hs = sum(self._dense(p[2], n) for p in subs)
                    parts = [(np.maximum(c, cs), np.maximum(x, xs), np.maximum(h, hs))]
            c, x, h = parts[0]
        else:
            alts = self.word_alternatives(u.stems[0], u.words[0], u.concepts, term.joins, fuzzy=not term.bonus)
            c, x, h = self.accumulate(alts, n)
        c_rows, c_vals = self._sparse(c)
        x_rows, x_vals = self._sparse(x)
        n_rows, n_vals = self._sparse(h)
        tv = TermVec(c_rows, c_vals, n_rows, n_vals, x_rows, x_vals, int(c_rows.size), self.opposed(u, c_rows))
        self._vecs.put(key, tv)
        return tv

    def opposed(self, u, matched: np.ndarray) -> np.ndarray:
        """Rows whose own text carries an antonym of the unit and do not match the unit itself."""
        ukey = (u.joined, u.stems, u.concepts)  # what it reads
        opp = _OPPOSED_KEYS.get(ukey)
        if opp is None:
            keys = {u.joined, *u.stems, *(c for c, q in u.concepts if q >= lexical.SYN_QUALITY)}
            opp = set()
            for k in keys:
                o = lexical.OPPOSITES.get(k)
                if o:
                    opp |= o
            if len(_OPPOSED_KEYS) > TERM_CACHE_MAX:
                _OPPOSED_KEYS.clear()
            _OPPOSED_KEYS[ukey] = opp  # never changed: read only below
        if not opp:
            return _EMPTY_I
        rows: set[int] = set()
        for k in opp:
            p = self.page.content.get_list(k)
            if p:
                rows.update(p)
        if not rows:
            return _EMPTY_I
        rows.difference_update(matched.tolist())
        # a toggle does both: "hide my online status" is the "Show when I'm online" switch
        rows = {r for r in rows if self.desc[r].role.lower() not in _TOGGLE_ROLES}
        return np.fromiter(rows, dtype=np.int32, count=len(rows))

    def role_vec(self, role_word: str) -> np.ndarray:
        v = self._roles.get(role_word)
        if v is None:
            table = np.zeros(len(self.page.role_index), dtype=_F32)
            for r, s in vocab.ROLE_WORDS.get(role_word, {}).items():
                j = self.page.role_index.get(r)
                if j is not None:
                    table[j] = s
            v = table[self.page.role_ids]
            self._roles[role_word] = v
        return v

    def icon_vec(self) -> np.ndarray | None:
        """1 where the element is an icon control (named, no word shown), or None if none is."""
        if self._icons is None:
            v = np.array([1.0 if d.states.get("icon") is True else 0.0 for d in self.desc], dtype=_F32)
            self._icons = v if v.any() else False
        return self._icons if self._icons is not False else None

    def hint_vec(self, hints: dict[str, float]) -> np.ndarray:
        """Per element, how well its role fits the query's verb."""
        table = np.zeros(len(self.page.role_index), dtype=_F32)
        for r, s in hints.items():
            j = self.page.role_index.get(r)
            if j is not None:
                table[j] = s
        return table[self.page.role_ids]

    # ------------------------------------------------------------------ query embedding
    def idf(self, df: int) -> float:
        return 1.0 + IDF_ALPHA * (self.page.log_n - math.log(1.0 + df))

    def term_features(self, t: Term) -> np.ndarray:
        """Unweighted embedding contribution of one query term (cached across indexes)."""
        emb = self.emb
        # keyed by what it reads (hashing the whole unit, a dataclass of tuples, costs more)
        key = (emb.dim, t.role) if t.role else (emb.dim, t.unit.stems, t.unit.concepts)
        v = _TERM_FEATURES.get(key)
        if v is not None:
            return v
        idx: list[np.ndarray] = []
        val: list[np.ndarray] = []
        si: list[int] = []
        sv: list[float] = []
        if t.role:
            for r, s_ in vocab.ROLE_WORDS.get(t.role, {}).items():
                if s_ >= 0.8:
                    i, sg = emb.feature_slot("r:" + r)
                    si.append(i)
                    sv.append(sg * 0.5)
        else:
            cs = t.unit.concepts
            norm = 1.0 / math.sqrt(len(cs)) if cs else 0.0
            for st in t.unit.stems:
                i, v_ = emb.stem_features(st)
                idx.append(i)
                val.append(v_)
            for c, q in cs:
                i, sg = emb.concept_slot(c)
                si.append(i)
                sv.append(sg * q * norm)
        if si:
            idx.append(np.array(si, dtype=np.int64))
            val.append(np.array(sv, dtype=_F32))
        if idx:
            v = np.bincount(np.concatenate(idx), weights=np.concatenate(val), minlength=emb.dim).astype(_F32)
        else:
            v = np.zeros(emb.dim, dtype=_F32)
        if len(_TERM_FEATURES) > TERM_CACHE_MAX:
            _TERM_FEATURES.clear()
        _TERM_FEATURES[key] = v
        return v

    def query_vector(self, pq: ParsedQuery, tvs: Sequence[TermVec]) -> tuple[np.ndarray, np.ndarray, float]:
        """(own-text query vector, context query vector, weight of the own-text similarity).

        Context words of the query are compared with element context; the other words
        mostly with element text and a little (CONTEXT_LEAK) with element context too.
        """
        dim = self.emb.dim
        own = np.zeros(dim, dtype=_F32)
        ctx = np.zeros(dim, dtype=_F32)
        w_own = w_ctx = 0.0
        for t, tv in zip(pq.terms, tvs):
            w = t.weight * self.idf(tv.df)
            f = self.term_features(t)
            if (t.ctx or t.container) and not t.role:
                ctx += w * f
                w_ctx += w
            else:
                own += w * f
                w_own += w
                if tv.x_rows.size and not t.role:
                    # this word does occur in some element's context on this page
                    ctx += CONTEXT_LEAK * w * f
                    w_ctx += CONTEXT_LEAK * w
        for v in (own, ctx):
            nrm = float(np.sqrt(v @ v))
            if nrm > 0:
                v /= nrm
        total = w_own + w_ctx
        a = w_own / total if total > 0 else 1.0
        return own, ctx, a
