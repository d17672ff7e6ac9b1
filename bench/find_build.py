"""Cost of building find's index (``ElementIndex(elements)``), and a golden check of results.

Usage:
    .venv/bin/python bench/find_build.py                    # build times, synthetic + real pages
    .venv/bin/python bench/find_build.py --sizes 1000 --iters 50
    .venv/bin/python bench/find_build.py --cold             # caches cleared before every build
    .venv/bin/python bench/find_build.py --golden FILE      # write FILE if absent, else compare
    .venv/bin/python bench/find_build.py --profile 1000     # cProfile of the 1,000-element build
    .venv/bin/python bench/find_build.py --profile 1000 --new-page   # ... of a page never seen

Build times (median, ms) are measured on:

* the synthetic pages of ``bench/find_speed.py`` (16, 100, 1,000, 10,000 elements), and
* real snapshots: ``tests/fixtures/pages/large.html`` (full and interactive snapshot) and the
  ``tests/fixtures/find_pages/`` pages, captured through the real pipeline (headless Chromium,
  ``snapshot.capture``, ``n.to_element()``) into ``--snapshots DIR`` (default
  ``/tmp/pinchtab-find-build``) on first use; later runs reuse the files.

By default the caches find keeps across indexes are warm (the page was built before, as
consecutive snapshots of one page share almost all their texts); ``--new-page`` clears them
before every build (a page not seen before: only the lru caches of the text pipeline -
normalize, stem, analyze_text... - are warm), ``--cold`` clears those too (a first snapshot
after start).

``--golden FILE`` runs every query of every evaluation set - the shared corpus, the dev set and
its holdout, the captured ``find_pages`` and ``find_fresh`` snapshots, the large page and the synthetic
1,000/10,000-element pages - with ``explain`` at the default threshold and at threshold 0
(top 10), plus the recovery scenarios (``rematch``). It records the result dicts (minus
``latency_ms``), the unrounded value behind every rounded score, and a digest of each index's
embedding matrices. If FILE does not exist it is written; otherwise the run is compared with
it: any difference in a rounded result is an error; raw scores may differ by 1e-9.
"""

from __future__ import annotations

import argparse
import asyncio
import builtins
import gc
import hashlib
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from find_speed import corpus_elements, synthetic_page  # noqa: E402

from pinchtab.find import ElementIndex, IntentCache, rematch  # noqa: E402
from pinchtab.find import matcher  # noqa: E402

SHARED = ROOT.parent / "shared" / "find-corpus"
DEV = ROOT / "tests" / "fixtures" / "find_dev"
PAGE_SETS = ("find_pages", "find_fresh")  # folders of tests/fixtures with index.html + queries.json pages
LARGE = ROOT / "tests" / "fixtures" / "pages" / "large.html"
DEFAULT_SNAPSHOTS = Path("/tmp/pinchtab-find-build")
LARGE_QUERIES = [
    "delete item 42", "edit 17", "search box", "search button", "footer link 3", "section 12 link",
    "price of item 8", "qty column", "the third delete button", "edit button in the row of item 99",
    "main navigation", "inventory heading", "submit", "log in",
]


# ------------------------------------------------------------------------------ snapshots
async def _capture(out: Path) -> None:
    import functools
    import http.server
    import threading

    from pinchtab.browser.page import snapshot
    from pinchtab.browser.core.browser import Browser
    from pinchtab.config import load_config

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Quiet, directory=str(ROOT / "tests" / "fixtures")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    browser = Browser(load_config(environ={}))
    await browser.start()
    try:
        async with browser.use_tab(None, create=True) as tab:
            await tab.navigate(f"{base}/pages/large.html", timeout_ms=15000)
            for name, interactive in (("large-full", False), ("large-interactive", True)):
                snap = await snapshot.capture(tab, interactive=interactive)
                (out / f"{name}.json").write_text(json.dumps([n.to_element() for n in snap.nodes]))
            for set_name, page_dir in ((s, p) for s in PAGE_SETS
                                       for p in sorted((ROOT / "tests" / "fixtures" / s).iterdir())
                                       if (p / "queries.json").exists()):
                await tab.navigate(f"{base}/{set_name}/{page_dir.name}/index.html", timeout_ms=15000)
                snap = await snapshot.capture(tab)
                d = out / set_name / page_dir.name
                d.mkdir(parents=True, exist_ok=True)
                (d / "snapshot.json").write_text(json.dumps([n.to_element() for n in snap.nodes]))
                qs = json.loads((page_dir / "queries.json").read_text())
                (d / "queries.json").write_text(json.dumps([{"id": q["id"], "query": q["query"]} for q in qs]))
    finally:
        await browser.stop()
        server.shutdown()


def snapshots(dirpath: Path) -> Path:
    if not all((dirpath / n).exists() for n in ("large-full.json", *PAGE_SETS)):
        dirpath.mkdir(parents=True, exist_ok=True)
        print(f"capturing real snapshots into {dirpath} ...", file=sys.stderr)
        asyncio.run(_capture(dirpath))
    return dirpath


