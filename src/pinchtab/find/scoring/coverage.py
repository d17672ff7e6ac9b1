"""Lexical score of every element for a query: weighted coverage of the query's terms.

All terms are scored at once: their strengths go into one (terms x elements) matrix, role
words are max-ed in, and coverage is a pair of weighted sums, times a bonus for how much of
the element's own name the query covered; the element's prior comes with it (lifted or
lowered by role words and the query's verb).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..index.terms import PageTerms, TermVec
from ..query.parse import Term
from ..text import vocab
from ..weights import (
    ACTION_NON_INTERACTIVE,
    CONTEXT_FACTOR,
    CTX_OWN_FACTOR,
    LEAD_VERB_CONTEXT,
    MISSING_ACTION,
    ROLE_MISMATCH,
    VERB_HINT_WEIGHT,
    W_ICON,
)

__all__ = ["lexical_scores"]


def _icon_word(pt: PageTerms, k: int, S: np.ndarray, wl: list[float], bonus: list[bool]) -> np.ndarray | None:
    """"trash can icon": on a page with icon controls (the snapshot's ``icon``: named, no word
    shown) the word ``terms[k]`` says what the target looks like, as a role word does;
    elsewhere it stays a filler word. Returns the rows it fits, or None."""
    icons = pt.icon_vec()
    if icons is None:
        return None
    # an icon control fits it; a text that only says the word (a help text's "arrow button")
    # describes one, it is not one
    S[k] = icons
    wl[k] = W_ICON
    bonus[k] = False
    return icons


def _one_word_one_term(pt: PageTerms, shared: tuple, S: np.ndarray) -> None:
    """One element word answers one query word: where two query words share a related concept
    (``shared``, from the parse) and an element matches one of them only through it, both
    matches are most likely that one word ("download as PDF" -> "Save": one verb, not the
    download and the PDF; "customize cookie settings" -> the "Cookie settings" text does not
    also customize). The weaker match is dropped."""
    for a, b, key, qa, qb in shared:
        got = pt.page.content.get_arrays(key)
        if got is None:
            continue
        rows, vals = got
        sa, sb = S[a, rows], S[b, rows]
        both = (sa > 0) & (sb > 0)
        b_via = both & np.isclose(sb, vals * qb) & (sa >= sb)
        a_via = both & ~b_via & np.isclose(sa, vals * qa) & (sb > sa)
        if b_via.any():
            S[b, rows[b_via]] = 0.0
        if a_via.any():
            S[a, rows[a_via]] = 0.0


_F32 = np.float32


def lexical_scores(pt: PageTerms, terms: Sequence[Term], tvs: Sequence[TermVec], *,
                   hints: dict[str, float] | None = None, lead: int | None = None,
                   action: bool = False, shared: tuple = (), icon_term: int | None = None,
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Lexical score vector and each element's prior (lifted where a role word asked for its role).

    All terms are scored at once: their strengths go into one (terms x elements) matrix
    with two scatters (own text, context), role words are max-ed in, and coverage is a
    pair of weighted sums.
    """
    page = pt.page
    n = len(pt.desc)
    T = len(terms)
    if T == 0:
        return np.zeros(n, dtype=_F32), page.prior
    S = np.zeros((T, n), dtype=_F32)
    x_idx, x_val, x_fac, h_idx, h_val = [], [], [], [], []
    wl: list[float] = []
    bonus: list[bool] = []
    role_terms = []
    for k, (t, tv) in enumerate(zip(terms, tvs)):
        if tv.c_rows.size:
            # each term writes its own row of S (one call per term, no concatenation)
            S[k, tv.c_rows] = tv.c_vals * CTX_OWN_FACTOR if t.ctx else tv.c_vals
        if t.role:
            role_terms.append((k, t.role))
        elif tv.x_rows.size:
            x_idx.append(tv.x_rows + k * n)
            x_val.append(tv.x_vals)
            x_fac.append((1.0 if (t.ctx or t.container) else CONTEXT_FACTOR, tv.x_rows.size))
        if tv.n_rows.size:
            h_idx.append(tv.n_rows)
            h_val.append(tv.n_vals)
        if t.ctx and not t.role and not tv.c_rows.size and not tv.x_rows.size:
            # "in the track list" where the page calls no container so: it cannot tell
            # elements apart, and only lowers every score
            wl.append(0.0)
        else:
            wl.append(t.weight * pt.idf(tv.df))
        bonus.append(t.bonus)
    if shared:
        _one_word_one_term(pt, shared, S)
    icon_ok = _icon_word(pt, icon_term, S, wl, bonus) if icon_term is not None else None
    w = np.array(wl, dtype=_F32)
    flat = S.reshape(-1)
    if x_idx:
        if len(x_idx) == 1:
            xi, xv = x_idx[0], x_val[0] * x_fac[0][0]
        else:
            xi = np.concatenate(x_idx)
            f0 = x_fac[0][0]
            if all(f == f0 for f, _ in x_fac):
                xv = np.concatenate(x_val) * f0
            else:
                xv = np.concatenate(x_val) * np.repeat(np.array([f for f, _ in x_fac], dtype=_F32),
                                                       [m for _, m in x_fac])
        flat[xi] = np.maximum(flat[xi], xv)
    if lead is not None and lead < T and tvs[lead].c_rows.size:
        lrows = tvs[lead].c_rows[tvs[lead].c_vals >= 0.6]
        lrows = lrows[~page.static[lrows]]  # a control, not a static text that says the verb
        if lrows.size:
            lmask = np.zeros(n, dtype=bool)
            lmask[lrows] = True
            for k, (t, tv) in enumerate(zip(terms, tvs)):
                if k == lead or t.role or t.ctx or t.container or not tv.x_rows.size:
                    continue
                m = lmask[tv.x_rows]
                if m.any():
                    r = tv.x_rows[m]
                    S[k, r] = np.maximum(S[k, r], tv.x_vals[m] * LEAD_VERB_CONTEXT)
    role_ok = None
    for k, rw in role_terms:
        # a role word describes the target itself: its role, or its own text ("menu")
        rv = pt.role_vec(rw)
        np.maximum(S[k], rv, out=S[k])
        if rw not in vocab.WEAK_ROLE_WORDS:
            role_ok = rv if role_ok is None else np.maximum(role_ok, rv)
    if any(bonus):
        wb = np.array([x if b else 0.0 for x, b in zip(wl, bonus)], dtype=_F32)
        num = w @ S
        den = wb @ S + float(w[~np.array(bonus)].sum())
    else:
        num = w @ S
        den = float(w.sum())
    if hints:
        hv = pt.hint_vec(hints) * VERB_HINT_WEIGHT
        num = num + hv
        den = den + hv
    qcov = num / np.maximum(den, 1e-9)
    if h_idx:
        if len(h_idx) == 1:
            hits = np.bincount(h_idx[0], weights=h_val[0], minlength=n)
        else:
            hits = np.bincount(np.concatenate(h_idx), weights=np.concatenate(h_val), minlength=n)
        lex = qcov * (0.8 + 0.2 * (np.minimum(hits, page.n_name) / page.n_name))
    else:
        hits = 0.0
        lex = qcov * 0.8
    prior = page.prior
    if hints:
        prior = np.where(page.static, prior * ACTION_NON_INTERACTIVE, prior).astype(_F32)
    if action and lead is not None and lead < T:
        # the element matches the object but not the (specific) action the query asks for
        # (an element that matches only the verb is fine: "play video" -> Play)
        others = [k for k, t in enumerate(terms) if k != lead and not t.bonus and not t.role]
        if others:
            obj = S[others].max(axis=0) > 0
            # and the other way round: the verb on another object ("add labels" is not "Add or
            # remove reactions"); a bare verb ("Play" for "play video") names none
            missing = np.where(obj, S[lead] <= 0, (S[lead] > 0) & (page.n_name > hits + 1))
            prior = np.where(missing, prior * MISSING_ACTION, prior).astype(_F32)
            if hints:
                # twice when it is a control of a kind the action is not done with: a list box or
                # a field that names the object cannot download, delete or import it ("download
                # the PDF version" is no "Version" list box, "delete message" no message box)
                unfit = obj & (S[lead] <= 0) & (pt.hint_vec(hints) <= 0) & ~page.static
                prior = np.where(unfit, prior * MISSING_ACTION, prior).astype(_F32)
    if icon_ok is not None:
        role_ok = icon_ok if role_ok is None else np.maximum(role_ok, icon_ok)
    if role_ok is not None:
        prior = np.where(role_ok > 0, np.maximum(prior, 1.0), prior * ROLE_MISMATCH)
    return lex.astype(_F32, copy=False), prior
