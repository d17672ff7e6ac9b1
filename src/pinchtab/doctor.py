"""``pinchtab doctor``: can this machine run pinchtab? Each check says what it found and, when it
fails, the one thing to do about it.

Python, the installed package (where, and that its resources are there), the browser (found, its
version, a headless start and close over the CDP pipe), the config file, the state dir, the port.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pinchtab
from pinchtab.errors import PinchtabError

MIN_PYTHON = (3, 11)
START_TIMEOUT = 30.0


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str | None = None


def check_python() -> Check:
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info[:2] >= MIN_PYTHON:
        return Check("python", True, f"{version} ({sys.executable})")
    return Check("python", False, f"{version} is older than {'.'.join(map(str, MIN_PYTHON))}",
                 f"install Python {'.'.join(map(str, MIN_PYTHON))} or newer and pinchtab with it")


def check_package() -> Check:
    from importlib import metadata, resources

    where = Path(pinchtab.__file__).parent
    try:
        direct = json.loads(metadata.distribution("pinchtab").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        direct = {}
    how = "editable install" if direct.get("dir_info", {}).get("editable") else "installed"
    detail = f"pinchtab {pinchtab.__version__} at {where} ({how})"
    try:
        resources.files("pinchtab.browser.page").joinpath("snapshot.js").read_text()  # the snapshot walker
    except OSError as exc:
        return Check("package", False, f"{detail}: a file of the package is missing ({exc})",
                     "reinstall it: python -m pip install --force-reinstall pinchtab (or the wheel you installed)")
    return Check("package", True, detail)


def check_config(load: Callable[[], Any]) -> tuple[Check, Any]:
    from pinchtab.config import config_path

    path = config_path()
    shown = f"{path}" if path.is_file() else f"{path} (none: defaults and environment)"
    try:
        config = load()
    except PinchtabError as exc:
        return Check("config", False, f"{shown}: {exc.message}", f"correct or remove {path}"), None
    return Check("config", True, shown), config


def check_state_dir(state_dir: str) -> Check:
    path = Path(state_dir).expanduser()
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".doctor-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        return Check("state dir", False, f"{path}: not writable ({exc.strerror or exc})",
                     "set PINCHTAB_STATE_DIR (config server.stateDir) to a directory you can write")
    return Check("state dir", True, f"{path} (writable)")


def find_browser(browser: Any) -> tuple[Check, str | None]:
    """The binary the ``BrowserConfig`` ``browser`` launches (pinchtab.cdp.launcher.browser_binary)."""
    from pinchtab.cdp.chrome_paths import install_hint
    from pinchtab.cdp.launcher import browser_binary

    try:
        path = browser_binary(browser)
    except PinchtabError as exc:
        if browser.binary or os.environ.get("PINCHTAB_CHROME"):
            fix = ("point PINCHTAB_CHROME (config browser.binary) at an executable Chrome or Chromium, "
                   "or unset it to search the usual places")
        else:
            fix = install_hint()
        return Check("chromium", False, exc.message.split(";")[0], fix), None
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=20)
        version = (out.stdout or out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr).strip() else "version unknown"
    except (OSError, subprocess.TimeoutExpired) as exc:
        version = f"version unknown ({exc})"
    return Check("chromium", True, f"{path} ({version})"), path


async def _start_and_close(binary: str, extra_args: list[str]) -> str:
    from pinchtab.cdp import ChromeProcess, Connection, PipeTransport

    proc = await ChromeProcess.launch(binary, headless=True, extra_args=extra_args)
    try:
        transport = PipeTransport(proc.write_fd, proc.read_fd)
        await transport.start()
        conn = Connection(transport)
        conn.start()
        try:
            version = await conn.send("Browser.getVersion", timeout=START_TIMEOUT)
            await conn.send("Browser.close", timeout=5)
        except PinchtabError as exc:
            raise PinchtabError(f"{exc.message} {proc.stderr_tail()}".strip(), "chrome_start_failed") from exc
        finally:
            await conn.close()
        return str(version.get("product", "?"))
    finally:
        await proc.stop()


def check_headless(binary: str, extra_args: list[str]) -> Check:
    import time

    began = time.monotonic()
    try:
        product = asyncio.run(_start_and_close(binary, extra_args))
    except (PinchtabError, OSError) as exc:
        message = getattr(exc, "message", None) or str(exc)
        return Check("headless start", False, message,
                     "run the binary by hand to see why (`<binary> --headless --dump-dom about:blank`); in a "
                     "container give it /dev/shm or more memory; set PINCHTAB_CHROME to another Chrome")
    return Check("headless start", True, f"{product} launched and closed in {time.monotonic() - began:.1f} s")


def check_port(port: int) -> Check:
    # Connecting, not binding: a bind would take the port from a server starting right now.
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1.0).close()
    except OSError:
        return Check("port", True, f"{port} is free")
    url = f"http://127.0.0.1:{port}"
    answer = _pinchtab_health(url)
    if answer is not None:
        return Check("port", True, f"{port} is held by a pinchtab {answer} (`pinchtab status`; `pinchtab stop` stops it)")
    return Check("port", False, f"{port} is taken by something that is not pinchtab",
                 f"stop what listens on {port}, or set PINCHTAB_PORT (config server.port) to a free port")


def _pinchtab_health(url: str) -> str | None:
    """"server"/"bridge" when a pinchtab answers /health at ``url``, else None."""
    import httpx

    try:
        body = httpx.get(f"{url}/health", timeout=3, trust_env=False).json()
    except (httpx.HTTPError, ValueError):
        return None
    if isinstance(body, dict) and "status" in body and ("tabs" in body or body.get("mode") == "server"):
        return str(body.get("mode") or "bridge")
    return None


def run_checks(load: Callable[[], Any], *, headless: bool = True) -> list[Check]:
    checks = [check_python(), check_package()]
    config_check, config = check_config(load)
    checks.append(config_check)
    from pinchtab.config import BrowserConfig

    found, path = find_browser(config.browser if config is not None else BrowserConfig())
    checks.append(found)
    if headless and path is not None:
        checks.append(check_headless(path, list(config.browser.extra_args) if config is not None else []))
    if config is not None:
        checks.append(check_state_dir(config.server.state_dir))
        checks.append(check_port(config.server.port))
    return checks


def report(checks: list[Check]) -> str:
    width = max(len(c.name) for c in checks)
    lines = []
    for c in checks:
        lines.append(f"{'ok' if c.ok else 'FAIL':<4}  {c.name:<{width}}  {c.detail}")
        if not c.ok and c.fix:
            lines.append(f"      {'':<{width}}  fix: {c.fix}")
    failed = [c.name for c in checks if not c.ok]
    lines.append("all checks passed" if not failed else f"{len(failed)} check(s) failed: {', '.join(failed)}")
    return "\n".join(lines)


def as_json(checks: list[Check]) -> dict[str, Any]:
    return {"ok": all(c.ok for c in checks), "checks": [asdict(c) for c in checks]}