# ------------------------------------------------------------------------------ timing
def median_ms(fn, iters: int, cold: str = "") -> tuple[float, float]:
    ts = []
    for _ in range(iters):
        if cold:
            clear_caches(cold == "cold")  # not timed
        t0 = time.perf_counter_ns()
        fn()
        ts.append(time.perf_counter_ns() - t0)
    return statistics.median(ts) / 1e6, min(ts) / 1e6


def clear_caches(text_pipeline: bool = True) -> None:
    """Forget what find caches across indexes: with ``text_pipeline`` everything (a first
    snapshot in a fresh process), else only the per-text index parts (a new page)."""
    from pinchtab.find.index import embedding, parts, terms
    from pinchtab.find.passes import item_action
    from pinchtab.find.text import lexical
    from pinchtab.find.query import parse as query

    for mod in (lexical, embedding, query) if text_pipeline else ():
        for name in dir(mod):
            obj = getattr(mod, name)
            if hasattr(obj, "cache_clear"):  # lru caches: normalize, stem, analyze_text, _slot...
                obj.cache_clear()
    for d in (parts.PART_CACHES, embedding._SHARED, terms._TERM_FEATURES, terms._OPPOSED_KEYS, item_action._ROW_WORDS):
        d.clear()
    query.clear_parse_cache()
    item_action._PARSED.clear()


