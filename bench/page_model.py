"""Snapshot speed of pages with frames and of the big page (never part of the test suite).

    .venv/bin/python bench/page_model.py [--runs N] [--reference SRC_DIR]

Through HTTP against `pinchtab bridge` subprocesses, medians of N runs:
  - frames3.html: a page with three iframes, two same-origin and one from another site
    (served on a second port and addressed as `localhost`, so Chromium puts it out of process);
    then the same page with all three same-origin (the same work for code that leaves
    cross-origin content out)
  - ../shared/pages/big-1000.html (the large page), full and interactive

With --reference (the src/ directory of another checkout, e.g. `git archive main src | tar -x -C
/tmp/ref`), a bridge of that code runs side by side and the runs alternate between the two, so
both see the same machine load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.harness import PAGES, free_port, serve, wait_healthy  # noqa: E402

SHARED_PAGES = ROOT.parent / "shared" / "pages"


def start_bridge(src: Path | None) -> tuple[subprocess.Popen, httpx.Client]:
    port = free_port()
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    proc = subprocess.Popen([str(ROOT / ".venv" / "bin" / "python"), "-m", "pinchtab", "bridge", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wait_healthy(f"http://127.0.0.1:{port}", proc, timeout=30)
    return proc, httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30, trust_env=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--reference", type=Path, help="src/ of another checkout to compare with")
    args = parser.parse_args()
    pages, _ = serve(PAGES)
    other, _ = serve(PAGES)
    cross = other.replace("127.0.0.1", "localhost")
    shared, _ = serve(SHARED_PAGES)
    bridges = {"this": start_bridge(None)}
    if args.reference:
        bridges["reference"] = start_bridge(args.reference.resolve())
    try:
        print(f"load average {os.getloadavg()[0]:.2f}; median of {args.runs} runs, through HTTP")
        print(f"{'page / snapshot':40} " + " ".join(f"{name:>16}" for name in bridges))
        for label, url in (("frames3 (3 iframes, 1 cross-site)", f"{pages}/frames3.html?x={cross}"),
                           ("frames3 (3 same-origin iframes)", f"{pages}/frames3.html?x="),
                           ("big-1000", f"{shared}/big-1000.html")):
            for _, c in bridges.values():
                c.post("/navigate", json={"url": url}).raise_for_status()
                if "frames3" in url:
                    time.sleep(0.5)  # the script-set frame loads after the page's load event
            for kind, params in (("full", {}), ("interactive", {"filter": "interactive"})):
                times: dict[str, list[float]] = {name: [] for name in bridges}
                for i in range(args.runs + 2):
                    for name, (_, c) in bridges.items():
                        t = time.perf_counter()
                        c.get("/snapshot", params=params).raise_for_status()
                        if i >= 2:  # warm-up
                            times[name].append((time.perf_counter() - t) * 1000)
                cells = []
                for name, (_, c) in bridges.items():
                    count = c.get("/snapshot", params=params).json()["count"]
                    cells.append(f"{statistics.median(times[name]):7.1f} ms {count:5d}n")
                print(f"{label + ', ' + kind:40} " + " ".join(f"{cell:>16}" for cell in cells))
        print(f"load average {os.getloadavg()[0]:.2f} at the end")
    finally:
        for proc, c in bridges.values():
            c.close()
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    sys.exit(main())
