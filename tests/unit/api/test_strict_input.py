"""Strict types, strict JSON and finite coordinates (issue 16), through the route table's parsing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from pinchtab.api import route
from pinchtab.api.dispatch import mount
from pinchtab.config import SecurityConfig
from pinchtab.web import install_error_handlers


@pytest.fixture()
async def client() -> AsyncIterator[httpx.AsyncClient]:
    app = FastAPI()
    install_error_handlers(app)

    async def echo(req: Any) -> dict[str, Any]:
        return req.wire()

    table = (route("navigate"), route("action"), route("actions"), route("snapshot"), route("find"))
    mount(app.router, table, lambda r: echo, SecurityConfig())
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as c:
        yield c


@pytest.mark.parametrize("path, body, field", [
    ("/navigate", {"url": "http://x.test", "timeout": True}, "timeout"),
    ("/navigate", {"url": "http://x.test", "newTab": "yes"}, "newTab"),
    ("/navigate", {"url": "http://x.test", "newTab": 1}, "newTab"),
    ("/navigate", {"url": "http://x.test", "timeout": "5000"}, "timeout"),
    ("/find", {"query": "ok", "topK": 2.0}, "topK"),
    ("/action", {"kind": "click", "x": "10", "y": 10}, "x"),
    ("/actions", {"actions": [{"kind": "click", "ref": "e1", "waitNav": "true"}]}, "actions.0.waitNav"),
])
async def test_json_values_must_have_their_fields_type(client: httpx.AsyncClient, path: str, body: dict[str, Any],
                                                      field: str) -> None:
    res = await client.post(path, json=body)
    assert res.status_code == 400, res.text
    assert res.json()["code"] == "invalid_field" and res.json()["error"].startswith(field + ":")


async def test_query_strings_still_convert(client: httpx.AsyncClient) -> None:
    res = await client.get("/snapshot", params={"depth": "3", "diff": "true", "maxTokens": "100"})
    assert res.status_code == 200 and res.json()["depth"] == 3 and res.json()["diff"] is True
    ok = await client.post("/navigate", json={"url": "http://x.test", "timeout": 5000, "newTab": True})
    assert ok.status_code == 200 and ok.json()["timeout"] == 5000


@pytest.mark.parametrize("raw", [
    b'{"kind":"click","x":NaN,"y":1}', b'{"kind":"click","x":Infinity,"y":1}', b'{"kind":"click","x":-Infinity,"y":1}',
])
async def test_no_nan_or_infinity(client: httpx.AsyncClient, raw: bytes) -> None:
    res = await client.post("/action", content=raw)
    assert res.status_code == 400 and res.json()["code"] == "invalid_json"


@pytest.mark.parametrize("x, y", [(1e308, 1e308), (-5, 10), (10, 200_000)])
async def test_coordinates_are_finite_and_bounded(client: httpx.AsyncClient, x: float, y: float) -> None:
    res = await client.post("/action", json={"kind": "click", "x": x, "y": y})
    assert res.status_code == 400 and res.json()["code"] == "invalid_field", res.text
