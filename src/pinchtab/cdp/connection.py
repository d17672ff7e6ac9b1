"""An asyncio Chrome DevTools Protocol connection over a pipe or a websocket.

One :class:`Connection` carries the browser session and every flattened target session
(``Target.attachToTarget`` with ``flatten=True``): commands and events carry a ``sessionId``.
Every command has a timeout, and when the transport ends every pending command fails at once
with :class:`BrowserGone` instead of hanging.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

from pinchtab.errors import BrowserError, Timeout

log = logging.getLogger("pinchtab.cdp")

EventHandler = Callable[[dict[str, Any]], None]

DEFAULT_TIMEOUT = 30.0


class CDPError(BrowserError):
    """Chromium answered a command with an error."""

    default_code = "cdp_error"

    def __init__(self, method: str, error: dict[str, Any]) -> None:
        self.method = method
        self.cdp_code = error.get("code")
        self.cdp_message = str(error.get("message", "unknown CDP error"))
        detail = error.get("data")
        text = f"{method}: {self.cdp_message}" + (f" ({detail})" if detail else "")
        super().__init__(text)


class BrowserGone(BrowserError):
    """The connection to Chromium ended (crash, kill, or close)."""

    default_code = "browser_gone"

    def __init__(self, detail: str = "") -> None:
        msg = "Chromium is not running (the browser connection closed)"
        if detail:
            msg += f": {detail}"
        msg += "; restart it with POST /browser/restart"
        super().__init__(msg)


class Transport(Protocol):
    """A message transport: whole JSON messages in, whole messages out."""

    def send(self, data: bytes) -> None: ...

    async def recv(self) -> bytes | None:
        """Next message, or None once the peer is gone."""
        ...

    async def close(self) -> None: ...


class PipeTransport:
    """``--remote-debugging-pipe``: NUL-terminated JSON, we write to Chrome's fd 3, read its fd 4."""

    def __init__(self, write_fd: int, read_fd: int) -> None:
        self._write_fd = write_fd
        self._read_fd = read_fd
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._writer: asyncio.WriteTransport | None = None
        self._reader: asyncio.ReadTransport | None = None
        self._closed = False

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        queue = self._queue
        buffer = bytearray()

        class _Reader(asyncio.Protocol):
            def data_received(self, data: bytes) -> None:
                buffer.extend(data)
                while True:
                    end = buffer.find(b"\0")
                    if end < 0:
                        return
                    queue.put_nowait(bytes(buffer[:end]))
                    del buffer[: end + 1]

            def eof_received(self) -> bool:
                queue.put_nowait(None)
                return False

            def connection_lost(self, exc: Exception | None) -> None:
                queue.put_nowait(None)

        class _Writer(asyncio.BaseProtocol):
            def connection_lost(self, exc: Exception | None) -> None:
                queue.put_nowait(None)

        rfile = open(self._read_fd, "rb", buffering=0, closefd=True)
        wfile = open(self._write_fd, "wb", buffering=0, closefd=True)
        self._reader, _ = await loop.connect_read_pipe(_Reader, rfile)
        self._writer, _ = await loop.connect_write_pipe(_Writer, wfile)

    def send(self, data: bytes) -> None:
        if self._closed or self._writer is None or self._writer.is_closing():
            raise BrowserGone("the pipe to Chromium is closed")
        self._writer.write(data + b"\0")

    async def recv(self) -> bytes | None:
        return await self._queue.get()

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for t in (self._writer, self._reader):
            if t is not None:
                t.close()
        self._queue.put_nowait(None)


