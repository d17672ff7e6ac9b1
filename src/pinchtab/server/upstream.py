"""A minimal HTTP/1.1 client for the hot path: server -> bridge on loopback.

httpx costs about 1.5 ms per request here; this costs a tenth of that. It speaks only what the
bridges (uvicorn) speak: a request with a Content-Length body, a response with Content-Length,
chunked encoding or read-to-close, kept-alive connections reused per bridge port.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

CONNECT_TIMEOUT = 5.0
# uvicorn closes idle connections after 5 s; never reuse one that has been idle for this long.
IDLE_LIMIT = 4.0
MAX_IDLE_PER_PORT = 32
READ_CHUNK = 1 << 16
MAX_HEAD = 64 * 1024


class UpstreamError(Exception):
    """The bridge could not be reached or answered garbage."""


class _Conn:
    __slots__ = ("reader", "writer", "idle_since")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.idle_since = 0.0

    def usable(self) -> bool:
        return (not self.reader.at_eof() and not self.writer.is_closing()
                and time.monotonic() - self.idle_since < IDLE_LIMIT)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()


@dataclass
class UpstreamResponse:
    status: int
    headers: list[tuple[bytes, bytes]]  # lower-case names, as received
    length: int | None  # Content-Length, None for chunked or read-to-close
    _conn: _Conn | None = field(repr=False, default=None)
    _pool: "Upstream | None" = field(repr=False, default=None)
    _port: int = 0
    _chunked: bool = False
    _keep_alive: bool = True
    _done: bool = False

    async def read(self) -> bytes:
        return b"".join([chunk async for chunk in self.iter_bytes()])

    async def iter_bytes(self) -> AsyncIterator[bytes]:
        conn = self._conn
        if conn is None:
            if self._done:
                return
            raise UpstreamError("the response body was already consumed")
        reader = conn.reader
        try:
            if self._chunked:
                while True:
                    size_line = await reader.readuntil(b"\r\n")
                    size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
                    if size == 0:
                        while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                            pass
                        break
                    yield await reader.readexactly(size)
                    await reader.readexactly(2)
            elif self.length is not None:
                remaining = self.length
                while remaining > 0:
                    chunk = await reader.read(min(remaining, READ_CHUNK))
                    if not chunk:
                        raise UpstreamError("the bridge closed the connection mid-body")
                    remaining -= len(chunk)
                    yield chunk
            else:
                self._keep_alive = False
                while chunk := await reader.read(READ_CHUNK):
                    yield chunk
            self._done = True
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, ValueError) as exc:
            raise UpstreamError(f"bad response body from the bridge: {exc}") from exc
        finally:
            self.release()

    def release(self) -> None:
        """Back to the pool when the body was read in full; closed otherwise."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        if self._done and self._keep_alive and self._pool is not None:
            self._pool._put(self._port, conn)
        else:
            conn.close()


class Upstream:
    """Kept-alive connections to 127.0.0.1:<port>, one request at a time per connection."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self._idle: dict[int, list[_Conn]] = {}

    def _put(self, port: int, conn: _Conn) -> None:
        idle = self._idle.setdefault(port, [])
        if len(idle) >= MAX_IDLE_PER_PORT:
            conn.close()
            return
        conn.idle_since = time.monotonic()
        idle.append(conn)

    def _take(self, port: int) -> _Conn | None:
        idle = self._idle.get(port)
        while idle:
            conn = idle.pop()
            if conn.usable():
                return conn
            conn.close()
        return None

    async def _open(self, port: int) -> _Conn:
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(self.host, port, limit=MAX_HEAD), CONNECT_TIMEOUT)
        except (OSError, asyncio.TimeoutError) as exc:
            raise UpstreamError(f"cannot connect to 127.0.0.1:{port}: {exc or type(exc).__name__}") from exc
        return _Conn(reader, writer)

    async def request(
        self, port: int, method: str, target: bytes, headers: list[tuple[bytes, bytes]], body: bytes = b""
    ) -> UpstreamResponse:
        """Send a request; the answer's status and headers are read, the body is for the caller
        to read (``read`` or ``iter_bytes``) or drop (``release``)."""
        head = [f"{method} ".encode(), target, b" HTTP/1.1\r\nhost: 127.0.0.1\r\n"]
        for name, value in headers:
            head += [name, b": ", value, b"\r\n"]
        if body or method in ("POST", "PUT", "PATCH"):
            head.append(b"content-length: %d\r\n" % len(body))
        head.append(b"\r\n")
        payload = b"".join(head) + body
        conn = self._take(port)
        reused = conn is not None
        while True:
            if conn is None:
                conn = await self._open(port)
            try:
                conn.writer.write(payload)
                raw = await conn.reader.readuntil(b"\r\n\r\n")
                break
            except (asyncio.IncompleteReadError, ConnectionError) as exc:
                conn.close()
                if reused and not (isinstance(exc, asyncio.IncompleteReadError) and exc.partial):
                    # The bridge closed this idle connection before reading the request: retry once.
                    conn, reused = None, False
                    continue
                raise UpstreamError(f"the bridge on port {port} closed the connection: {exc}") from exc
            except asyncio.LimitOverrunError as exc:
                conn.close()
                raise UpstreamError("response headers from the bridge are too large") from exc
            except BaseException:
                conn.close()
                raise
        try:
            return self._parse_head(raw, conn, port, method)
        except (ValueError, IndexError) as exc:
            conn.close()
            raise UpstreamError(f"bad response from the bridge: {exc}") from exc

    def _parse_head(self, raw: bytes, conn: _Conn, port: int, method: str) -> UpstreamResponse:
        lines = raw[:-4].split(b"\r\n")
        version, status_text = lines[0].split(b" ", 2)[:2]
        status = int(status_text)
        headers: list[tuple[bytes, bytes]] = []
        length: int | None = None
        chunked = False
        keep_alive = version == b"HTTP/1.1"
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            value = value.strip()
            headers.append((name, value))
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
            elif name == b"connection":
                keep_alive = b"close" not in value.lower() and (keep_alive or b"keep-alive" in value.lower())
        if chunked:
            length = None
        elif method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            length = 0
        res = UpstreamResponse(status, headers, length, conn, self, port, chunked, keep_alive)
        if length == 0:
            res._done = True
            res.release()
        return res

    async def close(self) -> None:
        for idle in self._idle.values():
            for conn in idle:
                conn.close()
        self._idle.clear()
