"""What recording console, errors and network costs the bridge: memory after 10,000 logged
requests and 10,000 console lines, and snapshot/click latency with recording on and off (the
reference, observe.enabled=false), side by side in the same run. Never part of the test suite.

    .venv/bin/python bench/observe_overhead.py [--runs N] [--requests 10000] [--lines 10000]

Each configuration runs its own `pinchtab bridge` with its own Chromium; the machine is shared,
so read the medians next to each other, not against other runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bridge_speed import median_ms, pss_mb, rss_mb  # noqa: E402
from tests.fixtures.harness import free_port, serve, wait_healthy  # noqa: E402

# Fetches in batches (the page keeps a few dozen in flight), then console lines.
LOAD_JS = """(async (requests, lines) => {
  for (let i = 0; i < requests; i += 50) {
    await Promise.all(Array.from({length: Math.min(50, requests - i)}, (_, j) =>
      fetch('data.json?i=' + (i + j)).then(r => r.text())));
  }
  for (let i = 0; i < lines; i++) console.log('line ' + i + ' ' + 'x'.repeat(60));
  return requests + lines;
})(%d, %d)"""


def start_bridge(enabled: bool) -> tuple[subprocess.Popen, str, str]:
    folder = tempfile.mkdtemp(prefix="pinchtab-bench-")
    config = Path(folder, "config.json")
    config.write_text(json.dumps({"security": {"allowEvaluate": True}, "observe": {"enabled": enabled},
                                  "server": {"stateDir": folder}}))
    port = free_port()
    env = {**os.environ, "PINCHTAB_CONFIG": str(config)}
    proc = subprocess.Popen([str(ROOT / ".venv" / "bin" / "pinchtab"), "bridge", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}"
    wait_healthy(url, proc, timeout=30)
    return proc, url, folder


def latencies(c: httpx.Client, pages: str, runs: int) -> tuple[float, float]:
    c.post("/navigate", json={"url": f"{pages}/large.html"}).raise_for_status()
    snap = median_ms(lambda: c.get("/snapshot", params={"filter": "interactive"}).raise_for_status(), runs)
    c.post("/navigate", json={"url": f"{pages}/buttons.html"}).raise_for_status()
    nodes = c.get("/snapshot", params={"filter": "interactive"}).json()["nodes"]
    ref = next(n["ref"] for n in nodes if n["name"] == "Increment")
    click = median_ms(lambda: c.post("/action", json={"kind": "click", "ref": ref}).raise_for_status(), runs)
    return snap, click


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--requests", type=int, default=10000)
    parser.add_argument("--lines", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=3, help="alternate off/on this many times for the latencies")
    args = parser.parse_args()
    pages, _ = serve()

    bridges = {on: start_bridge(on) for on in (False, True)}
    try:
        clients = {on: httpx.Client(base_url=url, timeout=600) for on, (_, url, _) in bridges.items()}
        samples: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        for _ in range(args.rounds):
            for on in (False, True):
                samples[on].append(latencies(clients[on], pages, args.runs))
        print(f"## Latency (median of {args.runs} calls, then median of {args.rounds} alternating rounds)")
        print(f"{'':34} {'recording off':>14} {'recording on':>13} {'change':>8}")
        for i, label in enumerate(("snapshot, 1000 elements, interactive", "click by ref")):
            off = statistics.median(s[i] for s in samples[False])
            on = statistics.median(s[i] for s in samples[True])
            print(f"{label:34} {off:11.1f} ms {on:10.1f} ms {100 * (on - off) / off:+7.1f}%")

        print(f"\n## Memory of the bridge process after {args.requests} requests and {args.lines} console lines")
        print(f"{'':34} {'before':>10} {'after':>10} {'growth':>9}")
        for on in (False, True):
            proc, _, _ = bridges[on]
            c = clients[on]
            tab = c.post("/navigate", json={"url": f"{pages}/index.html", "newTab": True}).json()["tabId"]
            before = rss_mb(proc.pid)
            t = time.perf_counter()
            for start in range(0, args.requests, 1000):  # evaluate stops scripts after 10 s: in chunks
                expression = LOAD_JS % (min(1000, args.requests - start), 0)
                c.post(f"/tabs/{tab}/evaluate", json={"expression": expression}).raise_for_status()
            c.post(f"/tabs/{tab}/evaluate", json={"expression": LOAD_JS % (0, args.lines)}).raise_for_status()
            time.sleep(1.0)  # the last events arrive
            secs = time.perf_counter() - t
            after = rss_mb(proc.pid)
            logged = ""
            if on:
                n = c.get(f"/tabs/{tab}/network").json()["count"]
                k = len(c.get(f"/tabs/{tab}/console").json()["console"])
                logged = f"  (kept {n} requests, {k} console lines: the buffers' bounds)"
            label = f"recording {'on' if on else 'off'} ({secs:.0f} s)"
            print(f"{label:34} {before:7.1f} MB {after:7.1f} MB {after - before:+6.1f} MB{logged}")
            print(f"{'':34} PSS after {pss_mb(proc.pid):.1f} MB")
    finally:
        for proc, _, _ in bridges.values():
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    sys.exit(main())