class WebSocketTransport:
    """A CDP websocket (``ws://host:port/devtools/browser/<id>``), to attach to a running Chrome."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._ws: Any = None
        self._closed = False

    async def start(self) -> None:
        from websockets.asyncio.client import connect

        try:
            self._ws = await connect(self.url, max_size=None, ping_interval=None, compression=None)
        except (OSError, Exception) as exc:  # websockets raises several unrelated types
            raise BrowserError(f"cannot connect to Chrome at {self.url}: {exc}", "browser_connect_failed") from exc

    def send(self, data: bytes) -> None:
        if self._closed or self._ws is None:
            raise BrowserGone("the websocket to Chrome is closed")
        # websockets sends from a coroutine; schedule it and keep order (the protocol queues frames).
        asyncio.ensure_future(self._send(data.decode()))

    async def _send(self, text: str) -> None:
        try:
            await self._ws.send(text)
        except Exception:  # the reader notices the close and fails pending commands
            pass

    async def recv(self) -> bytes | None:
        try:
            msg = await self._ws.recv()
        except Exception:
            return None
        return msg.encode() if isinstance(msg, str) else msg

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._ws is not None:
            await self._ws.close()


class Connection:
    """Commands with ids and timeouts, events dispatched by (sessionId, method)."""

    def __init__(self, transport: Transport, *, default_timeout: float = DEFAULT_TIMEOUT) -> None:
        self.transport = transport
        self.default_timeout = default_timeout
        self._ids = itertools.count(1)
        # id -> (answer, method, session id)
        self._pending: dict[int, tuple[asyncio.Future[dict[str, Any]], str, str]] = {}
        self._handlers: dict[tuple[str, str], list[EventHandler]] = {}
        self._reader_task: asyncio.Task[None] | None = None
        self._close_reason = ""
        self.closed = asyncio.Event()
        self._on_close: list[Callable[[], None]] = []

    def start(self) -> None:
        self._reader_task = asyncio.get_running_loop().create_task(self._read_loop(), name="cdp-reader")

    @property
    def is_closed(self) -> bool:
        return self.closed.is_set()

    def on_close(self, callback: Callable[[], None]) -> None:
        self._on_close.append(callback)

    async def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session_id: str | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        if self.is_closed:
            raise BrowserGone(self._close_reason)
        msg_id = next(self._ids)
        message: dict[str, Any] = {"id": msg_id, "method": method}
        if params:
            message["params"] = params
        if session_id:
            message["sessionId"] = session_id
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = (future, method, session_id or "")
        try:
            try:
                self.transport.send(json.dumps(message, separators=(",", ":")).encode())
            except BrowserGone as exc:
                # The write side can notice a dead Chromium before the reader does; close now so
                # that on_close listeners (which record the death) run before anyone hears of it.
                self._mark_closed(exc.message)
                raise
            limit = self.default_timeout if timeout is None else timeout
            try:
                return await asyncio.wait_for(future, limit)
            except asyncio.TimeoutError:
                raise Timeout(f"Chromium did not answer {method} within {limit:g} s", "cdp_timeout") from None
        finally:
            self._pending.pop(msg_id, None)

    def on(self, method: str, handler: EventHandler, session_id: str = "") -> Callable[[], None]:
        """Call ``handler(params)`` for each ``method`` event of that session ("" = browser)."""
        key = (session_id, method)
        self._handlers.setdefault(key, []).append(handler)

        def off() -> None:
            handlers = self._handlers.get(key)
            if handlers and handler in handlers:
                handlers.remove(handler)
                if not handlers:
                    del self._handlers[key]

        return off

    def drop_session(self, session_id: str) -> None:
        """Forget a session whose target went away: its event handlers, and its commands still
        waiting fail as Chromium fails a command sent to a gone session (it never answers one its
        target took with it, so they would wait out their timeout, and the request behind them)."""
        for key in [k for k in self._handlers if k[0] == session_id]:
            del self._handlers[key]
        for future, method, sid in list(self._pending.values()):
            if sid == session_id and not future.done():
                future.set_exception(CDPError(method, {"message": "its target went away before it answered"}))

    async def _read_loop(self) -> None:
        loads = json.loads
        try:
            while True:
                raw = await self.transport.recv()
                if raw is None:
                    break
                try:
                    msg = loads(raw)
                except ValueError:
                    log.warning("undecodable CDP message dropped")
                    continue
                msg_id = msg.get("id")
                if msg_id is not None:
                    entry = self._pending.get(msg_id)
                    if entry is None:
                        continue
                    future, method, _ = entry
                    if future.done():
                        continue
                    if "error" in msg:
                        future.set_exception(CDPError(method, msg["error"]))
                    else:
                        future.set_result(msg.get("result", {}))
                    continue
                method = msg.get("method")
                if not method:
                    continue
                session_id = msg.get("sessionId", "")
                params = msg.get("params", {})
                for handler in tuple(self._handlers.get((session_id, method), ())):
                    self._call(handler, params)
        finally:
            self._mark_closed("Chromium closed the connection")

    @staticmethod
    def _call(handler: EventHandler, arg: dict[str, Any]) -> None:
        try:
            handler(arg)
        except Exception:  # one bad handler must not stop the reader
            log.exception("CDP event handler failed")

    def _mark_closed(self, reason: str) -> None:
        if self.is_closed:
            return
        self._close_reason = reason
        self.closed.set()
        for future, _, _ in list(self._pending.values()):
            if not future.done():
                future.set_exception(BrowserGone(reason))
        self._pending.clear()
        for callback in self._on_close:
            try:
                callback()
            except Exception:
                log.exception("on_close callback failed")

    async def close(self) -> None:
        await self.transport.close()
        self._mark_closed("connection closed by pinchtab")
        if self._reader_task is not None and not self._reader_task.done():
            self._reader_task.cancel()
            try:
                await self._reader_task
            except (asyncio.CancelledError, Exception):
                pass


class Session:
    """A flattened target session (or the browser session when ``session_id`` is "")."""

    def __init__(self, connection: Connection, session_id: str = "") -> None:
        self.connection = connection
        self.session_id = session_id

    async def send(self, method: str, params: dict[str, Any] | None = None, *, timeout: float | None = None) -> dict[str, Any]:
        return await self.connection.send(method, params, session_id=self.session_id or None, timeout=timeout)

    def on(self, method: str, handler: EventHandler) -> Callable[[], None]:
        return self.connection.on(method, handler, self.session_id)

    async def wait_for(
        self,
        method: str,
        predicate: Callable[[dict[str, Any]], bool] | None = None,
        *,
        timeout: float,
    ) -> dict[str, Any]:
        """Wait for the next ``method`` event (matching ``predicate``)."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        def handler(params: dict[str, Any]) -> None:
            if not future.done() and (predicate is None or predicate(params)):
                future.set_result(params)

        off = self.on(method, handler)
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            off()
