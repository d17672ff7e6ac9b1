"""A bridge served inside another process: the server's default instance (``server.defaultInProcess``).

A bridge of its own costs a Python process and a second load of pydantic, FastAPI and the
browser layer (~0.5 s of CPU on a small machine) before its Chromium is even launched; on the cold
path of ``pinchtab mcp`` that runs beside the MCP SDK's import on the same cores. In process, the
server launches Chromium as soon as it has its config and serves the bridge's app with a second
uvicorn server on the instance's port, so the proxy, health checks and routing see the same
bridge over loopback HTTP as before. What is given up is isolation: a bridge busy with a page
holds the server's event loop too, and a crash of one is a crash of both.

``InProcessBridge`` stands in for the bridge's ``asyncio.subprocess.Process`` in the server's
``InstanceManager``, which gets ``start`` from ``pinchtab.cli`` (the server's modules do not import
the bridge's): its ``pid`` is the host's (what its ``/health`` reports), ``returncode`` is set
once it stops, and ``stop()`` replaces the signals sent to a process group.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Generator
from typing import Any

from pinchtab.cdp import prelaunch
from pinchtab.cdp.launcher import browser_binary
from pinchtab.config import Config
from pinchtab.errors import BrowserError

log = logging.getLogger("pinchtab.server")


def _embedded_server(app: Any) -> Any:
    """uvicorn without signal handling: the server's own uvicorn owns SIGINT/SIGTERM and stops
    this one through the instance manager. (uvicorn loads here, after Chromium was launched.)"""
    import uvicorn

    class EmbeddedServer(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Generator[None, None, None]:
            yield

    return EmbeddedServer(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on"))


class InProcessBridge:
    def __init__(self, server: Any, sock: socket.socket, browser: Any) -> None:
        self.pid = os.getpid()
        self.returncode: int | None = None
        self.error: str | None = None
        self._server = server
        self._sock = sock
        self._browser = browser
        self._task = asyncio.create_task(self._run(), name="pinchtab-in-process-bridge")

    async def _run(self) -> None:
        try:
            # Chromium first, outside uvicorn's lifespan, so that a failure reads as itself.
            await self._browser.start()
            assert self._server is not None  # only an unlaunchable browser has none, and its start raised
            await self._server.serve(sockets=[self._sock])
            self.returncode = 0 if self._server.should_exit else 1
        except (Exception, SystemExit) as exc:  # uvicorn exits (SystemExit) when its start-up fails
            self.error = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            log.error("in-process bridge stopped: %s", self.error)
            self.returncode = 1
            with contextlib.suppress(Exception):
                await self._browser.stop()
        finally:
            self._sock.close()

    async def wait(self) -> int:
        await asyncio.shield(self._task)
        assert self.returncode is not None
        return self.returncode

    async def stop(self, timeout: float) -> None:
        """Stop serving, then close Chromium (the app's lifespan); cancel when it hangs."""
        if self._task.done():
            return
        if self._server is not None:
            self._server.should_exit = True
        try:
            await asyncio.wait_for(asyncio.shield(self._task), timeout)
        except asyncio.TimeoutError:
            log.warning("in-process bridge did not stop within %.0f s; cancelling it", timeout)
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            with contextlib.suppress(Exception):
                await self._browser.stop()
            self.returncode = -1


class _Unlaunchable:
    """The browser of a bridge whose Chromium binary is missing: its start fails with the error
    ``Browser.start`` would raise, without the bridge's modules loaded or its app built first."""

    def __init__(self, error: BrowserError) -> None:
        self.error = error

    async def start(self) -> None:
        raise self.error

    async def stop(self) -> None:
        return None


def _bind(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        raise OSError(exc.errno, f"port {port}: {exc.strerror}") from exc
    # Not listening until uvicorn serves it: until then a health check is refused at once.
    sock.setblocking(False)
    return sock


def start(data: dict[str, Any]) -> InProcessBridge:  # OSError (errno EADDRINUSE) when the port is taken
    """Serve a bridge for ``data`` (the config a bridge process would read from its file) in
    this process; its Chromium is launched before the bridge's modules load."""
    config = Config.model_validate(data)
    sock = _bind(config.server.port)
    if not config.browser.cdp_url:
        try:
            browser_binary(config.browser)
        except BrowserError as exc:
            return InProcessBridge(None, sock, _Unlaunchable(exc))
    prelaunch.start_for(config.browser)
    from pinchtab.bridge.app import create_app
    from pinchtab.browser.core.browser import Browser

    browser = Browser(config)
    app = create_app(config, browser)
    return InProcessBridge(_embedded_server(app), sock, browser)
