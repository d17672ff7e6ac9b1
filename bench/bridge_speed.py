"""Bridge speed and memory: prints medians over several runs (never part of the test suite).

    .venv/bin/python bench/bridge_speed.py [--runs N]

Measures, against a real headless Chromium and fixture pages served from 127.0.0.1:
  - Chromium start to first snapshot (in-process Browser: launch, navigate, snapshot)
  - navigate (POST /navigate of a small page, through HTTP)
  - snapshot of the ~1000-element page, interactive and full, json/text/compact, and tokens (chars/4)
  - click by ref through HTTP
  - resident memory of the pinchtab bridge process, and of its Chromium processes
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.harness import free_port, median_ms, serve, wait_healthy  # noqa: E402



def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def group_pids(pgid: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                fields = stat[stat.rindex(")") + 2:].split()
                if int(fields[2]) == pgid:
                    pids.append(int(entry.name))
            except (OSError, ValueError):
                pass
    return pids


async def start_to_first_snapshot(pages: str) -> tuple[float, float]:
    from pinchtab.browser.page import snapshot
    from pinchtab.browser.core.browser import Browser
    from pinchtab.config import load_config

    t0 = time.perf_counter()
    # PINCHTAB_BROWSER_HEADLESS_SHELL=false: the full browser here too (the bridge process reads it).
    browser = Browser(load_config(environ={k: v for k, v in os.environ.items() if k == "PINCHTAB_BROWSER_HEADLESS_SHELL"}))
    await browser.start()
    ready = (time.perf_counter() - t0) * 1000
    async with browser.use_tab(None, create=True) as tab:
        await tab.navigate(f"{pages}/login.html", timeout_ms=10000)
        await snapshot.capture(tab)
    first = (time.perf_counter() - t0) * 1000
    await browser.stop()
    return ready, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    pages, _ = serve()

    starts = [asyncio.run(start_to_first_snapshot(pages)) for _ in range(5)]
    print("## Start")
    print(f"Chromium start to browser ready      {statistics.median(s[0] for s in starts):8.1f} ms  (median of 5)")
    print(f"Chromium start to first snapshot     {statistics.median(s[1] for s in starts):8.1f} ms  (launch, navigate, snapshot)")

    port = free_port()
    proc = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "pinchtab"), "bridge", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc, timeout=30)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as c:
            runs = args.runs
            print(f"\n## Through HTTP (median of {runs})")
            nav = median_ms(lambda: c.post("/navigate", json={"url": f"{pages}/login.html"}).raise_for_status(), runs)
            print(f"navigate (login page, waits for load) {nav:8.1f} ms")

            c.post("/navigate", json={"url": f"{pages}/large.html"}).raise_for_status()
            print("\n1000-element page (large.html):")
            print(f"{'snapshot':34} {'median':>9} {'nodes':>6} {'chars':>8} {'tokens':>7}")
            for label, params in (
                ("interactive, json", {"filter": "interactive"}),
                ("interactive, compact", {"filter": "interactive", "format": "compact"}),
                ("interactive, text", {"filter": "interactive", "format": "text"}),
                ("full, json", {}),
                ("full, compact", {"format": "compact"}),
                ("full, text", {"format": "text"}),
            ):
                ms = median_ms(lambda: c.get("/snapshot", params=params).raise_for_status(), runs)
                body = c.get("/snapshot", params=params)
                text = body.text
                nodes = c.get("/snapshot", params={**params, "format": "json"}).json()["count"]
                print(f"{label:34} {ms:7.1f} ms {nodes:6d} {len(text):8d} {len(text) // 4:7d}")

            find = median_ms(lambda: c.post("/find", json={"query": "delete item 42 button"}).raise_for_status(), runs)
            print(f"\nfind on the 1000-element page        {find:8.1f} ms  (index cached with the snapshot)")
            firsts = []
            for _ in range(runs):
                c.get("/snapshot").raise_for_status()  # a new snapshot: the next find builds its index
                t = time.perf_counter()
                c.post("/find", json={"query": "delete item 42 button"}).raise_for_status()
                firsts.append((time.perf_counter() - t) * 1000)
            print(f"first find after a new full snapshot {statistics.median(firsts):8.1f} ms  (builds the index)")

            c.post("/navigate", json={"url": f"{pages}/buttons.html"}).raise_for_status()
            snap = c.get("/snapshot", params={"filter": "interactive"}).json()
            ref = next(n["ref"] for n in snap["nodes"] if n["name"] == "Increment")
            click = median_ms(lambda: c.post("/action", json={"kind": "click", "ref": ref}).raise_for_status(), runs)
            print(f"click by ref                         {click:8.1f} ms")

            print("\n## Memory (after the runs above; PSS counts shared pages once)")
            print(f"pinchtab bridge process              {rss_mb(proc.pid):8.1f} MB resident, {pss_mb(proc.pid):6.1f} MB PSS")
            chrome = [p for p in group_pids(_chrome_child(proc.pid))]
            print(f"Chromium ({len(chrome)} processes)               {sum(pss_mb(p) for p in chrome):8.1f} MB PSS")
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _chrome_child(parent: int) -> int:
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            if int(stat[stat.rindex(")") + 2:].split()[1]) == parent:
                return int(entry)
        except (OSError, ValueError):
            pass
    raise SystemExit("no Chromium child found")


def pss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


if __name__ == "__main__":
    sys.exit(main())
