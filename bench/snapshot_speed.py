"""Snapshot cost on ../shared/pages/big-1000.html beside a 100-element page cut from it, through HTTP
(a `pinchtab bridge` subprocess) and, with `--breakdown`, stage by stage in-process: the walk in the
page, the walker's CDP round trip (walk + serialisation + transfer), Python shaping (parse + render)
and the JSON encoding of the answer, each iteration beside one HTTP request; HTTP is the rest.

    .venv/bin/python bench/snapshot_speed.py [--runs 20] [--breakdown]

Targets (issue 13): big-1000.html interactive compact <= 60 ms, full JSON <= 120 ms (medians).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
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

from tests.fixtures.harness import free_port, median_ms, serve, wait_healthy  # noqa: E402

BIG = ROOT.parent / "shared" / "pages" / "big-1000.html"
MODES = (
    ("interactive compact", {"filter": "interactive", "format": "compact"}),
    ("interactive json", {"filter": "interactive"}),
    ("full compact", {"format": "compact"}),
    ("full json", {}),
)


def pages_dir() -> Path:
    """big-1000.html and big-100.html: the same page with its first 25 rows (4 controls each)."""
    folder = Path(tempfile.mkdtemp(prefix="pinchtab-snap-"))
    html = BIG.read_text()
    shutil.copy(BIG, folder / "big-1000.html")
    rows = re.findall(r"<tr><td>Order.*?</tr>", html)
    small = html.replace("".join(rows), "".join(rows[:25])).replace("(1000 elements)", "(100 elements)")
    (folder / "big-100.html").write_text(small)
    return folder



def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def start_bridge(src: Path | None = None) -> tuple[subprocess.Popen[bytes], httpx.Client]:
    """A bridge subprocess (of the code at ``src``, e.g. another checkout's src/, when given)."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(src)} if src else None
    proc = subprocess.Popen([sys.executable, "-m", "pinchtab", "bridge", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_healthy(f"http://127.0.0.1:{port}", proc, timeout=60)
    return proc, httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60, trust_env=False)


def through_http(base: str, runs: int, baseline: Path | None) -> dict[str, dict[str, dict[str, tuple[float, int]]]]:
    """{bridge: {page: {mode: (median ms, nodes)}}}; with a baseline, both bridges measured in turn."""
    bridges = {"this": start_bridge()}
    if baseline:
        bridges["baseline"] = start_bridge(baseline)
    out: dict[str, dict[str, dict[str, tuple[float, int]]]] = {name: {} for name in bridges}
    try:
        for page in ("big-100.html", "big-1000.html"):
            for name, (_, c) in bridges.items():
                c.post("/navigate", json={"url": f"{base}/{page}"}).raise_for_status()
                out[name][page] = {}
            for label, params in MODES:
                for name, (_, c) in bridges.items():
                    ms = median_ms(lambda: c.get("/snapshot", params=params).raise_for_status(), runs)
                    count = c.get("/snapshot", params={**params, "format": "json"}).json()["count"]
                    out[name][page][label] = (ms, count)
    finally:
        for proc, c in bridges.values():
            c.close()
            proc.terminate()
            proc.wait(timeout=20)
    return out


async def breakdown(base: str, runs: int, bridge_url: str) -> dict[str, dict[str, float]]:
    """Stages of big-1000.html snapshots in-process, each iteration next to one HTTP request to a
    bridge subprocess, so that both see the same machine load: {mode: {stage: median ms}}."""
    from pinchtab.browser.page import formatting, node_ids, snapshot
    from pinchtab.browser.page.nodes import Snapshot
    from pinchtab.browser.core.browser import Browser
    from pinchtab.config import load_config

    timed_walk = ("function(o){const walk=" + snapshot.WALKER_JS + ";const t=performance.now();walk(o);"
                  "return performance.now()-t;}")
    browser = Browser(load_config(environ={}))
    await browser.start()
    out: dict[str, dict[str, float]] = {}
    try:
        async with browser.use_tab(None, create=True) as tab, \
                httpx.AsyncClient(base_url=bridge_url, timeout=60, trust_env=False) as http:
            page = f"{base}/big-1000.html"
            await tab.navigate(page, timeout_ms=30000)
            (await http.post("/navigate", json={"url": page})).raise_for_status()
            ids = node_ids.of(tab)
            for label, params in MODES:
                interactive = params.get("filter") == "interactive"
                fmt = params.get("format", "json")
                keys = ("HTTP total", "walk in the page", "walker round trip", "parse", "render", "json encode")
                stages: dict[str, list[float]] = {k: [] for k in keys}
                for i in range(runs + 3):
                    t = time.perf_counter()
                    (await http.get("/snapshot", params=params)).raise_for_status()
                    total = (time.perf_counter() - t) * 1000
                    walk = {"interactive": interactive, "selector": None, "depth": None}
                    in_page = (await tab.call_in_world(timed_walk, walk))["value"]
                    t0 = time.perf_counter()
                    result = await tab.call_in_world(snapshot.WALKER_JS, {**walk, "ids": ids.args()},
                                                     serialization=snapshot._SERIALIZATION)
                    t1 = time.perf_counter()
                    page_info, nodes = snapshot.parse_walker_result(result, ids)
                    snap = Snapshot(url=page_info.get("url", ""), title=page_info.get("title", ""), nodes=nodes,
                                    interactive_only=interactive)
                    t2 = time.perf_counter()
                    body = formatting.render(snap, fmt)
                    t3 = time.perf_counter()
                    if isinstance(body, dict):
                        json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
                    else:
                        body.encode()
                    t4 = time.perf_counter()
                    if i >= 3:
                        for key, ms in zip(keys, (total, in_page, (t1 - t0) * 1000, (t2 - t1) * 1000,
                                                  (t3 - t2) * 1000, (t4 - t3) * 1000)):
                            stages[key].append(ms)
                out[label] = {k: statistics.median(v) for k, v in stages.items()}
    finally:
        await browser.stop()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--breakdown", action="store_true", help="also time each stage in-process")
    ap.add_argument("--baseline", type=Path, help="also measure a bridge of the code in this src/ folder "
                    "(e.g. /work/main/src), in turn with this one")
    args = ap.parse_args()
    folder = pages_dir()
    base, httpd = serve(folder)
    try:
        print(f"load average before: {load()}")
        measured = through_http(base, args.runs, args.baseline)
        parts = None
        if args.breakdown:
            proc, client = start_bridge()
            try:
                parts = asyncio.run(breakdown(base, args.runs, str(client.base_url)))
            finally:
                client.close()
                proc.terminate()
                proc.wait(timeout=20)
        print(f"load average after:  {load()}\n")
        for name, table in measured.items():
            where = "this checkout" if name == "this" else f"baseline {args.baseline}"
            print(f"snapshot through HTTP, {where}, median of {args.runs} (ms; nodes)")
            print(f"{'':22}{'100 elements':>20}{'1000 elements':>20}{'growth':>9}")
            for label, _ in MODES:
                (a, na), (b, nb) = table["big-100.html"][label], table["big-1000.html"][label]
                print(f"{label:22}{a:12.1f} ms {na:5d}{b:12.1f} ms {nb:5d}{b / a:8.1f}x")
            print()
        if parts:
            print("big-1000.html stage by stage, median (ms), each iteration beside one HTTP request:")
            print("  walk in the page = the walker alone (performance.now); walker round trip = walk + serialisation")
            print("  + CDP transfer and JSON decode; HTTP rest = HTTP total - round trip - parse - render - encode")
            keys = list(next(iter(parts.values())))
            print(f"{'':22}" + "".join(f"{k:>19}" for k in keys) + f"{'HTTP rest':>12}")
            for label, _ in MODES:
                st = parts[label]
                rest = st["HTTP total"] - sum(st[k] for k in keys[2:])
                print(f"{label:22}" + "".join(f"{st[k]:19.1f}" for k in keys) + f"{rest:12.1f}")
        print("\ntargets: big-1000.html interactive compact <= 60 ms, full json <= 120 ms")
    finally:
        httpd.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
