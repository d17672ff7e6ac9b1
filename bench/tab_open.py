"""What a fresh tab costs through the bridge: POST /tab {"action":"new"}, its first navigation, a
snapshot, a second navigation of the same tab and the close (what most end-to-end tests pay per test).
Prints the median of each step in ms (never part of the test suite).

    .venv/bin/python bench/tab_open.py [--runs 12] [--trace] [--against REV]

--trace lists the CDP commands of the last run's new tab and first navigation, with the time each
took. --against REV runs this same script in a worktree of git revision REV first and prints its
medians beside this checkout's (the before/after of a change to the bridge).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _revision import worktree_at  # noqa: E402
from tests.conftest import start_bridge  # noqa: E402
from tests.fixtures.harness import PAGES, serve  # noqa: E402

STEPS = ("new", "navigate", "snapshot", "navigate again", "close")


def trace_cdp() -> list[tuple[str, float, float]]:
    """Record each CDP command sent (method, start, duration) from now on."""
    from pinchtab.cdp import Connection

    sent: list[tuple[str, float, float]] = []
    send = Connection.send

    async def timed(self: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return await send(self, method, *args, **kwargs)
        finally:
            sent.append((method, t, time.perf_counter() - t))

    Connection.send = timed  # type: ignore[method-assign]
    return sent


def measure(runs: int, trace: bool) -> dict[str, float]:
    sent = trace_cdp() if trace else []
    url, server = serve(PAGES)
    times: dict[str, list[float]] = {step: [] for step in STEPS}
    marks: list[float] = []
    try:
        with start_bridge(Path(tempfile.mkdtemp()), allowEvaluate=True) as bridge, \
                httpx.Client(base_url=bridge.url, timeout=60) as http:
            http.post("/tab", json={"action": "new"})  # warm-up: Chromium's first tab, imports
            for _ in range(runs + 1):
                marks = [time.perf_counter()]

                def step(name: str, method: str, path: str, **kwargs: Any) -> Any:
                    t = time.perf_counter()
                    res = http.request(method, path, **kwargs)
                    res.raise_for_status()
                    times[name].append(time.perf_counter() - t)
                    marks.append(time.perf_counter())
                    return res.json()

                tid = step("new", "POST", "/tab", json={"action": "new"})["tabId"]
                step("navigate", "POST", f"/tabs/{tid}/navigate", json={"url": f"{url}/form.html"})
                step("snapshot", "GET", f"/tabs/{tid}/snapshot")
                step("navigate again", "POST", f"/tabs/{tid}/navigate", json={"url": f"{url}/form.html?again"})
                step("close", "POST", f"/tabs/{tid}/close")
    finally:
        server.shutdown()
    if trace:
        print("CDP commands of the last run (ms since its start, ms taken):")
        start = marks[0]
        rows = [(t, f"{(t - start) * 1000:7.1f} {took * 1000:7.1f}  {method}") for method, t, took in sent
                if start <= t <= marks[-1]]
        rows += [(end, f"     -- {name} answered at {(end - start) * 1000:.1f}") for name, end in zip(STEPS, marks[1:])]
        for _, row in sorted(rows):
            print(" ", row)
    # the first run is a warm-up too (first navigation of the page server, first snapshot script)
    return {step: statistics.median(v[1:]) * 1000 for step, v in times.items()}


def measure_at(rev: str, runs: int) -> dict[str, float]:
    """This script's medians in a temporary worktree of ``rev`` (run with this interpreter)."""
    with worktree_at(rev, __file__) as wt:
        out = subprocess.run([sys.executable, str(wt / "bench" / "tab_open.py"), "--runs", str(runs), "--json"],
                             check=True, capture_output=True, text=True, env=_env_with_src(wt)).stdout
        return json.loads(out.strip().splitlines()[-1])


def _env_with_src(wt: Path) -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONPATH": f"{wt / 'src'}{os.pathsep}{wt}"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=12)
    ap.add_argument("--trace", action="store_true")
    ap.add_argument("--against", metavar="REV")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    before = measure_at(args.against, args.runs) if args.against else None
    after = measure(args.runs, args.trace)
    if args.json:
        print(json.dumps(after))
        return
    print(f"median of {args.runs} runs, ms")
    print(f"{'step':16}" + (f"{args.against[:12]:>14}" if before else "") + f"{'this checkout':>14}")
    for step in STEPS:
        print(f"{step:16}" + (f"{before[step]:14.0f}" if before else "") + f"{after[step]:14.0f}")


if __name__ == "__main__":
    main()