def timing(args) -> None:
    pages, _ = corpus_elements()
    cases: list[tuple[str, list[dict]]] = []
    for n in (int(s) for s in args.sizes.split(",") if s):
        cases.append((f"synthetic {n}", synthetic_page(n, pages)))
    if not args.no_real:
        snap = snapshots(args.snapshots)
        for name in ("large-full", "large-interactive"):
            cases.append((f"{name}.html", json.loads((snap / f"{name}.json").read_text())))
        fp = sorted((snap / "find_pages").iterdir())
        els = [json.loads((d / "snapshot.json").read_text()) for d in fp]
        cases.append((f"find_pages x{len(els)}", els))
    print(f"{'page':<24} | {'elements':>8} | {'build median':>12} | {'build min':>10} | {'per element':>11}")
    print("-" * 78)
    for name, els in cases:
        multi = bool(els) and isinstance(els[0], list)
        count = sum(len(e) for e in els) if multi else len(els)

        def build(els=els, multi=multi):
            if multi:
                for e in els:
                    ElementIndex(e)
            else:
                ElementIndex(els)

        build()  # warm-up (module caches of earlier runs are realistic: snapshots of the same page repeat)
        iters = args.iters or max(5, min(200, 30000 // max(count, 1)))
        gc.collect()
        med, best = median_ms(build, iters, "cold" if args.cold else ("new" if args.new_page else ""))
        print(f"{name:<24} | {count:>8} | {med:>9.2f} ms | {best:>7.2f} ms | {1000 * med / max(count, 1):>8.1f} us")


def profile(n: int, cold: str = "") -> None:
    """cProfile of 10 builds of an ``n``-element page; ``cold`` as in ``median_ms`` (the caches
    are cleared outside the profiled spans)."""
    import cProfile
    import pstats

    pages, _ = corpus_elements()
    els = synthetic_page(n, pages)
    ElementIndex(els)
    pr = cProfile.Profile()
    for _ in range(10):
        if cold:
            clear_caches(cold == "cold")
        pr.enable()
        ElementIndex(els)
        pr.disable()
    pstats.Stats(pr).sort_stats("tottime").print_stats(30)


# ------------------------------------------------------------------------------ golden
class _RawRound:
    """Stands in for ``round`` inside the matcher: records every unrounded value it rounds."""

    def __init__(self) -> None:
        self.raw: list[float] = []

    def __call__(self, x, nd=None):
        if nd == 4:  # scores (nd=3 is latency_ms)
            self.raw.append(float(x))
        return builtins.round(x, nd) if nd is not None else builtins.round(x)


def _digest(idx: ElementIndex) -> str:
    h = hashlib.sha256()
    for m in (idx._page.matrix, idx._page.ctx_matrix):
        h.update(m.tobytes())
    return h.hexdigest()[:16]


def _load_set(root: Path):
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        snap, qs = d / "snapshot.json", d / "queries.json"
        if snap.exists() and qs.exists():
            yield d.name, json.loads(snap.read_text()), [q["query"] for q in json.loads(qs.read_text())]


def golden_sets(snap: Path):
    yield "shared", list(_load_set(SHARED))
    yield "dev", list(_load_set(DEV))
    yield "holdout", list(_load_set(DEV / "holdout"))
    for name in PAGE_SETS:
        yield name, list(_load_set(snap / name))
    pages, queries = corpus_elements()
    yield "large", [(name, json.loads((snap / f"{name}.json").read_text()), LARGE_QUERIES + queries[:40])
                    for name in ("large-full", "large-interactive")]
    yield "synthetic", [(f"n{n}", synthetic_page(n, pages), queries[: (200 if n <= 1000 else 60)])
                        for n in (1000, 10000)]


def run_golden(snap: Path, cold: bool = False) -> dict:
    rr = _RawRound()
    matcher.round = rr  # module global shadows the builtin inside matcher only (where find rounds)
    out: dict = {}
    try:
        for set_name, pages in golden_sets(snap):
            for page, elements, queries in pages:
                if cold:
                    clear_caches()
                idx = ElementIndex(elements)
                recs = []
                for q in queries:
                    for thr in (matcher.DEFAULT_THRESHOLD, 0.0):
                        rr.raw = []
                        res = idx.find(q, threshold=thr, top_k=10, explain=True)
                        res.pop("latency_ms")
                        recs.append({"q": q, "thr": thr, "res": res, "raw": rr.raw})
                out[f"{set_name}/{page}"] = {"digest": _digest(idx), "n": len(idx), "results": recs}
        # recovery scenarios (rematch runs find at threshold 0 and compares descriptors)
        path = SHARED / "recovery-scenarios" / "scenarios.json"
        recs = []
        cache = IntentCache()
        for s in json.loads(path.read_text()):
            before = ElementIndex(s["before"])
            res = before.find(s["original_query"])
            rec = cache.record_result("bench", s["original_query"], res, before)
            if rec is None or rec.ref != s["original_ref"]:
                rec = cache.record("bench", s["original_ref"], s["original_query"], before.get(s["original_ref"]),
                                   res["score"], res["confidence"])
            m = rematch(rec, ElementIndex(s["after"]))
            recs.append({"id": s["id"], "ref": m.ref if m else None, "score": None if m is None else float(m.score)})
        out["recovery"] = {"digest": "", "n": len(recs), "results": recs}
    finally:
        del matcher.round
    return out


def compare(old: dict, new: dict) -> int:
    diffs = 0
    digest_diffs = 0
    raw_max = 0.0
    nq = 0
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a is None or b is None:
            print(f"  {key}: only in {'new' if a is None else 'golden'}")
            diffs += 1
            continue
        if a["digest"] != b["digest"]:
            digest_diffs += 1
        if len(a["results"]) != len(b["results"]):
            print(f"  {key}: {len(a['results'])} vs {len(b['results'])} results")
            diffs += 1
            continue
        for ra, rb in zip(a["results"], b["results"]):
            nq += 1
            if key == "recovery":
                if ra["ref"] != rb["ref"] or (ra["score"] is not None and abs(ra["score"] - rb["score"]) > 1e-9):
                    print(f"  recovery {ra['id']}: {ra} vs {rb}")
                    diffs += 1
                continue
            if ra["res"] != rb["res"] or len(ra["raw"]) != len(rb["raw"]):
                diffs += 1
                if diffs <= 20:
                    print(f"  {key} {ra['q']!r} thr={ra['thr']}:\n    golden {ra['res']['matches'][:3]}\n"
                          f"    now    {rb['res']['matches'][:3]}")
                continue
            for x, y in zip(ra["raw"], rb["raw"]):
                d = abs(x - y)
                raw_max = max(raw_max, d)
                if d > 1e-9:
                    diffs += 1
                    print(f"  {key} {ra['q']!r} thr={ra['thr']}: raw {x!r} vs {y!r}")
                    break
    print(f"golden: {nq} results compared, {diffs} differences, max raw score difference {raw_max:.3g}, "
          f"{digest_diffs} indexes with different embedding-matrix bits")
    return diffs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="16,100,1000,10000")
    ap.add_argument("--iters", type=int, default=0, help="builds per page (default: by size)")
    ap.add_argument("--no-real", action="store_true", help="synthetic pages only")
    ap.add_argument("--new-page", action="store_true",
                    help="clear the per-text index parts before each build, keep the lru caches of the "
                         "text pipeline (a page not seen before, in a process that has run)")
    ap.add_argument("--cold", action="store_true",
                    help="clear every cache find keeps across indexes before each build (first snapshot "
                         "after start); default: warm (the same page again, as consecutive snapshots are)")
    ap.add_argument("--snapshots", type=Path, default=DEFAULT_SNAPSHOTS)
    ap.add_argument("--golden", type=Path, help="write (if absent) or compare a golden results file")
    ap.add_argument("--profile", type=int, metavar="N", help="cProfile the build of an N-element page")
    args = ap.parse_args()
    if args.profile:
        profile(args.profile, "cold" if args.cold else ("new" if args.new_page else ""))
        return
    if args.golden:
        t0 = time.perf_counter()
        new = run_golden(snapshots(args.snapshots), args.cold)
        if args.golden.exists():
            old = json.loads(args.golden.read_text())
            n = compare(old, new)
            print(f"({time.perf_counter() - t0:.1f} s)")
            sys.exit(1 if n else 0)
        args.golden.write_text(json.dumps(new))
        print(f"golden written: {args.golden} ({sum(len(v['results']) for v in new.values())} results, "
              f"{time.perf_counter() - t0:.1f} s)")
        return
    timing(args)


if __name__ == "__main__":
    main()
