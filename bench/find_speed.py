"""Speed of pinchtab.find (prints a table; not part of the test suite).

Usage:
    .venv/bin/python bench/find_speed.py            # 16, 100, 1,000, 10,000 elements
    .venv/bin/python bench/find_speed.py --quick    # fewer iterations
    .venv/bin/python bench/find_speed.py --cpu      # CPU time of this thread instead of wall time

Synthetic pages are built from the shared corpus snapshots (real roles, names, sections,
parent refs), cloned with varied names so larger pages are not just repeats. Queries are
the corpus queries.

Reported, per page size (median of many calls, microseconds):
* ``find``       - ``index.find`` on a prebuilt index whose per-index caches (term postings,
                   query vector, plan) are cleared before every call; only the page-independent
                   parse of the query text is cached (a query text seen before, on any page).
                   This is the figure the targets refer to; ``find best`` is the median of
                   the least disturbed round (other processes share the CPUs).
* ``new query``  - same, but the parse cache cleared too (a query text never seen before).
* ``repeat``     - ``index.find`` when the same query was already run on that index.
* ``one-shot``   - ``find(query, elements)``: builds the index, then matches.
* ``build``      - ``ElementIndex(elements)``, the same page again: find's per-text caches are
                   warm, as for consecutive snapshots of one page (``bench/find_build.py
                   --new-page`` / ``--cold`` time a page not seen before / a fresh process).

``--cpu`` times with the thread's CPU clock: on a loaded machine (more runnable processes than
cores) a wall-clock median of anything longer than a scheduler slice mostly measures the wait
for a core; CPU time does not, so before/after comparisons hold there.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pinchtab.find import ElementIndex, find  # noqa: E402
from pinchtab.find.query import parse as query  # noqa: E402
from pinchtab.find.text import lexical  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "find-corpus"
FILLER = (
    "alpha beta gamma delta report invoice order customer project account profile message thread channel "
    "document file folder image video review rating price total summary details settings billing payment "
    "shipping address contact support help status history activity team member user group role permission "
    "calendar event meeting task ticket issue release branch commit build deploy server database backup "
    "analytics dashboard chart metric export import upload download archive label tag category filter"
).split()


def corpus_elements() -> tuple[list[list[dict]], list[str]]:
    pages, queries = [], []
    for d in sorted(CORPUS.iterdir()):
        if (d / "snapshot.json").exists():
            pages.append(json.loads((d / "snapshot.json").read_text()))
            queries += [q["query"] for q in json.loads((d / "queries.json").read_text())]
    return pages, queries


def synthetic_page(n: int, pages: list[list[dict]], seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    out: list[dict] = []
    copy = 0
    while len(out) < n:
        for page in pages:
            refmap = {e["ref"]: f"e{len(out) + k}" for k, e in enumerate(page)}
            for e in page:
                if len(out) >= n:
                    break
                el = dict(e)
                el["ref"] = refmap[e["ref"]]
                if isinstance(el.get("parent"), str) and el["parent"] in refmap:
                    el["parent"] = refmap[el["parent"]]
                if copy:
                    el["name"] = f"{el.get('name', '')} {rng.choice(FILLER)} {rng.randint(1, 999)}".strip()
                out.append(el)
            if len(out) >= n:
                break
        copy += 1
    return out[:n]


CLOCK = time.perf_counter_ns  # --cpu: time.thread_time_ns


def median_us(fn, iters: int) -> float:
    ts = []
    for _ in range(iters):
        t0 = CLOCK()
        fn()
        ts.append(CLOCK() - t0)
    return statistics.median(ts) / 1000.0


def bench(n: int, pages, queries, rounds: int) -> dict[str, float]:
    els = synthetic_page(n, pages)
    qs = queries[: max(20, min(len(queries), 60))]
    build = median_us(lambda: ElementIndex(els), max(3, min(50, 20000 // max(n, 1))))
    idx = ElementIndex(els)
    for q in qs:  # warm-up: first touch of the index memory, BLAS threads
        idx.find(q)
    cold, warm, fresh = [], [], []
    for _ in range(rounds):
        for q in qs:
            idx.clear_caches()
            lexical.query_units.cache_clear()
            query.clear_parse_cache()
            t0 = CLOCK()
            idx.find(q)
            cold.append(CLOCK() - t0)
    round_medians = []
    for _ in range(rounds):
        this = []
        for q in qs:
            idx.clear_caches()
            t0 = CLOCK()
            idx.find(q)
            this.append(CLOCK() - t0)
        fresh += this
        round_medians.append(statistics.median(this))
    for q in qs:
        idx.find(q)
    for _ in range(rounds):
        for q in qs:
            t0 = CLOCK()
            idx.find(q)
            warm.append(CLOCK() - t0)
    shots = []
    for q in qs[: max(5, min(len(qs), 200000 // max(n, 1)))]:
        lexical.query_units.cache_clear()
        query.clear_parse_cache()
        t0 = CLOCK()
        find(q, els)
        shots.append(CLOCK() - t0)
    return {
        "find": statistics.median(fresh) / 1000,
        "best": min(round_medians) / 1000,
        "cold": statistics.median(cold) / 1000,
        "warm": statistics.median(warm) / 1000,
        "oneshot": statistics.median(shots) / 1000,
        "build": build,
    }


def fmt(us: float) -> str:
    return f"{us / 1000:.2f} ms" if us >= 1000 else f"{us:.0f} us"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="16,100,1000,10000")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cpu", action="store_true", help="time with the thread's CPU clock (see above)")
    args = ap.parse_args()
    if args.cpu:
        global CLOCK
        CLOCK = time.thread_time_ns
    pages, queries = corpus_elements()
    sizes = [int(s) for s in args.sizes.split(",")]
    targets = {16: 100, 100: 300, 1000: 2000}
    print(f"{'elements':>9} | {'find':>10} | {'find best':>10} | {'new query':>10} | {'repeat':>10} | {'one-shot':>10} "
          f"| {'build':>10} | target (find)")
    print("-" * 104)
    for n in sizes:
        rounds = 2 if args.quick else (10 if n <= 1000 else 3)
        r = bench(n, pages, queries, rounds)
        t = targets.get(n)
        verdict = "" if t is None else (f"< {fmt(t)}  {'ok' if r['find'] < t else 'MISSED'}")
        print(f"{n:>9} | {fmt(r['find']):>10} | {fmt(r['best']):>10} | {fmt(r['cold']):>10} | {fmt(r['warm']):>10} "
              f"| {fmt(r['oneshot']):>10} | {fmt(r['build']):>10} | {verdict}")


if __name__ == "__main__":
    main()
