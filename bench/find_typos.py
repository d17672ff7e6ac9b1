"""find with misspelt queries: how many queries find gets right still come out right with one
typo in them (prints figures; not a test).

    .venv/bin/python bench/find_typos.py                        # shared corpus, find_dev, holdout
    .venv/bin/python bench/find_typos.py --corpus DIR ...       # more corpus folders
    .venv/bin/python bench/find_typos.py --seeds a,b,c --verbose

Live page sets join through their dumps: ``bench/find_pages_accuracy.py --dump /tmp/fp`` (and
``--pages tests/fixtures/find_fresh --dump /tmp/ff``), then ``--corpus /tmp/fp /tmp/ff``.

For every query that find answers right when spelt right (a target found first, or a no-match
query left empty), one word of 5+ letters is misspelt the way people do: two letters swapped,
one dropped, one doubled, or one replaced by a neighbouring key (QWERTY); never the first
letter. The word and the typo are drawn from a generator seeded by the query text and the
seed, so every run and every version of the code sees the same typos. Reported per seed: the
share of targeted queries still right (all, and those of one or two words), and of no-match
queries still left empty; beside it, the same with query correction off
(``PageTerms.corrected`` as the identity), the matcher's term-level typo matching alone.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pinchtab.find import ElementIndex  # noqa: E402
from pinchtab.find.index.terms import PageTerms  # noqa: E402

DEFAULT_SETS = [ROOT.parent / "shared" / "find-corpus", ROOT / "tests/fixtures/find_dev",
                ROOT / "tests/fixtures/find_dev/holdout"]
_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


def misspell(word: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(word) - 1)
    op = rng.choice(("swap", "drop", "double", "key"))
    if op == "swap":
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if op == "drop":
        return word[:i] + word[i + 1:]
    if op == "double":
        return word[:i] + word[i] + word[i:]
    c = word[i].lower()
    for row in _ROWS:
        if c in row:
            j = row.index(c)
            return word[:i] + rng.choice([row[k] for k in (j - 1, j + 1) if 0 <= k < len(row)]) + word[i + 1:]
    return word[:i] + word[i + 1:]


def load(dirs: list[Path]):
    for root in dirs:
        for d in sorted(p for p in root.iterdir() if p.is_dir()):
            snap, qs = d / "snapshot.json", d / "queries.json"
            if snap.exists() and qs.exists():
                yield f"{root.name}/{d.name}", json.loads(snap.read_text()), json.loads(qs.read_text())


def run(pages, seed: str, verbose: bool) -> dict:
    t = {"hit": 0, "all": 0, "short_hit": 0, "short": 0, "nm_hit": 0, "nm": 0}
    for name, elements, queries in pages:
        idx = ElementIndex(elements)
        for q in queries:
            rel = set(q.get("relevant_refs") or [])
            nomatch = bool(q.get("expect_no_match")) or not rel
            ws = q["query"].split()
            cand = [k for k, w in enumerate(ws) if w.isalpha() and len(w) >= 5]
            if not cand:
                continue
            clean = idx.find(q["query"], top_k=1)["best_ref"]
            if (clean != "") if nomatch else (clean not in rel):
                continue  # only what find gets right spelt right
            rng = random.Random(q["query"] + seed)
            k = rng.choice(cand)
            typed = " ".join(ws[:k] + [misspell(ws[k], rng)] + ws[k + 1:])
            got = idx.find(typed, top_k=1)["best_ref"]
            ok = got == "" if nomatch else got in rel
            if nomatch:
                t["nm"] += 1
                t["nm_hit"] += ok
            else:
                t["all"] += 1
                t["hit"] += ok
                if len(ws) <= 2:
                    t["short"] += 1
                    t["short_hit"] += ok
            if verbose and not ok:
                print(f"    miss {name}: {typed!r} -> {got or '(none)'}")
    return t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, nargs="*", default=[], help="more corpus folders (e.g. dumps)")
    ap.add_argument("--seeds", default="a,b,c", help="comma-separated seeds (default a,b,c)")
    ap.add_argument("--verbose", action="store_true", help="list the misses (with correction on)")
    args = ap.parse_args()
    pages = list(load(DEFAULT_SETS + args.corpus))
    original = PageTerms.corrected

    def share(a: int, b: int) -> str:
        return f"{a / b:.3f} ({a}/{b})" if b else "-"

    print("seed | correction | targeted right | 1-2 word queries | no-match left empty")
    for seed in args.seeds.split(","):
        for label, fn in (("on", original), ("off", lambda self, q: q)):
            PageTerms.corrected = fn
            r = run(pages, seed, args.verbose and label == "on")
            print(f"{seed} | {label} | {share(r['hit'], r['all'])} | {share(r['short_hit'], r['short'])} | "
                  f"{share(r['nm_hit'], r['nm'])}")
    PageTerms.corrected = original


if __name__ == "__main__":
    main()
