"""The bridge's memory over a long session: 1,000 snapshots of ../shared/pages/big-1000.html and
1,000 finds (each find after a new snapshot, so each builds that snapshot's index), printing the
bridge process's resident memory (RSS, and PSS, which counts shared pages once) as it goes.

    .venv/bin/python bench/bridge_memory.py [--rounds 1000] [--every 100]

Target (issue 13): RSS under 100 MB at the end, and no growth over the last half of the rounds.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.harness import free_port, serve, wait_healthy  # noqa: E402

PAGES = ROOT.parent / "shared" / "pages"
QUERIES = ("view order 1042 button", "invoice 1100 link", "note for order 1200", "select order 1007 checkbox",
           "search orders", "settings link", "customer 17 row", "open order 1249")


def mem_mb(pid: int) -> tuple[float, float]:
    rss = pss = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            pss = int(line.split()[1]) / 1024
    return rss, pss


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=1000, help="snapshots, and as many finds")
    ap.add_argument("--every", type=int, default=100, help="print memory every N rounds")
    args = ap.parse_args()
    base, httpd = serve(PAGES)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "pinchtab", "bridge", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples: list[tuple[int, float, float]] = []
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc, timeout=60)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120, trust_env=False) as c:
            c.post("/navigate", json={"url": f"{base}/big-1000.html"}).raise_for_status()
            rss, pss = mem_mb(proc.pid)
            samples.append((0, rss, pss))
            print(f"load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
            print(f"{'round':>6} {'RSS MB':>8} {'PSS MB':>8} {'s':>6}")
            print(f"{0:6d} {rss:8.1f} {pss:8.1f} {0:6.0f}", flush=True)
            t0 = time.monotonic()
            for i in range(1, args.rounds + 1):
                # the four snapshot kinds in turn; every find matches against a new snapshot
                params = ({}, {"filter": "interactive"}, {"format": "compact"}, {"filter": "interactive", "format": "compact"})[i % 4]
                c.get("/snapshot", params=params).raise_for_status()
                c.post("/find", json={"query": QUERIES[i % len(QUERIES)]}).raise_for_status()
                if i % args.every == 0:
                    rss, pss = mem_mb(proc.pid)
                    samples.append((i, rss, pss))
                    print(f"{i:6d} {rss:8.1f} {pss:8.1f} {time.monotonic() - t0:6.0f}", flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        httpd.shutdown()
    half = [s for s in samples if s[0] >= args.rounds // 2]
    growth = half[-1][1] - half[0][1] if len(half) > 1 else 0.0
    print(f"\nend: {samples[-1][1]:.1f} MB RSS ({samples[-1][2]:.1f} MB PSS); growth over the last half "
          f"{growth:+.1f} MB RSS; target < 100 MB and no growth")


if __name__ == "__main__":
    main()
