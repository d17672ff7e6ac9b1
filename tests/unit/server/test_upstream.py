"""The proxy's HTTP/1.1 client against a scripted server: framing, keep-alive, stale connections."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from pinchtab.server import upstream as upstream_mod
from pinchtab.server.upstream import Upstream, UpstreamError

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def serve(handler: Handler) -> tuple[asyncio.AbstractServer, int]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def read_request(reader: asyncio.StreamReader) -> tuple[bytes, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return head, await reader.readexactly(length) if length else b""


async def test_content_length_keep_alive_and_echo() -> None:
    connections = 0
    seen: list[tuple[bytes, bytes]] = []

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        while True:
            try:
                head, body = await read_request(reader)
            except asyncio.IncompleteReadError:
                break
            seen.append((head, body))
            out = b'{"ok":true,"echo":' + (body or b"null") + b"}"
            writer.write(b"HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n" % len(out) + out)
            await writer.drain()
        writer.close()

    server, port = await serve(handler)
    up = Upstream()
    try:
        for i in range(3):
            res = await up.request(f"http://127.0.0.1:{port}", "POST", b"/navigate?x=1", [(b"content-type", b"application/json")], b'{"n":%d}' % i)
            assert res.status == 201 and (b"content-type", b"application/json") in res.headers
            assert await res.read() == b'{"ok":true,"echo":{"n":%d}}' % i
        assert connections == 1  # one kept-alive connection for all three
        assert seen[0][0].startswith(b"POST /navigate?x=1 HTTP/1.1\r\n") and b"content-length: 7" in seen[0][0].lower()
        await (await up.request(f"http://127.0.0.1:{port}", "GET", b"/snapshot", [])).read()
        assert b"content-length" not in seen[-1][0].lower()  # no body, no length on a GET
    finally:
        await up.close()
        server.close()


async def test_chunked_and_read_to_close() -> None:
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head, _ = await read_request(reader)
        if b"/chunked" in head:
            writer.write(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n")
            await writer.drain()
            await read_request(reader)  # the connection is reusable
            writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
        else:
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: image/png\r\n\r\n\x89PNG-bytes-until-close")
        await writer.drain()
        writer.close()

    server, port = await serve(handler)
    up = Upstream()
    try:
        res = await up.request(f"http://127.0.0.1:{port}", "GET", b"/chunked", [])
        assert res.length is None and b"".join([c async for c in res.iter_bytes()]) == b"hello world"
        res = await up.request(f"http://127.0.0.1:{port}", "GET", b"/after", [])
        assert res.status == 204 and await res.read() == b""
        res = await up.request(f"http://127.0.0.1:{port}", "GET", b"/raw", [])
        assert await res.read() == b"\x89PNG-bytes-until-close"
    finally:
        await up.close()
        server.close()


async def test_a_connection_closed_while_idle_is_retried_once() -> None:
    requests = 0

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal requests
        await read_request(reader)
        requests += 1
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
        await writer.drain()
        writer.close()  # like uvicorn after its keep-alive timeout, but at once

    server, port = await serve(handler)
    up = Upstream()
    try:
        for _ in range(3):
            res = await up.request(f"http://127.0.0.1:{port}", "POST", b"/action", [], b"{}")
            assert await res.read() == b"ok"
            await asyncio.sleep(0.05)
        assert requests == 3
    finally:
        await up.close()
        server.close()


async def test_idle_connections_expire(monkeypatch: pytest.MonkeyPatch) -> None:
    connections = 0

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        while True:
            try:
                await read_request(reader)
            except asyncio.IncompleteReadError:
                break
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
            await writer.drain()

    # Long enough that /b finds /a's connection still open on a loaded machine (0.05 s was not).
    monkeypatch.setattr(upstream_mod, "KEEPALIVE_EXPIRY", 0.5)
    server, port = await serve(handler)
    up = Upstream()
    try:
        await (await up.request(f"http://127.0.0.1:{port}", "GET", b"/a", [])).read()
        await (await up.request(f"http://127.0.0.1:{port}", "GET", b"/b", [])).read()
        assert connections == 1
        await asyncio.sleep(0.8)
        await (await up.request(f"http://127.0.0.1:{port}", "GET", b"/c", [])).read()
        assert connections == 2
    finally:
        await up.close()
        server.close()


async def test_errors() -> None:
    up = Upstream()
    server, port = await serve(lambda r, w: asyncio.sleep(0))
    server.close()
    await server.wait_closed()
    with pytest.raises(UpstreamError, match="cannot connect"):
        await up.request(f"http://127.0.0.1:{port}", "GET", b"/", [])

    async def short_body(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc")
        await writer.drain()
        writer.close()

    server, port = await serve(short_body)
    try:
        res = await up.request(f"http://127.0.0.1:{port}", "GET", b"/", [])
        with pytest.raises(UpstreamError):
            await res.read()
    finally:
        server.close()
        await up.close()


async def test_https_bridge_verified_against_the_configured_ca(tmp_path) -> None:
    import ssl

    pytest.importorskip("cryptography")
    from tests.fixtures.tls import make_ca_and_cert

    ca, cert, key = make_ca_and_cert(tmp_path)
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(cert, key)

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await read_request(reader)
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            writer.close()
            return
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nsecure")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handler, "127.0.0.1", 0, ssl=server_ctx)
    origin = f"https://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    trusting, default = Upstream(ca_file=str(ca)), Upstream()
    try:
        res = await trusting.request(origin, "GET", b"/health", [])
        assert res.status == 200 and await res.read() == b"secure"
        with pytest.raises(UpstreamError, match="cannot connect.*certificate verify failed"):
            await default.request(origin, "GET", b"/health", [])
    finally:
        await trusting.close()
        await default.close()
        server.close()


async def test_read_timeout_is_an_upstream_error() -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        await asyncio.sleep(2)
        writer.close()

    server, port = await serve(silent)
    up = Upstream()
    try:
        with pytest.raises(UpstreamError, match="timed out"):
            await up.request(f"http://127.0.0.1:{port}", "GET", b"/health", [], timeout=0.2)
    finally:
        await up.close()
        server.close()
