"""Start-up cost of each kind of pinchtab process: the CPU the process itself spent (its threads, not
its children: Chromium, a server's bridges) and the wall from spawn until it is ready.

  help    `pinchtab --help`, to its exit
  bridge  `pinchtab bridge`, until /health answers 200 (Chromium is its child, not counted)
  server  `pinchtab server` without a default instance, until /health answers 200
  mcp     `pinchtab mcp --server URL`, until its initialize answer and its tools/list answer (the
          MCP SDK loaded); CPU at the tools/list answer
  snap    `pinchtab snap` against a running bridge, to its exit

Prints the median of --runs runs of each (after one warm-up run, which writes the bytecode cache
as an installed package has it). Never part of the test suite.

    .venv/bin/python bench/startup.py [--runs 7] [--only bridge,mcp] [--against REV]

--against REV alternates runs of this script in a worktree of git revision REV with runs of this
checkout (the before/after of a change to the imports, under the same load).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _revision import worktree_at  # noqa: E402
from tests.fixtures.harness import free_port, serve  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
KINDS = ("help", "bridge", "server", "mcp", "snap")
POLL = 0.01  # a refused connect costs the measured process nothing


def own_cpu(pid: int) -> float:
    """CPU seconds of process ``pid`` itself (all its threads; not its children)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def _env(tmp: Path, **config: Any) -> dict[str, str]:
    """An environment with no PINCHTAB_ settings of the caller's, and a config file of ``config``."""
    tmp.mkdir(parents=True, exist_ok=True)
    cfg = tmp / "config.json"
    cfg.write_text(json.dumps(config))
    # Bytecode cached as an installed package has it (the first, untimed run writes it).
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCHTAB_") and k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PINCHTAB_CONFIG": str(cfg), "HOME": str(tmp)}


def _pinchtab(*args: str) -> list[str]:
    return [sys.executable, "-m", "pinchtab", *args]


def _healthy(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return s.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def until_healthy(args: list[str], env: dict[str, str], port: int) -> dict[str, float]:
    """Spawn, poll /health; the wall and own CPU at the first 200."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        while not _healthy(port):
            if proc.poll() is not None:
                raise RuntimeError(f"{args}: exited with code {proc.returncode}")
            time.sleep(POLL)
        return {"wall": time.perf_counter() - t0, "cpu": own_cpu(proc.pid)}
    finally:
        _stop(proc)


def to_exit(args: list[str], env: dict[str, str]) -> dict[str, float]:
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{args}: exited with code {proc.returncode}")
    return {"wall": time.perf_counter() - t0, "cpu": usage.ru_utime + usage.ru_stime}


def mcp(bridge_url: str, env: dict[str, str]) -> dict[str, float]:
    """``pinchtab mcp`` on stdio: initialize (answered early), then tools/list (the SDK's)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(_pinchtab("mcp", "--server", bridge_url, "--no-autostart"), env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    out: dict[str, float] = {}

    def ask(id_: int, method: str, params: dict[str, Any]) -> None:
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params}).encode() + b"\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if json.loads(line).get("id") == id_:
                return
        raise RuntimeError(f"pinchtab mcp ended before answering {method}")

    try:
        ask(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "bench", "version": "0"}})
        out["initialize"] = time.perf_counter() - t0
        proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        ask(2, "tools/list", {})
        out["wall"] = time.perf_counter() - t0
        out["cpu"] = own_cpu(proc.pid)
        return out
    finally:
        proc.stdin.close()
        _stop(proc)


