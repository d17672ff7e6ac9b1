"""MCP cold start, as an MCP client starts us: nothing running (no server, no Chromium), spawn the
MCP server on stdio, then `initialize`, `tools/list` and a first navigate to a local page.

Prints the median time from spawn to each step for `pinchtab mcp` (which starts a pinchtab server,
its bridge and Chromium) and, in the same run, for Playwright MCP (`@playwright/mcp`, launching the
same system Chromium) when it is installed with npm in a temp dir (``--playwright DIR``, or it is
installed into ``/tmp/pinchtab-bench-playwright-mcp`` with ``--install``); otherwise it says so.

    .venv/bin/python bench/mcp_cold_start.py [--runs 5] [--install | --playwright DIR]

The client is a minimal JSON-RPC client written here (newline-delimited JSON on the child's
stdio), so the figures do not include an MCP SDK on the client side. Each run uses a fresh port;
pinchtab's state dir (and so its default profile) is shared by the runs of one invocation, and
one warm-up run of each tool is not counted. Targets (issue 13): initialize < 400 ms; first
navigate < 1.2 s and at most 0.6x Playwright MCP's.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.harness import free_port, serve  # noqa: E402

PW_DIR = Path(tempfile.gettempdir()) / "pinchtab-bench-playwright-mcp"
# Playwright MCP launches the browser pinchtab's default launches (PINCHTAB_CHROME, or the headless
# shell when installed, as Playwright itself picks for headless runs): the same Chromium both sides.
CHROMIUM = os.environ.get("PINCHTAB_CHROME") or next(
    (p for p in ("/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium", "/usr/bin/chromium")
     if os.path.exists(p)), None)
STEPS = ("initialize", "tools/list", "navigate")


class StdioClient:
    """Just enough of an MCP client: send a request, wait for the answer with its id."""

    def __init__(self, cmd: list[str], env: dict[str, str], cwd: str | None = None) -> None:
        self.t0 = time.perf_counter()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=env, cwd=cwd)
        self.answers: dict[int, tuple[float, dict[str, Any]]] = {}
        self.cond = threading.Condition()
        self.stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            at = time.perf_counter() - self.t0
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if "id" in msg and ("result" in msg or "error" in msg):
                with self.cond:
                    self.answers[msg["id"]] = (at, msg)
                    self.cond.notify_all()

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line.decode(errors="replace"))

    def send(self, method: str, params: dict[str, Any] | None = None, notify: bool = False) -> int:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        if not notify:
            self.next_id += 1
            msg["id"] = self.next_id
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()
        return self.next_id

    def wait(self, rid: int, timeout: float = 60) -> tuple[float, dict[str, Any]]:
        with self.cond:
            if not self.cond.wait_for(lambda: rid in self.answers, timeout):
                raise RuntimeError(f"no answer to request {rid} within {timeout} s; stderr: {''.join(self.stderr)[-2000:]}")
            at, msg = self.answers[rid]
        if "error" in msg:
            raise RuntimeError(f"request {rid} failed: {msg['error']}")
        return at, msg

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def session(client: StdioClient, nav_args: dict[str, Any]) -> dict[str, float]:
    """initialize, tools/list, navigate; seconds from spawn to each answer."""
    rid = client.send("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                     "clientInfo": {"name": "bench", "version": "1"}})
    at_init, _ = client.wait(rid)
    client.send("notifications/initialized", notify=True)
    at_list, listed = client.wait(client.send("tools/list", {}))
    assert any(t["name"].endswith("navigate") for t in listed["result"]["tools"])
    at_nav, nav = client.wait(client.send("tools/call", nav_args), timeout=120)
    result = nav["result"]
    if result.get("isError"):
        raise RuntimeError(f"navigate failed: {result['content']}")
    return {"initialize": at_init, "tools/list": at_list, "navigate": at_nav}


# -- pinchtab ---------------------------------------------------------------------------------------

def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _family(pid: int) -> set[int]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            tree.setdefault(ppid, []).append(int(entry.name))
    out, todo = set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def stop_server(pid: int) -> None:
    """SIGTERM the server this run started (by its pid); wait until it and its family are gone."""
    family = _family(pid) | {pid}
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(p) for p in family):
        time.sleep(0.05)
    for p in family:
        if _alive(p):
            os.kill(p, signal.SIGKILL)


def run_pinchtab(page: str, state_dir: str, src: Path | None = None) -> dict[str, float]:
    """One cold start of `pinchtab mcp` (of the code in ``src``, another checkout's src/, when given)."""
    port = free_port()
    env = {**os.environ, "PINCHTAB_PORT": str(port), "PINCHTAB_STATE_DIR": state_dir,
           "PINCHTAB_CONFIG": os.path.join(state_dir, "no-config.json")}
    env.pop("PINCHTAB_SERVER", None)
    if src is not None:
        env.update(PYTHONPATH=str(src), PYTHONDONTWRITEBYTECODE="1")
    client = StdioClient([sys.executable, "-m", "pinchtab", "mcp"], env)
    try:
        return session(client, {"name": "pinchtab_navigate", "arguments": {"url": page}})
    finally:
        client.close()
        said = "".join(client.stderr)
        found = re.search(r"pid (\d+)", said)
        if found is None:
            raise RuntimeError(f"pinchtab mcp did not say which server it started: {said[-2000:]}")
        stop_server(int(found[1]))


# -- Playwright MCP ---------------------------------------------------------------------------------

def playwright_cli(folder: Path) -> Path | None:
    cli = folder / "node_modules" / "@playwright" / "mcp" / "cli.js"
    return cli if cli.is_file() else None


def install_playwright(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}  # it drives the system Chromium
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(folder), "@playwright/mcp"],
                   check=True, env=env)


