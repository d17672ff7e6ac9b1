"""The server's HTTP client to its bridges, local or remote: one aiohttp session for the proxy's
forwarded requests and the server's own calls (readiness, health checks, tab lists, reopening
tabs, attaching).

One connection pool for every bridge origin (``http://127.0.0.1:9868``,
``https://bridge-2.internal:9867``): kept-alive HTTP/1.1 connections per origin, TLS for
``https://`` bridges (the system CAs, or only the CA bundle of ``security.attach.caFile``), a
connect timeout, and no read timeout of its own on the proxy path (bridges bound navigation and
waits themselves; callers that poll pass ``timeout``).

aiohttp was chosen by ``bench/upstream_clients.py`` (loopback, median per small request): the
hand-written HTTP/1.1 client it replaces 0.39 ms, aiohttp 0.54 ms, httpcore's pool 1.29 ms.
aiohttp parses HTTP in C and does the framing, stale-connection and TLS work the hand-written
client did not.
"""

from __future__ import annotations

import asyncio
import json
import ssl
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from yarl import URL

from pinchtab.server.bridge_client import UpstreamError, ssl_context

CONNECT_TIMEOUT = 5.0
# uvicorn closes idle connections after 5 s; never reuse one that has been idle for this long.
KEEPALIVE_EXPIRY = 4.0
MAX_CONNECTIONS = 512
READ_CHUNK = 1 << 16

_ERRORS = (aiohttp.ClientError, asyncio.TimeoutError, ssl.SSLError, OSError, ValueError)
# Headers aiohttp would add on its own; the proxy forwards the client's, nothing more.
_SKIP_AUTO = ("User-Agent", "Accept", "Accept-Encoding", "Content-Type")


def _describe(exc: BaseException, origin: str) -> str:
    if isinstance(exc, aiohttp.ClientConnectorError | ssl.SSLError | ConnectionRefusedError):
        return f"cannot connect to {origin}: {exc or type(exc).__name__}"
    if isinstance(exc, asyncio.TimeoutError):
        return f"{origin} timed out"
    return f"{origin} broke the exchange: {exc or type(exc).__name__}"


@dataclass
class UpstreamResponse:
    status: int
    headers: list[tuple[bytes, bytes]]  # lower-case names
    length: int | None  # Content-Length, None for chunked or read-to-close
    _response: aiohttp.ClientResponse | None = field(repr=False, default=None)
    _origin: str = ""

    async def read(self) -> bytes:
        response = self._response
        if response is None:
            return b""
        try:
            return await response.read()
        except _ERRORS as exc:
            raise UpstreamError(f"bad response body: {_describe(exc, self._origin)}") from exc
        finally:
            await self.aclose()

    async def iter_bytes(self) -> AsyncIterator[bytes]:
        response = self._response
        if response is None:
            return
        try:
            async for chunk in response.content.iter_chunked(READ_CHUNK):
                yield chunk
        except _ERRORS as exc:
            raise UpstreamError(f"bad response body: {_describe(exc, self._origin)}") from exc
        finally:
            await self.aclose()

    async def aclose(self) -> None:
        """Back to the pool when the body was read in full; the connection is closed otherwise."""
        response, self._response = self._response, None
        if response is None:
            return
        if response.content.at_eof():
            response.release()
        else:
            response.close()


class Upstream:
    """Kept-alive connections to every bridge origin, one request at a time per connection."""

    def __init__(self, ca_file: str | None = None) -> None:
        self._ssl = ssl_context(ca_file)
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        # Made on first use: aiohttp wants its session created inside the running loop.
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=MAX_CONNECTIONS, keepalive_timeout=KEEPALIVE_EXPIRY,
                                             ssl=self._ssl, ttl_dns_cache=10)
            self._session = aiohttp.ClientSession(
                connector=connector, auto_decompress=False, skip_auto_headers=_SKIP_AUTO,
                timeout=aiohttp.ClientTimeout(total=None, connect=CONNECT_TIMEOUT), trust_env=False,
            )
        return self._session

    async def request(
        self, origin: str, method: str, target: bytes, headers: list[tuple[bytes, bytes]], body: bytes = b"",
        *, timeout: float | None = None,
    ) -> UpstreamResponse:
        """Send a request to ``origin`` (``http[s]://host:port``); the answer's status and headers
        are read, the body is for the caller to read (``read``, ``iter_bytes``) or drop
        (``aclose``). ``timeout`` bounds each read of the answer (None: no bound)."""
        url = URL(origin + target.decode("latin-1"), encoded=True)
        head = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers]
        kwargs: dict[str, object] = {}
        if timeout is not None:
            kwargs["timeout"] = aiohttp.ClientTimeout(total=None, connect=CONNECT_TIMEOUT, sock_read=timeout)
        if body or method in ("POST", "PUT", "PATCH"):
            kwargs["data"] = body
        try:
            response = await self._client().request(method, url, headers=head, allow_redirects=False, **kwargs)
        except _ERRORS as exc:
            raise UpstreamError(_describe(exc, origin)) from exc
        out = [(k.lower(), v) for k, v in response.raw_headers]
        length = None if response.headers.get("transfer-encoding") else response.content_length
        res = UpstreamResponse(response.status, out, length, response, origin)
        if length == 0 or method == "HEAD" or response.status in (204, 304):
            await res.read()
            res.length = 0
        return res

    async def get_json(self, origin: str, path: str, headers: list[tuple[bytes, bytes]], timeout: float | None) -> tuple[int, Any]:
        """GET a small JSON answer: (status, parsed body or None when it is not JSON)."""
        return await self._json(origin, "GET", path, headers, b"", timeout)

    async def post_json(self, origin: str, path: str, body: dict[str, Any], headers: list[tuple[bytes, bytes]],
                        timeout: float | None = None) -> tuple[int, Any]:
        """POST ``body`` as JSON: (status, parsed answer or None when it is not JSON)."""
        return await self._json(origin, "POST", path, [*headers, (b"content-type", b"application/json")],
                                json.dumps(body).encode(), timeout)

    async def _json(self, origin: str, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes,
                    timeout: float | None) -> tuple[int, Any]:
        res = await self.request(origin, method, path.encode(), headers, body, timeout=timeout)
        data = await res.read()
        try:
            return res.status, json.loads(data) if data else None
        except ValueError:
            return res.status, None

    async def websocket(self, origin: str, target: str, headers: list[tuple[bytes, bytes]]) -> aiohttp.ClientWebSocketResponse:
        """Open a websocket to ``origin`` (the bridge's ``/screencast``); its handshake refusal is an
        ``UpstreamError`` naming the status."""
        scheme = "wss" if origin.startswith("https") else "ws"
        url = URL(scheme + origin[origin.index(":"):] + target, encoded=True)
        head = {k.decode("latin-1"): v.decode("latin-1") for k, v in headers}
        try:
            return await self._client().ws_connect(url, headers=head, autoping=True, heartbeat=30.0)
        except aiohttp.WSServerHandshakeError as exc:
            raise UpstreamError(f"{origin} refused the websocket: {exc.status} {exc.message}", exc.status) from exc
        except _ERRORS as exc:
            raise UpstreamError(_describe(exc, origin)) from exc

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
