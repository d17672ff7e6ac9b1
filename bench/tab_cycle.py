"""CPU of a tab cycle through the bridge: POST /tab {"action":"new"}, a navigation to a small form
page, a snapshot, a click, a fill, a text read and the close (what an end-to-end test pays per tab).
Prints, per cycle, the median CPU of Chromium's processes, in all and by type (browser, renderer,
gpu, network, storage: the whole process tree, including processes that ended), and of the bridge's
threads (the HTTP client of this script excluded); with --count, the CDP traffic: commands sent and
events received, by method.
Never part of the test suite.

    .venv/bin/python bench/tab_cycle.py [--cycles 20] [--rounds 3] [--against REV] [--count]

--against REV alternates rounds of this script in a worktree of git revision REV with rounds of this
checkout (the before/after of a change to the bridge, under the same load). --count lists the CDP
commands and events of one cycle by method.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _revision import worktree_at  # noqa: E402
from tests.conftest import start_bridge  # noqa: E402
from tests.fixtures.harness import PAGES, serve  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: str) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def _kind(pid: int) -> str:
    """Chromium's process type from its command line (which it rewrites space-separated)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().replace(b"\0", b" ").decode(errors="replace").split()
    except OSError:
        return "?"
    kind = next((a[7:] for a in args if a.startswith("--type=")), "browser")
    if kind == "utility":
        kind = next((a.split("=", 1)[1].split(".")[0] for a in args if a.startswith("--utility-sub-type=")), kind)
    # A renderer's CPU lands in its zygote's once it exits and is reaped (a closed tab's).
    return {"zygote": "renderer", "gpu-process": "gpu"}.get(kind, kind)


def tree_cpu(root: int) -> dict[str, float]:
    """CPU seconds of ``root``'s descendants (not ``root``) by Chromium process type, counting
    children they reaped."""
    parents: dict[int, int] = {}
    stats: dict[int, list[str]] = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            fields = _stat(pid)
            if fields:
                parents[int(pid)], stats[int(pid)] = int(fields[1]), fields
    total: dict[str, float] = {}
    for pid, fields in stats.items():
        p = parents[pid]
        while p and p != root:
            p = parents.get(p, 0)
        if p == root:
            kind = _kind(pid)
            total[kind] = total.get(kind, 0.0) + sum(int(x) for x in fields[11:15]) / TICK  # utime stime cutime cstime
    return total