def playwright_version(cli: Path) -> str:
    return json.loads((cli.parent / "package.json").read_text())["version"]


def run_playwright(cli: Path, page: str) -> dict[str, float]:
    assert CHROMIUM is not None
    out = tempfile.mkdtemp(prefix="pw-mcp-out-")
    cmd = ["node", str(cli), "--headless", "--isolated", "--browser", "chromium", "--executable-path", CHROMIUM,
           "--output-dir", out]
    client = StdioClient(cmd, {**os.environ, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}, cwd=out)
    try:
        return session(client, {"name": "browser_navigate", "arguments": {"url": page}})
    finally:
        family = _family(client.proc.pid)
        client.close()
        for p in family:  # it closes its browser on stdin EOF; make sure
            if _alive(p):
                os.kill(p, signal.SIGKILL)
        shutil.rmtree(out, ignore_errors=True)


# -- main -------------------------------------------------------------------------------------------

def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs of each tool (after one warm-up run each)")
    ap.add_argument("--playwright", type=Path, default=PW_DIR, help="folder where @playwright/mcp is npm-installed")
    ap.add_argument("--install", action="store_true", help="npm install @playwright/mcp into --playwright first")
    ap.add_argument("--no-playwright", action="store_true", help="measure pinchtab only")
    ap.add_argument("--baseline", type=Path, help="also measure `pinchtab mcp` of the code in this src/ folder "
                    "(e.g. an export of main's src/), in the same run")
    args = ap.parse_args()

    cli = None
    if not args.no_playwright:
        if args.install and playwright_cli(args.playwright) is None:
            install_playwright(args.playwright)
        cli = playwright_cli(args.playwright)
    base, httpd = serve()
    page = f"{base}/login.html"
    state_dir = tempfile.mkdtemp(prefix="pinchtab-cold-")
    from pinchtab.cdp.launcher import browser_binary
    from pinchtab.config import load_config

    print(f"load average before: {load()}; {os.cpu_count()} cores; pinchtab's Chromium "
          f"{browser_binary(load_config(environ={}).browser)}, Playwright MCP's {CHROMIUM}")
    if cli is None:
        print(f"Playwright MCP: not installed in {args.playwright} (run with --install, or "
              f"`npm install --prefix {args.playwright} @playwright/mcp`); pinchtab only")
    else:
        print(f"Playwright MCP {playwright_version(cli)}: {cli}")

    results: dict[str, list[dict[str, float]]] = {"pinchtab": [], "playwright": []}
    if args.baseline:
        results["baseline"] = []
    try:
        for i in range(args.runs + 1):
            # Alternate the order; run 0 warms the disk cache and the profile and is not counted.
            order = [n for n in results if n != "playwright" or cli is not None]
            order = order if i % 2 else order[::-1]
            for name in order:
                if name == "playwright":
                    r = run_playwright(cli, page)  # type: ignore[arg-type]
                else:
                    r = run_pinchtab(page, state_dir, args.baseline if name == "baseline" else None)
                if i:
                    results[name].append(r)
                print(f"  run {i}{' (warm-up)' if not i else ''} {name:10} " +
                      "  ".join(f"{s} {r[s] * 1000:6.0f} ms" for s in STEPS), flush=True)
    finally:
        httpd.shutdown()
        shutil.rmtree(state_dir, ignore_errors=True)

    print(f"\nload average after: {load()}\n")
    print(f"spawn -> answered, median of {args.runs} runs (ms)")
    print(f"{'':12}" + "".join(f"{s:>14}" for s in STEPS))
    med = {name: {s: statistics.median(r[s] for r in runs) * 1000 for s in STEPS} for name, runs in results.items() if runs}
    for name, m in med.items():
        label = {"pinchtab": "pinchtab", "playwright": "Playwright", "baseline": "baseline"}[name]
        print(f"{label:12}" + "".join(f"{m[s]:14.0f}" for s in STEPS))
    for name in ("baseline", "playwright"):
        if name in med:
            p, w = med["pinchtab"], med[name]
            label = "/ baseline" if name == "baseline" else "/ Playwright"
            print(f"{label:12}" + "".join(f"{p[s] / w[s]:13.2f}x" for s in STEPS))
    print("\ntargets: initialize < 400 ms; navigate < 1200 ms and <= 0.6x Playwright MCP's")


if __name__ == "__main__":
    main()
