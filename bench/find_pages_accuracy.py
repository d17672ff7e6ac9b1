"""Accuracy of find on real HTML pages, through the real pipeline (prints figures; not a test).

    .venv/bin/python bench/find_pages_accuracy.py [--verbose] [--page NAME] [--tags]
    .venv/bin/python bench/find_pages_accuracy.py --check          # only check the targets map
    .venv/bin/python bench/find_pages_accuracy.py --dump DIR       # also write a corpus folder

Serves ``tests/fixtures/find_pages/`` (one folder per page: ``index.html`` + ``queries.json``)
on 127.0.0.1, opens each page in a headless Chromium driven in-process (``Browser``,
``tab.navigate``, ``snapshot.capture`` - the full snapshot ``/find`` uses), builds the index the
way ``tab.refs.index`` does (``ElementIndex([n.to_element() for n in snap.nodes])``) and runs
every query through ``index.find``.

A query names its expected element by CSS selector (``target_selector``; ``null`` for a query
that should match nothing). The selector is resolved in the page to the element's backend
DOM node id, and the expected ref is the snapshot node with that id. A selector that matches
nothing, or an element the snapshot does not show, is reported and counted as a miss.

P@1: best_ref is the expected ref (no-match queries: best_ref is "" at the default threshold).
MRR: reciprocal rank of the expected ref among the top 10 (no-match: 1 if nothing returned).

``--dump DIR`` writes DIR/<page>/snapshot.json and queries.json (``relevant_refs``) in the
shared corpus format, so ``bench/find_accuracy.py --corpus DIR`` can replay the same snapshots
without a browser; the live run here stays the measure.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import http.server
import json
import sys
import threading
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pinchtab.browser.page import snapshot  # noqa: E402
from pinchtab.browser.core.browser import Browser  # noqa: E402
from pinchtab.config import load_config  # noqa: E402
from pinchtab.find import ElementIndex  # noqa: E402

PAGES = ROOT / "tests" / "fixtures" / "find_pages"

# All selectors of a page in one call; the nodes come back deep-serialised with their
# backend ids (as snapshot.capture gets them), null where a selector matches nothing.
RESOLVE_JS = r"""(sels) => sels.map((s) => { try { return document.querySelector(s); } catch (e) { return null; } })"""
_SERIALIZATION = {
    "serialization": "deep",
    "maxDepth": 1,
    "additionalParameters": {"maxNodeDepth": 0, "includeShadowTree": "none"},
}


def serve(directory: Path) -> tuple[str, http.server.ThreadingHTTPServer]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


def describe(el: dict | None) -> str:
    if el is None:
        return "-"
    ctx = [f"{k}={el[k]!r}" for k in ("section", "parent", "heading", "placeholder", "description", "value",
                                      "checked", "expanded", "disabled") if k in el]
    return f'{el["ref"]} {el["role"]} "{el["name"][:50]}"' + (f" ({', '.join(ctx)})" if ctx else "")


async def resolve_backend_ids(tab, selectors: list[str]) -> list[int | None]:
    res = await tab.call_in_world(RESOLVE_JS, selectors, serialization=_SERIALIZATION)
    items = (res.get("deepSerializedValue") or {}).get("value") or []
    out: list[int | None] = []
    for item in items:
        if item.get("type") == "node":
            out.append((item.get("value") or {}).get("backendNodeId"))
        else:
            out.append(None)
    return out


async def score_queries(tab, page: str, queries: list[dict], snap, elements: list[dict], resolve,
                        check: bool = False) -> list[dict]:
    """Score ``queries`` on one page's snapshot: each query's target (``resolve(tab, selectors)``
    -> backend node ids) mapped to its ref, then ranked by the index ``/find`` builds. With
    ``check``, only the mapping."""
    by_backend = {n.backend_id: n.ref for n in snap.nodes if n.backend_id is not None}
    by_ref = {e["ref"]: e for e in elements}
    index = ElementIndex(elements)
    # unique: a node repeated in one serialised array comes back as a bare reference
    sels = sorted({q["target_selector"] for q in queries if q.get("target_selector")})
    ids = dict(zip(sels, await resolve(tab, sels))) if sels else {}
    out = []
    for q in queries:
        sel = q.get("target_selector")
        expected, problem = None, ""
        if sel:
            bid = ids.get(sel)
            if bid is None:
                problem = "selector matches nothing"
            else:
                expected = by_backend.get(bid)
                if expected is None:
                    problem = "element not in the snapshot"
        r = {"page": page, "id": q["id"], "query": q["query"], "selector": sel,
             "difficulty": q.get("difficulty", "unknown"), "tags": q.get("tags", []),
             "expected": expected, "problem": problem, "elements": len(elements)}
        if not check:
            res = index.find(q["query"], top_k=10)
            best = res["best_ref"]
            ranked = [m["ref"] for m in res["matches"]]
            if sel is None:
                ok, rr = best == "", (1.0 if not ranked else 0.0)
            else:
                ok = expected is not None and best == expected
                rr = 1.0 / (ranked.index(expected) + 1) if expected in ranked else 0.0
            r.update(ok=ok, rr=rr, best=best, got=by_ref.get(best),
                     top=[(m["ref"], m["score"], m["role"], m["name"][:40]) for m in res["matches"][:3]],
                     expected_el=by_ref.get(expected) if expected else None)
        out.append(r)
    return out


async def evaluate(pages_dir: Path, only: str | None, check: bool, dump: Path | None) -> list[dict]:
    base, server = serve(pages_dir)
    browser = Browser(load_config(environ={}))
    await browser.start()
    results: list[dict] = []
    try:
        async with browser.use_tab(None, create=True) as tab:
            for page_dir in sorted(p for p in pages_dir.iterdir() if (p / "queries.json").exists()):
                if only and page_dir.name != only:
                    continue
                queries = json.loads((page_dir / "queries.json").read_text())
                await tab.navigate(f"{base}/{page_dir.name}/index.html", timeout_ms=15000)
                snap = await snapshot.capture(tab)
                elements = [n.to_element() for n in snap.nodes]
                scored = await score_queries(tab, page_dir.name, queries, snap, elements, resolve_backend_ids,
                                             check=check)
                results.extend(scored)
                dumped = [{"id": r["id"], "query": r["query"],
                           "relevant_refs": [r["expected"]] if r["expected"] else [],
                           "expect_no_match": r["selector"] is None,
                           "difficulty": r["difficulty"], "tags": r["tags"]} for r in scored]
                if dump:
                    out = dump / page_dir.name
                    out.mkdir(parents=True, exist_ok=True)
                    (out / "snapshot.json").write_text(json.dumps(elements, indent=0))
                    (out / "queries.json").write_text(json.dumps(dumped, indent=1))
    finally:
        await browser.stop()
        server.shutdown()
    return results


def report(results: list[dict], verbose: bool, tags: bool) -> None:
    tot = defaultdict(lambda: [0, 0])
    pages = defaultdict(lambda: [0, 0])
    by_tag = defaultdict(lambda: [0, 0])
    nomatch = [0, 0]
    rr = 0.0
    for r in results:
        for key, d in ((r["difficulty"], tot), (r["page"], pages)):
            d[key][0] += r["ok"]
            d[key][1] += 1
        for t in r["tags"]:
            by_tag[t][0] += r["ok"]
            by_tag[t][1] += 1
        if r["selector"] is None:
            nomatch[0] += r["ok"]
            nomatch[1] += 1
        rr += r["rr"]
    n = len(results)
    correct = sum(r["ok"] for r in results)
    print(f"pages: {len(pages)}   queries: {n}   elements per page: "
          f"{min(r['elements'] for r in results)}-{max(r['elements'] for r in results)}")
    print(f"P@1 overall: {correct / n:.3f}  ({correct}/{n})")
    for diff in ("easy", "medium", "hard"):
        if diff in tot:
            c, t = tot[diff]
            print(f"P@1 {diff:<7}: {c / t:.3f}  ({c}/{t})")
    print(f"MRR: {rr / n:.3f}")
    print(f"no-match queries correctly left empty: {nomatch[0]}/{nomatch[1]}")
    wrong_on_nomatch = sum(1 for r in results if r["selector"] is None and not r["ok"])
    empty_on_match = sum(1 for r in results if r["selector"] and not r["ok"] and not r["best"])
    print(f"false matches on no-match queries: {wrong_on_nomatch}; matchable queries left empty: {empty_on_match}")
    problems = [r for r in results if r["problem"]]
    if problems:
        print(f"targets that could not be mapped: {len(problems)}")
    print("P@1 per page:")
    for page, (c, t) in sorted(pages.items()):
        print(f"  {page:<22} {c / t:.3f}  ({c}/{t})")
    if tags:
        print("P@1 per tag:")
        for tag, (c, t) in sorted(by_tag.items(), key=lambda kv: kv[1][0] / kv[1][1]):
            print(f"  {tag:<20} {c / t:.3f}  ({c}/{t})")
    if verbose:
        fails = [r for r in results if not r["ok"]]
        print(f"\nfailures ({len(fails)}):")
        for r in fails:
            print(f"- [{r['page']}] {r['id']} ({r['difficulty']}) {r['query']!r}")
            if r["problem"]:
                print(f"    target {r['selector']!r}: {r['problem']}")
            print(f"    expected: {describe(r['expected_el']) if r['selector'] else '(no match)'}")
            print(f"    got:      {describe(r['got']) if r['best'] else '(nothing)'}")
            for ref, score, role, name in r["top"]:
                print(f"      {score:.3f} {ref} {role} {name!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=Path, default=PAGES)
    ap.add_argument("--page", help="only this page folder")
    ap.add_argument("--verbose", "-v", action="store_true", help="list failures")
    ap.add_argument("--tags", action="store_true", help="P@1 per query tag")
    ap.add_argument("--check", action="store_true", help="only check that every target maps to a snapshot node")
    ap.add_argument("--dump", type=Path, help="write the snapshots and resolved queries as a corpus folder")
    args = ap.parse_args()
    results = asyncio.run(evaluate(args.pages, args.page, args.check, args.dump))
    if args.check:
        bad = [r for r in results if r["problem"]]
        print(f"{len(results)} queries, {len(bad)} unmapped targets")
        for r in bad:
            print(f"  [{r['page']}] {r['id']} {r['selector']!r}: {r['problem']}")
        sys.exit(1 if bad else 0)
    report(results, args.verbose, args.tags)


if __name__ == "__main__":
    main()