def _minus(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {k: after.get(k, 0.0) - before.get(k, 0.0) for k in after.keys() | before.keys()}


def threads_cpu(exclude: int) -> float:
    """CPU seconds of this process's threads except ``exclude`` (the client's)."""
    total = 0
    for tid in os.listdir("/proc/self/task"):
        if int(tid) != exclude:
            fields = _stat(f"self/task/{tid}")
            if fields:
                total += int(fields[11]) + int(fields[12])
    return total / TICK


def count_cdp() -> tuple[Counter[str], Counter[str], list[int]]:
    """Count the CDP commands sent and events received (by method) from now on."""
    from pinchtab.cdp import Connection

    sent: Counter[str] = Counter()
    events: Counter[str] = Counter()
    received = [0]
    send, start = Connection.send, Connection.start

    async def counted(self: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        sent[method] += 1
        return await send(self, method, *args, **kwargs)

    def counting_start(self: Any) -> None:
        recv = self.transport.recv

        async def counted_recv() -> bytes | None:
            raw = await recv()
            if raw is not None:
                received[0] += len(raw)
                if b'"method"' in raw[:200]:
                    events[json.loads(raw).get("method", "?")] += 1
            return raw

        self.transport.recv = counted_recv
        start(self)

    Connection.send = counted  # type: ignore[method-assign]
    Connection.start = counting_start  # type: ignore[method-assign]
    return sent, events, received


def cycle(http: httpx.Client, url: str) -> None:
    def call(method: str, path: str, **kwargs: Any) -> Any:
        res = http.request(method, path, **kwargs)
        res.raise_for_status()
        return res.json()

    tid = call("POST", "/tab", json={"action": "new"})["tabId"]
    call("POST", f"/tabs/{tid}/navigate", json={"url": f"{url}/form.html"})
    call("GET", f"/tabs/{tid}/snapshot")
    call("POST", f"/tabs/{tid}/action", json={"kind": "fill", "selector": "#bio", "text": "Ada"})
    call("POST", f"/tabs/{tid}/action", json={"kind": "click", "selector": "#save"})
    call("GET", f"/tabs/{tid}/text")
    call("POST", f"/tabs/{tid}/close")


def measure(cycles: int, rounds: int, count: bool) -> dict[str, Any]:
    counters = count_cdp() if count else None
    url, server = serve(PAGES)
    chromium: list[dict[str, float]] = []
    bridge: list[float] = []
    me = threading.get_native_id()
    try:
        with start_bridge(Path(tempfile.mkdtemp()), allowEvaluate=True) as b, \
                httpx.Client(base_url=b.url, timeout=60) as http:
            cycle(http, url)  # warm-up: Chromium's first tab, imports, the snapshot script
            for _ in range(rounds):
                if counters:
                    for c in counters[:2]:
                        c.clear()
                    counters[2][0] = 0
                c0, p0 = tree_cpu(os.getpid()), threads_cpu(me)
                for _ in range(cycles):
                    cycle(http, url)
                time.sleep(0.3)  # the last closed tab's renderer exits and is reaped
                chromium.append({k: v / cycles * 1000 for k, v in _minus(tree_cpu(os.getpid()), c0).items()})
                bridge.append((threads_cpu(me) - p0) / cycles * 1000)
    finally:
        server.shutdown()
    kinds = sorted({k for row in chromium for k in row})
    out: dict[str, Any] = {f"chromium {k}": statistics.median(row.get(k, 0.0) for row in chromium) for k in kinds}
    out["chromium"] = statistics.median(sum(row.values()) for row in chromium)
    out["bridge"] = statistics.median(bridge)
    if counters:
        sent, events, received = counters
        out["commands"] = {k: v / cycles for k, v in sent.most_common()}
        out["events"] = {k: v / cycles for k, v in events.most_common()}
        out["kb"] = received[0] / cycles / 1024
    return out


def measure_at(wt: Path, cycles: int, rounds: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": f"{wt / 'src'}{os.pathsep}{wt}"}
    out = subprocess.run([sys.executable, str(wt / "bench" / "tab_cycle.py"), "--cycles", str(cycles),
                          "--rounds", str(rounds), "--json"], check=True, capture_output=True, text=True,
                         env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cycles", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--against", metavar="REV")
    ap.add_argument("--count", action="store_true")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.json or not args.against:
        res = measure(args.cycles, args.rounds, args.count)
        if args.json:
            print(json.dumps(res))
            return
        print(f"per cycle, median of {args.rounds} rounds of {args.cycles}, ms of CPU")
        for key in _rows(res):
            print(f"  {key:24}{res[key]:8.0f}")
        if args.count:
            print(f"CDP commands {sum(res['commands'].values()):.1f}, events {sum(res['events'].values()):.1f}, "
                  f"{res['kb']:.0f} kB received per cycle")
            for kind in ("commands", "events"):
                for method, n in res[kind].items():
                    print(f"  {kind[:-1]:8} {n:6.2f}  {method}")
        return
    rows: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    with worktree_at(args.against, __file__) as wt:
        for _ in range(args.rounds):
            rows["before"].append(measure_at(wt, args.cycles, 1))
            rows["after"].append(measure_at(ROOT, args.cycles, 1))
    print(f"per cycle, ms of CPU, median of {args.rounds} alternating rounds of {args.cycles} cycles")
    print(f"{'':24}{args.against[:12]:>14}{'this checkout':>16}")
    for key in _rows(rows["after"][0]):
        before = statistics.median(r.get(key, 0.0) for r in rows["before"])
        after = statistics.median(r.get(key, 0.0) for r in rows["after"])
        print(f"{key:24}{before:14.0f}{after:16.0f}")


def _rows(res: dict[str, Any]) -> list[str]:
    """The CPU figures of a result: Chromium in all, by process type (largest first), the bridge."""
    kinds = sorted((k for k in res if k.startswith("chromium ")), key=lambda k: -res[k])
    return ["chromium", *(k for k in kinds if abs(res[k]) >= 1), "bridge"]


if __name__ == "__main__":
    main()
