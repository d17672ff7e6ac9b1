"""The HTTP error shape, request parsing from the route table, and token auth, on a tiny app (no browser)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from pinchtab.api import route
from pinchtab.api.dispatch import mount
from pinchtab.config import SecurityConfig
from pinchtab.errors import BadRequest, BrowserError, Conflict, Forbidden, NotFound, NotReady, Timeout
from pinchtab.web import FastJSON, TokenAuth, install_error_handlers

ERRORS = {
    "bad": BadRequest("bad thing; send a better one", "bad_thing"),
    "forbidden": Forbidden("evaluate is disabled", "evaluate_disabled"),
    "missing": NotFound("ref e5 not found - take a /snapshot first", "ref_not_found"),
    "conflict": Conflict("element e3 is disabled", "element_disabled"),
    "browser": BrowserError("element is occluded", "element_occluded"),
    "timeout": Timeout("took too long", "navigation_timeout"),
    "notready": NotReady("Chromium exited; retry", "browser_gone"),
}


def make_app(token: str | None = None) -> FastAPI:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/health")
    async def health() -> FastJSON:
        return FastJSON({"status": "ok"})

    @app.get("/raise/{name}")
    async def raise_(name: str) -> FastJSON:
        raise ERRORS[name]

    @app.get("/batch")
    async def batch() -> FastJSON:
        exc = NotFound("action 2 (click) failed: ref e9 not found", "ref_not_found")
        exc.extra = {"failedIndex": 2, "results": [{"success": True}]}
        raise exc

    @app.get("/boom")
    async def boom() -> FastJSON:
        raise RuntimeError("kaput")

    async def echo(req: Any) -> dict[str, Any]:
        return req.wire()

    async def wait(req: Any) -> dict[str, Any]:
        return {"timeout": req.timeout}

    table = (route("navigate"), route("action"), route("wait"), route("snapshot"))
    mount(app.router, table, lambda r: wait if r.name == "wait" else echo, SecurityConfig())
    app.add_middleware(TokenAuth, token=token)
    return app


@pytest.fixture()
async def client() -> httpx.AsyncClient:
    # The catch-all handler answers the 500; the ASGI transport must not re-raise the error.
    transport = httpx.ASGITransport(app=make_app(), raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


def assert_error(res: httpx.Response, status: int, code: str) -> dict[str, object]:
    assert res.status_code == status, res.text
    assert res.headers["content-type"].startswith("application/json")
    body = res.json()
    assert body["code"] == code
    assert isinstance(body["error"], str) and body["error"]
    assert "Traceback" not in res.text
    return body


@pytest.mark.parametrize(
    ("name", "status"),
    [("bad", 400), ("forbidden", 403), ("missing", 404), ("conflict", 409), ("browser", 500), ("timeout", 504),
     ("notready", 503)],
)
async def test_pinchtab_errors_map_to_status_and_shape(client: httpx.AsyncClient, name: str, status: int) -> None:
    res = await client.get(f"/raise/{name}")
    body = assert_error(res, status, ERRORS[name].code)
    assert body == {"error": ERRORS[name].message, "code": ERRORS[name].code}


async def test_extra_fields_ride_along(client: httpx.AsyncClient) -> None:
    body = assert_error(await client.get("/batch"), 404, "ref_not_found")
    assert body["failedIndex"] == 2
    assert body["results"] == [{"success": True}]


async def test_unexpected_exception_is_a_json_500_without_traceback(client: httpx.AsyncClient) -> None:
    body = assert_error(await client.get("/boom"), 500, "internal_error")
    assert "kaput" in str(body["error"])


async def test_invalid_json(client: httpx.AsyncClient) -> None:
    res = await client.post("/navigate", content=b'{"url": ', headers={"content-type": "application/json"})
    assert "invalid JSON" in str(assert_error(res, 400, "invalid_json")["error"])


async def test_json_is_read_without_content_type(client: httpx.AsyncClient) -> None:
    # curl -d sends application/x-www-form-urlencoded; the body is JSON all the same.
    res = await client.post("/navigate", content=b'{"url":"example.com"}',
                            headers={"content-type": "application/x-www-form-urlencoded"})
    assert res.status_code == 200, res.text
    assert res.json()["url"] == "example.com"
    res = await client.post("/navigate", content=b"{bad", headers={"content-type": "text/plain"})
    assert_error(res, 400, "invalid_json")


@pytest.mark.parametrize("body", [b"[]", b'"url"', b"42", b"null"])
async def test_non_object_body(client: httpx.AsyncClient, body: bytes) -> None:
    res = await client.post("/navigate", content=body)
    assert res.status_code == 400, res.text
    assert res.json()["code"] == "invalid_body"


async def test_missing_body_and_fields(client: httpx.AsyncClient) -> None:
    body = assert_error(await client.post("/navigate"), 400, "missing_url")  # no body: name the field
    assert body["error"] == "url is required"
    body = assert_error(await client.post("/navigate", json={"tabId": "x"}), 400, "missing_url")
    assert body["error"] == "url is required"
    assert_error(await client.post("/action", json={"ref": "e1"}), 400, "missing_kind")


async def test_wrong_types(client: httpx.AsyncClient) -> None:
    body = assert_error(await client.post("/navigate", json={"url": 5}), 400, "invalid_field")
    assert "url" in str(body["error"])
    assert_error(await client.post("/navigate", json={"url": "a.com", "timeout": "soon"}), 400, "invalid_field")
    assert_error(await client.post("/navigate", json={"url": "a.com", "waitFor": "forever"}), 400, "invalid_field")
    body = assert_error(await client.get("/snapshot", params={"depth": "deep"}), 400, "invalid_field")
    assert "depth" in str(body["error"])
    assert_error(await client.get("/snapshot", params={"format": "xml"}), 400, "invalid_field")


async def test_unknown_action_kind(client: httpx.AsyncClient) -> None:
    body = assert_error(await client.post("/action", json={"kind": "teleport"}), 400, "unknown_kind")
    assert "teleport" in str(body["error"]) and "click" in str(body["error"])


async def test_wait_timeout_is_capped(client: httpx.AsyncClient) -> None:
    res = await client.post("/wait", json={"selector": "#x", "timeout": 60000})
    assert res.json() == {"timeout": 30000}
    res = await client.post("/wait", json={"selector": "#x"})
    assert res.json() == {"timeout": 10000}
    assert_error(await client.post("/wait", json={"selector": "#x", "timeout": -1}), 400, "invalid_field")


async def test_camel_case_on_the_wire(client: httpx.AsyncClient) -> None:
    res = await client.post("/navigate", json={"url": "a.com", "newTab": True, "waitFor": "dom", "tabId": "T"})
    assert res.json()["newTab"] is True and res.json()["waitFor"] == "dom" and res.json()["tabId"] == "T"


async def test_unknown_route_and_method(client: httpx.AsyncClient) -> None:
    body = assert_error(await client.get("/nope"), 404, "no_route")
    assert "/nope" in str(body["error"])
    assert_error(await client.get("/navigate"), 405, "method_not_allowed")


async def test_token_auth() -> None:
    transport = httpx.ASGITransport(app=make_app(token="s3cret"))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        assert (await c.get("/health")).status_code == 200  # public
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "s3cret"},
                        {"Authorization": "Bearer s3cret2"}, {"Authorization": "Basic czNjcmV0"}):
            res = await c.get("/raise/missing", headers=headers)
            assert_error(res, 401, "unauthorized")
            assert res.headers["www-authenticate"] == "Bearer"
            assert_error(await c.post("/navigate", json={"url": "a.com"}, headers=headers), 401, "unauthorized")
            assert_error(await c.get("/nope", headers=headers), 401, "unauthorized")
        ok = {"Authorization": "Bearer s3cret"}
        assert_error(await c.get("/raise/missing", headers=ok), 404, "ref_not_found")
        assert (await c.post("/navigate", json={"url": "a.com"}, headers=ok)).status_code == 200


async def test_no_token_means_no_auth(client: httpx.AsyncClient) -> None:
    assert (await client.post("/navigate", json={"url": "a.com"})).status_code == 200
