"""Accuracy of pinchtab.find on a query corpus (prints figures; not part of the test suite).

Usage:
    .venv/bin/python bench/find_accuracy.py                       # shared corpus
    .venv/bin/python bench/find_accuracy.py --corpus tests/fixtures/find_dev
    .venv/bin/python bench/find_accuracy.py --verbose             # list failures

A corpus folder holds one sub-folder per page with ``snapshot.json`` and ``queries.json``;
optionally ``recovery-scenarios/scenarios.json`` and ``classification/cases.json``.

P@1: best_ref is in relevant_refs. Queries with ``expect_no_match`` or empty
relevant_refs are correct when best_ref is "" (counted in P@1 and reported separately).
MRR: reciprocal rank of the first relevant ref among the returned matches (top 10); for
no-match queries 1 if nothing was returned, else 0.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pinchtab.cdp.errors import classify_error  # noqa: E402
from pinchtab.find import ElementIndex, IntentCache, find, rematch  # noqa: E402

DEFAULT_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "find-corpus"


def load_pages(corpus: Path):
    for d in sorted(p for p in corpus.iterdir() if p.is_dir()):
        snap, qs = d / "snapshot.json", d / "queries.json"
        if snap.exists() and qs.exists():
            yield d.name, json.loads(snap.read_text()), json.loads(qs.read_text())


def run_queries(corpus: Path, threshold: float, verbose: bool) -> dict:
    tot = defaultdict(lambda: [0, 0])       # difficulty -> [correct, total]
    pages = {}
    rr_sum, n_all = 0.0, 0
    nomatch_ok = nomatch_total = 0
    failures = []
    for page, elements, queries in load_pages(corpus):
        pc = pt = 0
        for q in queries:
            res = find(q["query"], elements, threshold=threshold, top_k=10)
            rel = set(q.get("relevant_refs") or [])
            partial = set(q.get("partially_relevant_refs") or [])
            nomatch = bool(q.get("expect_no_match")) or not rel
            best = res["best_ref"]
            if nomatch:
                ok = best == ""
                nomatch_total += 1
                nomatch_ok += ok
                rr = 1.0 if not res["matches"] else 0.0
            else:
                ok = best in rel
                rr = 0.0
                for rank, m in enumerate(res["matches"], 1):
                    if m["ref"] in rel:
                        rr = 1.0 / rank
                        break
            rr_sum += rr
            n_all += 1
            diff = q.get("difficulty", "unknown")
            tot[diff][0] += ok
            tot[diff][1] += 1
            pc += ok
            pt += 1
            if not ok:
                got = [(m["ref"], m["score"], m["name"][:40]) for m in res["matches"][:3]]
                failures.append((page, q["query"], diff, sorted(rel) or "(no match)", sorted(partial), got,
                                 "partial" if best in partial else ""))
        pages[page] = (pc, pt)
    correct = sum(c for c, _ in tot.values())
    total = sum(t for _, t in tot.values())
    print(f"corpus: {corpus}")
    print(f"queries: {total}   threshold: {threshold}")
    print(f"P@1 overall: {correct / total:.3f}  ({correct}/{total})")
    for diff in ("easy", "medium", "hard"):
        if diff in tot:
            c, t = tot[diff]
            print(f"P@1 {diff:<7}: {c / t:.3f}  ({c}/{t})")
    print(f"MRR: {rr_sum / n_all:.3f}")
    print(f"no-match queries correctly left empty: {nomatch_ok}/{nomatch_total}")
    print("P@1 per page:")
    for page, (c, t) in pages.items():
        print(f"  {page:<28} {c / t:.3f}  ({c}/{t})")
    if verbose and failures:
        print(f"\nfailures ({len(failures)}):")
        for page, query, diff, rel, partial, got, tag in failures:
            print(f"  [{page}] ({diff}) {query!r}: expected {rel} partial {partial} got {got} {tag}")
    return {"p1": correct / total, "total": total}


def run_recovery(corpus: Path, verbose: bool) -> None:
    path = corpus / "recovery-scenarios" / "scenarios.json"
    if not path.exists():
        return
    scenarios = json.loads(path.read_text())
    recovered = refused_ok = wrong = missed = 0
    cache = IntentCache()
    for s in scenarios:
        before = ElementIndex(s["before"])
        res = before.find(s["original_query"])
        rec = cache.record_result("bench", s["original_query"], res, before)
        if rec is None or rec.ref != s["original_ref"]:
            # record the intended element anyway so recovery is what is measured
            desc = before.get(s["original_ref"])
            rec = cache.record("bench", s["original_ref"], s["original_query"], desc, res["score"], res["confidence"])
        m = rematch(rec, ElementIndex(s["after"]))
        expected = s.get("expected_ref")
        alts = set(s.get("expected_alt") or [])
        got = m.ref if m else None
        if s.get("expect_no_match") or expected is None:
            ok = got is None
            refused_ok += ok
            if not ok:
                wrong += 1
        else:
            ok = got == expected or got in alts
            recovered += ok
            if not ok:
                if got is None:
                    missed += 1
                else:
                    wrong += 1
        if verbose:
            print(f"  {s['id']:<14} {s['name']:<28} expected {expected} got {got}"
                  f"{'' if m is None else f' ({m.score:.2f})'} {'ok' if ok else 'FAIL'}")
    n_pos = sum(1 for s in scenarios if not (s.get("expect_no_match") or s.get("expected_ref") is None))
    n_neg = len(scenarios) - n_pos
    print(f"recovery: {recovered}/{n_pos} recovered correctly, {refused_ok}/{n_neg} correctly refused, "
          f"{wrong} wrong refs, {missed} missed")


def run_classification(corpus: Path, verbose: bool) -> None:
    path = corpus / "classification" / "cases.json"
    if not path.exists():
        return
    cases = json.loads(path.read_text())
    ok = 0
    for c in cases:
        t, r = classify_error(c["error"])
        good = t == c["expected_type"] and r == c["recoverable"]
        ok += good
        if verbose and not good:
            print(f"  {c['error']!r}: expected {c['expected_type']}/{c['recoverable']} got {t}/{r}")
    print(f"classification: {ok}/{len(cases)} correct")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--threshold", type=float, default=0.3)
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args()
    run_queries(args.corpus, args.threshold, args.verbose)
    run_recovery(args.corpus, args.verbose)
    run_classification(args.corpus, args.verbose)


if __name__ == "__main__":
    main()
