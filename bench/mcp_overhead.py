"""What the MCP layer adds per call: the same work over HTTP (httpx) and over MCP (the SDK's stdio
client talking to `pinchtab mcp`, which makes the same HTTP call), median per call.

Starts its own bridge subprocess on a free port and serves tests/fixtures/pages; prints a table.
Target: under 3 ms added per call.

    .venv/bin/python bench/mcp_overhead.py [--rounds 60]
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
from typing import Any

import httpx
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.harness import free_port, serve, wait_healthy  # noqa: E402


def start_bridge() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "pinchtab", "bridge", "--port", str(port)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        wait_healthy(url, proc, timeout=60)
    except RuntimeError as exc:
        proc.terminate()
        raise SystemExit(str(exc)) from None
    return proc, url


async def run(rounds: int) -> None:
    pages, _ = serve()
    bridge, url = start_bridge()
    try:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            nav = (await http.post("/navigate", json={"url": f"{pages}/login.html"})).json()
            tab = nav["tabId"]
            nodes = (await http.get(f"/tabs/{tab}/snapshot")).json()["nodes"]
            ref = next(n["ref"] for n in nodes if n["role"] == "checkbox")  # clicking it only toggles it

            # (label, HTTP request, MCP tool call): the same work both ways.
            ops: list[tuple[str, Any, tuple[str, dict[str, Any]]]] = [
                ("health", lambda: http.get("/health"), ("pinchtab_health", {})),
                ("snapshot compact", lambda: http.get(f"/tabs/{tab}/snapshot", params={"format": "compact"}),
                 ("pinchtab_snapshot", {"tabId": tab, "compact": True})),
                ("click by ref", lambda: http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": ref}),
                 ("pinchtab_click", {"tabId": tab, "ref": ref})),
                ("find", lambda: http.post(f"/tabs/{tab}/find", json={"query": "password field"}),
                 ("pinchtab_find", {"tabId": tab, "query": "password field"})),
            ]
            params = StdioServerParameters(command=sys.executable, args=["-m", "pinchtab", "mcp", "--server", url])
            async with stdio_client(params) as (read, write), ClientSession(read, write) as mcp:
                await mcp.initialize()
                await mcp.list_tools()
                times: dict[str, dict[str, list[float]]] = {label: {"http": [], "mcp": []} for label, *_ in ops}
                for i in range(rounds + 5):  # the first 5 rounds warm up both paths
                    for label, request, (tool, args) in ops:
                        # Alternate which path goes first: a call can warm a cache for the next one.
                        for path in ("http", "mcp") if i % 2 else ("mcp", "http"):
                            t0 = time.perf_counter()
                            if path == "http":
                                res = await request()
                                assert res.status_code == 200, (label, res.text)
                            else:
                                out = await mcp.call_tool(tool, args)
                                assert not out.is_error, (label, out.content)
                            if i >= 5:
                                times[label][path].append((time.perf_counter() - t0) * 1000)
                # The floor: an MCP round trip that makes no HTTP call (stdio + SDK on both sides).
                floor = []
                for _ in range(rounds):
                    t0 = time.perf_counter()
                    await mcp.call_tool("pinchtab_wait", {"ms": 0})
                    floor.append((time.perf_counter() - t0) * 1000)
    finally:
        bridge.terminate()
        bridge.wait(timeout=30)

    print(f"MCP overhead, median of {rounds} calls each (ms per call)")
    print(f"{'tool':<18} {'HTTP':>8} {'MCP':>8} {'added':>8}")
    added_all = []
    for label, t in times.items():
        h, m = statistics.median(t["http"]), statistics.median(t["mcp"])
        added_all.append(m - h)
        print(f"{label:<18} {h:8.2f} {m:8.2f} {m - h:8.2f}")
    print(f"{'median added':<18} {'':>8} {'':>8} {statistics.median(added_all):8.2f}   (target < 3 ms)")
    print(f"MCP round trip without HTTP (pinchtab_wait ms=0): {statistics.median(floor):.2f} ms; "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    asyncio.run(run(parser.parse_args().rounds))


if __name__ == "__main__":
    main()
