"""No drive-by control (issue 16): the Host and Origin guard and the body cap, on the real bridge
and server apps (no browser is started: their lifespans do not run under ASGITransport)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pinchtab.config import load_config


def bridge_app(**server: Any) -> Any:
    from pinchtab.bridge.app import create_app

    return create_app(load_config({"server": server}, environ={}))


def server_app(tmp: Path, **server: Any) -> Any:
    from pinchtab.server.app import create_app

    return create_app(load_config({"server": {"stateDir": str(tmp), **server}}, environ={}), default_instance=False)


async def call(app: Any, method: str, path: str, headers: dict[str, str] | None = None, **kw: Any) -> httpx.Response:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:9867") as c:
        return await c.request(method, path, headers=headers, **kw)


# One app of each for the module: the requests below are refused or answered without changing them.
@pytest.fixture(scope="module", params=["bridge", "server"])
def app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    return bridge_app() if request.param == "bridge" else server_app(tmp_path_factory.mktemp("state"))


async def test_programs_without_browser_headers_pass(app: Any) -> None:
    for host in ("127.0.0.1:9867", "localhost:9867", "[::1]:9867", "127.0.0.5"):
        res = await call(app, "GET", "/health", {"host": host})
        assert res.status_code in (200, 503), (host, res.text)  # 503: the bridge's browser is not started


async def test_a_foreign_host_is_refused(app: Any) -> None:
    # DNS rebinding: a page at http://evil.example:9867/ whose name now resolves to 127.0.0.1.
    res = await call(app, "POST", "/navigate", {"host": "evil.example:9867"}, json={"url": "http://x.test"})
    assert res.status_code == 403
    body = res.json()
    assert body["code"] == "host_not_allowed" and "server.allowedHosts" in body["error"]
    assert (await call(app, "GET", "/health", {"host": "evil.example"})).status_code == 403


@pytest.mark.parametrize("headers", [
    # fetch(..., {mode: "no-cors", method: "POST", body: "..."}) from a page on another local port
    {"origin": "http://127.0.0.1:8000", "sec-fetch-site": "same-site", "content-type": "text/plain"},
    {"origin": "https://evil.example", "sec-fetch-site": "cross-site"},
    {"origin": "https://evil.example"},  # a browser without Sec-Fetch-* headers
    {"origin": "null"},  # a sandboxed iframe or a file:// page
    {"sec-fetch-site": "cross-site"},  # a cross-site form or link, no Origin
])
async def test_requests_a_page_sends_are_refused(app: Any, headers: dict[str, str]) -> None:
    res = await call(app, "POST", "/profiles", headers, content=b'{"name":"drive-by"}')
    assert res.status_code == 403, res.text
    body = res.json()
    assert body["code"] == "origin_not_allowed" and "server.allowedOrigins" in body["error"]


async def test_same_origin_pages_and_allowed_origins_pass(tmp_path: Path) -> None:
    app = server_app(tmp_path, allowedOrigins=["http://localhost:3000"])
    same = {"origin": "http://127.0.0.1:9867", "sec-fetch-site": "same-origin"}
    assert (await call(app, "GET", "/profiles", same)).status_code == 200  # /docs served by us
    assert (await call(app, "GET", "/profiles", {"origin": "http://127.0.0.1:9867"})).status_code == 200
    trusted = {"origin": "http://localhost:3000", "sec-fetch-site": "same-site"}
    assert (await call(app, "GET", "/profiles", trusted)).status_code == 200
    typed = {"sec-fetch-site": "none"}  # the user typed the URL
    assert (await call(app, "GET", "/profiles", typed)).status_code == 200


async def test_allowed_hosts_and_bind(tmp_path: Path) -> None:
    app = server_app(tmp_path, allowedHosts=["pinchtab.lan"])
    assert (await call(app, "GET", "/profiles", {"host": "pinchtab.lan:9867"})).status_code == 200
    assert (await call(app, "GET", "/profiles", {"host": "other.lan"})).status_code == 403
    app = server_app(tmp_path / "b", bind="10.1.2.3", token="t0ken-long")
    res = await call(app, "GET", "/profiles", {"host": "10.1.2.3:9867", "authorization": "Bearer t0ken-long"})
    assert res.status_code == 200
    # Bound to every address (a token is then required): reached by any name, the token guards it.
    app = server_app(tmp_path / "c", bind="0.0.0.0", token="t0ken-long")
    res = await call(app, "GET", "/profiles", {"host": "pod-10-1-2-3:9867", "authorization": "Bearer t0ken-long"})
    assert res.status_code == 200
    res = await call(app, "GET", "/profiles", {"host": "pod-10-1-2-3:9867"})
    assert res.status_code == 401


async def test_bodies_over_the_cap_answer_413(app: Any) -> None:
    big = b'{"query":"' + b"x" * (1 << 20) + b'"}'
    res = await call(app, "POST", "/find", content=big)
    assert res.status_code == 413
    assert res.json()["code"] == "body_too_large" and "server.maxBodyBytes" in res.json()["error"]

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"query":"'
        for _ in range(20):
            yield b"x" * 65536
        yield b'"}'

    res = await call(app, "POST", "/find", content=chunks())
    assert res.status_code == 413, res.text


async def test_the_cap_is_configurable(tmp_path: Path) -> None:
    app = bridge_app(maxBodyBytes=2048)
    res = await call(app, "POST", "/navigate", json={"url": "http://x.test/" + "a" * 3000})
    assert res.status_code == 413 and "2,048" in res.json()["error"]


async def test_an_upload_may_carry_its_files_in_base64(app: Any) -> None:
    # 2.5 MB of file in base64 is past maxBodyBytes (1 MiB) but within uploadMaxTotalBytes: the body
    # reaches the route (the bridge's gate answers, uploads being off; the server has no instance to
    # proxy to), not the 413 (issue 27, row 10).
    data = "data:text/plain;base64," + "QUJD" * (2_500_000 // 3)
    res = await call(app, "POST", "/upload", json={"files": [data]})
    assert res.json()["code"] in ("upload_disabled", "no_instance"), res.text
    res = await call(app, "POST", "/upload", content=b'{"files":["' + b"A" * (15 << 20) + b'"]}')
    assert res.status_code == 413 and "uploadMaxTotalBytes" in res.json()["error"]
