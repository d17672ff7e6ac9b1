"""Scale out on one machine: a server with its own local instance plus three bridges started as
separate processes on 127.0.0.2-4 (each with its own token and Chromium), attached to it.

    .venv/bin/python bench/scale_out.py [--runs 100] [--clients 3,12,30] [--seconds 10]

Prints
1. the routing overhead: the same request straight to a bridge and through the server, for the
   local instance and for an attached bridge (interleaved, medians);
2. N concurrent clients spread over the 3 attached bridges, each on its own tab, each looping
   compact snapshot + find + click, through the server and straight to the bridges: requests per
   second and latency, and the memory of each bridge with its Chromium with those tabs open (PSS of
   its whole process tree), which sizes the Kubernetes resource requests in deploy/;
3. the same memory after the tabs are closed again (PSS and RSS).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
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

HOSTS = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
SERVER_TOKEN = "bench-server-token"


def env_with(config: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCHTAB_")}
    env["PINCHTAB_CONFIG"] = str(config)
    return env


def start_bridge(tmp: Path, host: str, token: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    (tmp / "empty.json").write_text("{}")
    proc = subprocess.Popen([sys.executable, "-m", "pinchtab", "bridge", "--bind", host, "--port", str(port),
                             "--token", token], env=env_with(tmp / "empty.json"), stdout=subprocess.DEVNULL,
                            stderr=open(tmp / f"bridge-{host}.log", "wb"), start_new_session=True)
    return proc, f"http://{host}:{port}"


def start_server(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cfg = tmp / "server.json"
    cfg.write_text(json.dumps({
        "server": {"port": port, "stateDir": str(tmp / "state"), "instancePortStart": free_port(), "token": SERVER_TOKEN},
        "security": {"attach": {"enabled": True, "allowHosts": list(HOSTS), "allowSchemes": ["http"]}},
    }))
    proc = subprocess.Popen([sys.executable, "-m", "pinchtab", "server"], env=env_with(cfg), stdout=subprocess.DEVNULL,
                            stderr=open(tmp / "server.log", "wb"), start_new_session=True)
    return proc, f"http://127.0.0.1:{port}"


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def _descendants(pid: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat[stat.rindex(")") + 2:].split()[1])
            except (OSError, ValueError):
                continue
    tree, grew = {pid}, True
    while grew:
        more = {p for p, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return tree


def tree_memory(pid: int) -> tuple[float, float]:
    """(PSS, RSS) in MB of ``pid`` and all its descendants (a bridge and its Chromium)."""
    pss = rss = 0
    for p in _descendants(pid):
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    pss += int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return pss / 1024, rss / 1024


def overhead(pairs: dict[str, tuple[httpx.Client, httpx.Client, str]], runs: int) -> None:
    cases = [("snapshot interactive compact", "GET", "/snapshot?filter=interactive&format=compact", None),
             ("find", "POST", "/find", {"query": "log in button"}),
             ("text", "GET", "/text", None)]
    print(f"\n1. routing overhead, login page, {runs} runs per case, interleaved (medians)")
    print(f"{'target':9} {'route':30} {'direct':>9} {'server':>9} {'added':>8}")
    for name, method, suffix, body in cases:
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(runs + 5):
            for target, (direct, server, tab) in pairs.items():
                for via, client in (("direct", direct), ("server", server)):
                    t = time.perf_counter()
                    res = client.request(method, f"/tabs/{tab}{suffix}", json=body)
                    times.setdefault((target, via), []).append((time.perf_counter() - t) * 1000)
                    res.raise_for_status()
        for target in pairs:
            d = statistics.median(times[(target, "direct")][5:])
            s = statistics.median(times[(target, "server")][5:])
            print(f"{target:9} {name:30} {d:8.2f}ms {s:8.2f}ms {s - d:7.2f}ms")


async def client_loop(http: httpx.AsyncClient, tab: str, ref: str, stop: float, lat: list[float]) -> int:
    done = 0
    while time.monotonic() < stop:
        for method, path, body in (("GET", f"/tabs/{tab}/snapshot?filter=interactive&format=compact", None),
                                   ("POST", f"/tabs/{tab}/find", {"query": "log in button"}),
                                   ("POST", f"/tabs/{tab}/action", {"kind": "click", "ref": ref})):
            t = time.perf_counter()
            res = await http.request(method, path, json=body)
            lat.append((time.perf_counter() - t) * 1000)
            res.raise_for_status()
            done += 1
    return done


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def concurrent(server: str, server_pid: int, bridges: list[tuple[Any, str, str]], instances: list[str], page: str,
                     counts: list[int], seconds: float) -> None:
    print(f"\n2. N clients over {len(instances)} attached bridges, each on its own tab, looping compact snapshot + "
          f"find + click for {seconds:g} s, through the server and (same tabs) straight to the bridges; "
          f"then the memory of each bridge with its Chromium (PSS of its process tree) with those tabs open")
    print(f"{'clients':>7} {'via':>7} {'req/s':>8} {'p50':>9} {'p90':>9} {'p99':>9} {'server CPU/req':>15}   "
          f"{'PSS per bridge (MB)':>20}")
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    auth = {"Authorization": f"Bearer {SERVER_TOKEN}"}
    direct = {iid: httpx.AsyncClient(base_url=url, timeout=120, trust_env=False, limits=limits,
                                     headers={"Authorization": f"Bearer {token}"})
              for iid, (_, url, token) in zip(instances, bridges)}
    async with httpx.AsyncClient(base_url=server, timeout=120, trust_env=False, limits=limits, headers=auth) as http:
        for n in counts:
            tabs: list[tuple[str, str, str]] = []
            for i in range(n):
                iid = instances[i % len(instances)]
                res = await http.post(f"/instances/{iid}/tabs/open", json={"url": page})
                res.raise_for_status()
                tab = res.json()["tabId"]
                snap = (await http.get(f"/tabs/{tab}/snapshot", params={"filter": "interactive"})).json()
                ref = next(n["ref"] for n in snap["nodes"] if n["role"] == "textbox")
                tabs.append((iid, tab, ref))
            for via in ("server", "direct"):
                lat: list[float] = []
                stop = time.monotonic() + seconds
                cpu0 = cpu_seconds(server_pid)
                t0 = time.monotonic()
                done = await asyncio.gather(*(client_loop(http if via == "server" else direct[iid], tab, ref, stop, lat)
                                              for iid, tab, ref in tabs))
                elapsed = time.monotonic() - t0
                cpu = (cpu_seconds(server_pid) - cpu0) * 1000 / max(1, sum(done))
                memory = " ".join(f"{tree_memory(proc.pid)[0]:.0f}" for proc, _, _ in bridges) if via == "direct" else ""
                print(f"{n:7d} {via:>7} {sum(done) / elapsed:8.1f} {statistics.median(lat):8.1f}ms {pct(lat, 0.9):8.1f}ms "
                      f"{pct(lat, 0.99):8.1f}ms {cpu:12.2f}ms   {memory:>20}")
            await asyncio.gather(*(http.post(f"/tabs/{tab}/close") for _, tab, _ in tabs))
    for c in direct.values():
        await c.aclose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--clients", default="3,12,30")
    ap.add_argument("--seconds", type=float, default=10)
    args = ap.parse_args()
    pages, _ = serve()
    page = f"{pages}/login.html"
    procs: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory(prefix="pinchtab-scale-") as tmp_name:
        tmp = Path(tmp_name)
        try:
            bridges = []
            for i, host in enumerate(HOSTS):
                proc, url = start_bridge(tmp, host, f"bench-bridge-{i}-token")
                procs.append(proc)
                bridges.append((proc, url, f"bench-bridge-{i}-token"))
            server_proc, server = start_server(tmp)
            procs.append(server_proc)
            for proc, url, _ in bridges:
                wait_healthy(url, proc, timeout=90)
            wait_healthy(server, server_proc, timeout=90)
            auth = {"Authorization": f"Bearer {SERVER_TOKEN}"}
            http = httpx.Client(base_url=server, headers=auth, timeout=60, trust_env=False)
            ids = []
            for i, (_, url, token) in enumerate(bridges):
                res = http.post("/instances/attach-bridge", json={"baseUrl": url, "token": token, "name": f"bridge-{i}"})
                res.raise_for_status()
                ids.append(res.json()["id"])
            local = next(i for i in http.get("/instances").json()["instances"] if not i.get("attached"))
            print(f"server + local instance + {len(bridges)} attached bridges; python {sys.version.split()[0]}, "
                  f"{os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f}")

            def tab_on(iid: str) -> str:
                res = http.post(f"/instances/{iid}/tabs/open", json={"url": page})
                res.raise_for_status()
                return res.json()["tabId"]

            pairs = {
                "local": (httpx.Client(base_url=f"http://127.0.0.1:{local['port']}", headers=auth, trust_env=False, timeout=60),
                          http, tab_on(local["id"])),
                "attached": (httpx.Client(base_url=bridges[0][1], headers={"Authorization": f"Bearer {bridges[0][2]}"},
                                          trust_env=False, timeout=60), http, tab_on(ids[0])),
            }
            overhead(pairs, args.runs)
            asyncio.run(concurrent(server, server_proc.pid, bridges, ids, page, [int(c) for c in args.clients.split(",")], args.seconds))
            print("\n3. memory of each bridge with its Chromium (whole process tree), tabs of part 2 closed")
            for i, (proc, url, _) in enumerate(bridges):
                tabs = len(httpx.get(f"{url}/tabs", headers={"Authorization": f"Bearer {bridges[i][2]}"}, trust_env=False).json()["tabs"])
                pss, rss = tree_memory(proc.pid)
                print(f"bridge-{i}: {tabs} tabs open, PSS {pss:6.0f} MB, RSS {rss:6.0f} MB")
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.terminate()
            for proc in procs:
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    pass
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # anything left in its session (Chromium)
                except (ProcessLookupError, PermissionError):
                    pass


if __name__ == "__main__":
    main()
