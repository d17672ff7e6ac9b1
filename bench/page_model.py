"""Snapshot speed of pages with frames and of the big page (never part of the test suite).

    .venv/bin/python bench/page_model.py [--runs N]

Through HTTP against a `pinchtab bridge` subprocess, medians of N runs:
  - frames3.html: a page with three iframes, two same-origin and one from another site
    (served on a second port and addressed as `localhost`, so Chromium puts it out of process)
  - ../shared/pages/big-1000.html (the large page), full and interactive
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bridge_speed import median_ms  # noqa: E402
from tests.fixtures.harness import PAGES, free_port, serve, wait_healthy  # noqa: E402

SHARED_PAGES = ROOT.parent / "shared" / "pages"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    pages, _ = serve(PAGES)
    other, _ = serve(PAGES)
    cross = other.replace("127.0.0.1", "localhost")
    shared, _ = serve(SHARED_PAGES)
    port = free_port()
    proc = subprocess.Popen([str(ROOT / ".venv" / "bin" / "pinchtab"), "bridge", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc, timeout=30)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30, trust_env=False) as c:
            print(f"load average {os.getloadavg()[0]:.2f}; median of {args.runs} runs, through HTTP")
            print(f"{'page / snapshot':44} {'median':>9} {'nodes':>6}")
            for label, url in (("frames3 (3 iframes, 1 cross-site)", f"{pages}/frames3.html?x={cross}"),
                               ("big-1000", f"{shared}/big-1000.html")):
                c.post("/navigate", json={"url": url}).raise_for_status()
                c.post("/wait", json={"text": "Card", "timeout": 5000}) if "frames3" in url else None
                for kind, params in (("full", {}), ("interactive", {"filter": "interactive"})):
                    ms = median_ms(lambda: c.get("/snapshot", params=params).raise_for_status(), args.runs)
                    count = c.get("/snapshot", params=params).json()["count"]
                    print(f"{label + ', ' + kind:44} {ms:7.1f} ms {count:6d}")
    finally:
        proc.terminate()
        proc.wait(timeout=20)


if __name__ == "__main__":
    sys.exit(main())
