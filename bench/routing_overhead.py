"""What the server's routing proxy adds: the same requests through ``pinchtab server`` and straight
on the instance's bridge, interleaved, over kept-alive connections.

    .venv/bin/python bench/routing_overhead.py [--runs 200] [--page large.html]

Starts its own server (temporary state dir, free ports, default instance only) and a fixture page
server; prints medians, p90s and the added milliseconds per route.
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
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.harness import free_port, serve, wait_healthy  # noqa: E402


def start_server(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cfg = tmp / "config.json"
    cfg.write_text(json.dumps({
        "server": {"port": port, "stateDir": str(tmp / "state"), "instancePortStart": free_port()},
        "security": {"allowEvaluate": True},
    }))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCHTAB_")}
    env["PINCHTAB_CONFIG"] = str(cfg)
    proc = subprocess.Popen([sys.executable, "-m", "pinchtab", "server"],
                            env=env, stdout=subprocess.DEVNULL, stderr=open(tmp / "server.log", "wb"))
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, timeout=90)
    except RuntimeError:
        proc.kill()
        raise SystemExit(f"server did not start: {(tmp / 'server.log').read_text()[-2000:]}") from None
    return proc, url


def measure(clients: dict[str, httpx.Client], method: str, path: str, body: Any, runs: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in clients}
    for name, client in clients.items():  # warm up connections and caches
        for _ in range(5):
            client.request(method, path, json=body).raise_for_status()
    for _ in range(runs):
        for name, client in clients.items():  # interleaved: drift hits both alike
            t = time.perf_counter()
            res = client.request(method, path, json=body)
            times[name].append((time.perf_counter() - t) * 1000)
            res.raise_for_status()
    return times


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--page", default="login.html", help="fixture page to load (e.g. large.html)")
    args = ap.parse_args()

    pages, _ = serve()
    with tempfile.TemporaryDirectory(prefix="pinchtab-bench-") as tmp:
        proc, url = start_server(Path(tmp))
        try:
            (inst,) = httpx.get(f"{url}/instances", trust_env=False).json()["instances"]
            tab = httpx.post(f"{url}/navigate", json={"url": f"{pages}/{args.page}"}, trust_env=False, timeout=60).json()["tabId"]
            clients = {
                "server": httpx.Client(base_url=url, trust_env=False, timeout=60),
                "bridge": httpx.Client(base_url=f"http://127.0.0.1:{inst['port']}", trust_env=False, timeout=60),
            }
            cases = [
                ("snapshot", "GET", f"/tabs/{tab}/snapshot", None),
                ("snapshot interactive compact", "GET", f"/tabs/{tab}/snapshot?filter=interactive&format=compact", None),
                ("find", "POST", f"/tabs/{tab}/find", {"query": "log in button"}),
                ("evaluate 1+1", "POST", f"/tabs/{tab}/evaluate", {"expression": "1+1"}),
                ("shorthand /text?tabId=", "GET", f"/text?tabId={tab}", None),
            ]
            size = len(clients["bridge"].get(f"/tabs/{tab}/snapshot").content)
            print(f"page {args.page}: JSON snapshot {size} bytes; {args.runs} runs per route, interleaved; "
                  f"python {sys.version.split()[0]}, {os.cpu_count()} cpus")
            print(f"{'route':32} {'bridge p50':>10} {'server p50':>10} {'added p50':>10} {'ratio':>6} "
                  f"{'bridge p90':>10} {'server p90':>10}")
            for name, method, path, body in cases:
                t = measure(clients, method, path, body, args.runs)
                b50, s50 = statistics.median(t["bridge"]), statistics.median(t["server"])
                print(f"{name:32} {b50:9.2f}ms {s50:9.2f}ms {s50 - b50:9.2f}ms {s50 / b50:6.2f} "
                      f"{pct(t['bridge'], 0.9):9.2f}ms {pct(t['server'], 0.9):9.2f}ms")
            for c in clients.values():
                c.close()
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
