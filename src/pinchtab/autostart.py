"""Start a local pinchtab server when none answers, so ``pinchtab mcp`` (and later the CLI) work
with no setup: an MCP client config needs only ``{"command": "pinchtab", "args": ["mcp"]}``.

The server is started detached (its own session, output to a log file, no stdin), so it outlives
the process that started it and is shared by the next ones, like a daemon. It runs
``python -m pinchtab server`` when that command exists, else ``python -m pinchtab bridge``.
Only loopback URLs are ever started: a remote server is someone else's to run.
"""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from pinchtab import logfile
from pinchtab.config import DEFAULT_PORT, LOOPBACK_HOSTS, load_config
from pinchtab.errors import NotReady

DEFAULT_TIMEOUT = 30.0
POLL = 0.02  # a refused connection costs well under a millisecond

# Processes this process started, by base URL (tests and callers stop them by PID).
started: dict[str, subprocess.Popen[bytes]] = {}


def is_loopback(base_url: str) -> bool:
    host = urlsplit(base_url).hostname or ""
    return host in LOOPBACK_HOSTS or host.startswith("127.")


def _health_status(base_url: str, timeout: float) -> int | None:
    """The status of GET /health there, None when nothing answers. Plain http goes through
    http.client: an httpx client costs ~25-50 ms to make (its TLS context), more than the request
    when polling a server that is starting."""
    parts = urlsplit(base_url)
    if parts.scheme != "http":
        import httpx

        try:
            return httpx.get(f"{base_url.rstrip('/')}/health", timeout=timeout).status_code
        except httpx.TransportError:
            return None
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=timeout)
    try:
        conn.request("GET", f"{parts.path.rstrip('/')}/health")
        return conn.getresponse().status
    except (OSError, http.client.HTTPException):
        return None
    finally:
        conn.close()


def answers(base_url: str, timeout: float = 1.0) -> bool:
    """Does an HTTP server answer GET /health there (whatever the status)?"""
    return _health_status(base_url, timeout) is not None


def _healthy(base_url: str) -> bool:
    return _health_status(base_url, 2.0) == 200


def adopt(base_url: str, proc: subprocess.Popen[bytes], timeout: float = DEFAULT_TIMEOUT) -> bool:
    """Wait for a server started as ``pinchtab server --autostarted`` (by ``pinchtab.mcp.early``)
    to answer at ``base_url``. True when it did (it is then in ``started``); False when it exited
    quietly (it found another server running) or did not answer in time (``ensure_server`` then
    decides). Raise ``NotReady`` with the reason when it failed (a server started by
    ``--autostarted`` exits when it cannot start a browser)."""
    base_url = base_url.rstrip("/")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if _healthy(base_url):
            started[base_url] = proc
            return True
        time.sleep(POLL)
    if proc.returncode:
        raise NotReady(f"the pinchtab server exited with code {proc.returncode}: "
                       f"{_tail(log_path(urlsplit(base_url).port or DEFAULT_PORT))}", "server_start_failed")
    return False


def server_command(port: int) -> list[str]:
    """The command that starts a local ``pinchtab server`` on ``port``: ``--autostarted`` makes it
    exit with the reason when it cannot start a browser, rather than serve without one."""
    return [sys.executable, "-m", "pinchtab", "server", "--autostarted", "--port", str(port)]


def log_path(port: int) -> Path:
    """``<state dir>/logs/server-<port>.log`` (~/.pinchtab), or the temp dir if that is not writable."""
    try:
        folder = Path(load_config().server.state_dir) / "logs"
        folder.mkdir(parents=True, exist_ok=True)
        if os.access(folder, os.W_OK):
            return folder / f"server-{port}.log"
    except Exception:  # a broken config must not stop the fallback
        pass
    return Path(tempfile.gettempdir()) / f"pinchtab-server-{port}.log"


def ensure_server(base_url: str, token: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> bool:
    """Make sure a pinchtab server answers at ``base_url``. True if this call had to start one.

    Nothing happens (False) when something already answers there, or when ``base_url`` is not a
    loopback address. Otherwise start one on that port and wait until GET /health answers 200;
    raise ``NotReady`` (with the log's tail) if it dies or is not up within ``timeout`` seconds.
    ``token`` is handed to the new server (through ``PINCHTAB_TOKEN``, so it is not shown in ps).
    """
    base_url = base_url.rstrip("/")
    if not is_loopback(base_url) or answers(base_url):
        return False
    parts = urlsplit(base_url)
    port = parts.port or DEFAULT_PORT
    cmd = server_command(port)
    env = dict(os.environ)
    if token:
        env["PINCHTAB_TOKEN"] = token
    log = log_path(port)
    config = load_config()
    logfile.rotate(log, config.server.log_max_bytes, config.server.log_backups)
    with open(log, "ab") as out:
        out.write(f"\n--- {time.strftime('%Y-%m-%d %H:%M:%S')} {' '.join(cmd)}\n".encode())
        out.flush()
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env,
            start_new_session=True, close_fds=True,
        )
    started[base_url] = proc
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _healthy(base_url):
            return True
        if proc.poll() is not None:
            raise NotReady(f"the pinchtab server exited with code {proc.returncode}: {_tail(log)}", "server_start_failed")
        time.sleep(POLL)
    raise NotReady(f"the pinchtab server started on port {port} did not answer within {timeout:.0f} s "
                   f"(pid {proc.pid}, log {log}): {_tail(log)}", "server_start_timeout")


def _tail(log: Path, lines: int = 8) -> str:
    try:
        text = log.read_text(errors="replace").strip().splitlines()
    except OSError:
        return f"see {log}"
    return f"see {log}: " + " | ".join(text[-lines:])
