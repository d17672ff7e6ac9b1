"""The server's client to its bridges, side by side: the hand-written HTTP/1.1 client the proxy
used before, httpcore's connection pool and aiohttp's client session, against the same uvicorn app
(a stand-in bridge), interleaved in one event loop over kept-alive connections.

    .venv/bin/python bench/upstream_clients.py [--runs 2000]

aiohttp is measured only when it is installed (`pip install aiohttp`; pinchtab does not need it).
Prints the median and p90 round trip per client for a small JSON answer, a 20 KB one (a snapshot)
and a 1 MB one (a screenshot).
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.harness import free_port, wait_healthy  # noqa: E402

APP = """
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

SIZES = {"small": b'{"ok":true}', "snapshot": b'{"x":"' + b"a" * 20000 + b'"}', "screenshot": b"\\x89" * (1 << 20)}

async def body(request):
    return Response(SIZES[request.path_params["size"]], media_type="application/json")

async def health(request):
    return Response(b'{"status":"ok"}', media_type="application/json")

app = Starlette(routes=[Route("/health", health), Route("/b/{size}", body, methods=["GET", "POST"])])
"""


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


async def run(port: int, runs: int) -> None:
    from pinchtab.server.upstream import Upstream

    origin = f"http://127.0.0.1:{port}"
    clients: dict[str, Any] = {}

    legacy = _legacy_client()
    if legacy is not None:
        old = legacy()

        async def call_legacy(path: str) -> bytes:
            res = await old.request(port, "GET", path.encode(), [(b"accept", b"*/*")], b"")
            return await res.read()

        clients["hand-written (before)"] = call_legacy

    import httpcore

    pool = httpcore.AsyncConnectionPool(max_connections=64, max_keepalive_connections=32, keepalive_expiry=4)

    async def call_httpcore(path: str) -> bytes:
        res = await pool.request("GET", origin + path, headers=[(b"accept", b"*/*")])
        return res.content

    clients["httpcore pool"] = call_httpcore

    up = Upstream()

    async def call_upstream(path: str) -> bytes:
        res = await up.request(origin, "GET", path.encode(), [(b"accept", b"*/*")], b"")
        return await res.read()

    clients["pinchtab Upstream (now)"] = call_upstream

    session = None
    try:
        import aiohttp

        session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64), auto_decompress=False)

        async def call_aiohttp(path: str) -> bytes:
            async with session.get(origin + path, headers={"accept": "*/*"}) as res:
                return await res.read()

        clients["aiohttp session"] = call_aiohttp
    except ImportError:
        print("aiohttp is not installed: not measured")

    print(f"{runs} runs per case, interleaved; python {sys.version.split()[0]}, {os.cpu_count()} cpus, "
          f"load {os.getloadavg()[0]:.2f}")
    print(f"{'case':12} {'client':26} {'p50':>8} {'p90':>8}")
    for size, n in (("small", runs), ("snapshot", runs), ("screenshot", max(50, runs // 10))):
        path = f"/b/{size}"
        times: dict[str, list[float]] = {name: [] for name in clients}
        for call in clients.values():
            for _ in range(20):
                await call(path)
        for _ in range(n):
            for name, call in clients.items():
                t = time.perf_counter()
                await call(path)
                times[name].append((time.perf_counter() - t) * 1000)
        for name, values in times.items():
            print(f"{size:12} {name:26} {statistics.median(values):7.3f}ms {pct(values, 0.9):7.3f}ms")
    await pool.aclose()
    await up.close()
    if session is not None:
        await session.close()


def _legacy_client() -> Any:
    """The hand-written client as it was before httpcore replaced it (from git), if available."""
    try:
        src = subprocess.run(["git", "-C", str(ROOT), "show", "0cc6a96:src/pinchtab/server/upstream.py"],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    import types

    module = types.ModuleType("legacy_upstream")
    sys.modules[module.__name__] = module
    exec(compile(src, "legacy_upstream.py", "exec"), module.__dict__)
    return module.Upstream


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=2000)
    args = ap.parse_args()
    port = free_port()
    app_dir = Path(os.environ.get("TMPDIR", "/tmp")) / f"pinchtab-upstream-bench-{os.getpid()}"
    app_dir.mkdir(exist_ok=True)
    (app_dir / "standin.py").write_text(APP)
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "standin:app", "--port", str(port), "--log-level", "warning"],
                            cwd=app_dir, stdout=subprocess.DEVNULL)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc, timeout=30)
        asyncio.run(run(port, args.runs))
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