class Bridge:
    """A bridge for ``snap`` and ``mcp`` to talk to, with one tab on a small page."""

    def __init__(self, tmp: Path) -> None:
        self.page_url, self.pages = serve()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = _env(tmp, server={"port": self.port, "stateDir": str(tmp / "state")})
        self.proc = subprocess.Popen(_pinchtab("bridge"), env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while not _healthy(self.port):
            if self.proc.poll() is not None:
                raise RuntimeError("the bridge exited")
            time.sleep(POLL)
        subprocess.run(_pinchtab("nav", f"{self.page_url}/form.html", "--server", self.url), env=env,
                       check=True, capture_output=True)

    def close(self) -> None:
        _stop(self.proc)
        self.pages.shutdown()


def measure(kinds: list[str], runs: int) -> dict[str, dict[str, float]]:
    rows: dict[str, list[dict[str, float]]] = {k: [] for k in kinds}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        bridge = Bridge(tmp / "shared") if {"snap", "mcp"} & set(kinds) else None
        try:
            for i in range(-1, runs):  # run -1: a warm-up, not counted
                for kind in kinds:
                    run = tmp / f"{kind}{i}"
                    port = free_port()
                    env = _env(run, server={"port": port, "stateDir": str(run / "state"), "defaultInstance": False,
                                            "instancePortStart": free_port()})
                    if kind == "help":
                        rows[kind].append(to_exit(_pinchtab("--help"), env))
                    elif kind in ("bridge", "server"):
                        rows[kind].append(until_healthy(_pinchtab(kind), env, port))
                    elif kind == "mcp":
                        assert bridge is not None
                        rows[kind].append(mcp(bridge.url, env))
                    else:
                        assert bridge is not None
                        rows[kind].append(to_exit(_pinchtab("snap", "-i", "-c", "--server", bridge.url), env))
        finally:
            if bridge:
                bridge.close()
    return {k: {f: statistics.median(r[f] for r in v[1:]) for f in v[0]} for k, v in rows.items()}


def measure_at(wt: Path, kinds: list[str], runs: int) -> dict[str, dict[str, float]]:
    env = {**os.environ, "PYTHONPATH": f"{wt / 'src'}{os.pathsep}{wt}"}
    out = subprocess.run([sys.executable, str(wt / "bench" / "startup.py"), "--runs", str(runs),
                          "--only", ",".join(kinds), "--json"], check=True, capture_output=True, text=True,
                         env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--only", help="comma-separated kinds: " + ",".join(KINDS))
    ap.add_argument("--against", metavar="REV")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    kinds = [k for k in (args.only.split(",") if args.only else KINDS)]
    if unknown := set(kinds) - set(KINDS):
        ap.error(f"unknown kinds: {', '.join(sorted(unknown))}")
    if args.json or not args.against:
        res = measure(kinds, args.runs)
        if args.json:
            print(json.dumps(res))
            return
        print(f"median of {args.runs} runs, ms")
        print(f"{'':10}{'CPU':>8}{'wall':>8}")
        for kind, r in res.items():
            extra = f"   (initialize answered at {r['initialize'] * 1000:.0f})" if "initialize" in r else ""
            print(f"{kind:10}{r['cpu'] * 1000:8.0f}{r['wall'] * 1000:8.0f}{extra}")
        return
    before: list[dict[str, dict[str, float]]] = []
    after: list[dict[str, dict[str, float]]] = []
    with worktree_at(args.against, __file__) as wt:
        for _ in range(args.runs):
            before.append(measure_at(wt, kinds, 1))
            after.append(measure_at(ROOT, kinds, 1))
    print(f"ms, median of {args.runs} alternating runs; CPU of the process itself, wall until ready")
    rev = args.against[:12]
    print(f"{'':10}{'CPU ' + rev:>18}{'CPU now':>10}{'wall ' + rev:>19}{'wall now':>10}")
    for kind in kinds:
        def med(rows: list[dict[str, dict[str, float]]], field: str) -> float:
            return statistics.median(r[kind][field] for r in rows) * 1000

        print(f"{kind:10}{med(before, 'cpu'):18.0f}{med(after, 'cpu'):10.0f}"
              f"{med(before, 'wall'):19.0f}{med(after, 'wall'):10.0f}")


if __name__ == "__main__":
    main()
