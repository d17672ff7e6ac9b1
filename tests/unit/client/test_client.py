"""The client's pure parts: where it connects, what it sends (no server needed)."""

from __future__ import annotations

import json

import pytest

import pinchtab
from pinchtab import models
from pinchtab.api import route
from pinchtab.client import Call, PinchtabClientError, _action_body, _build_call, _wire


def test_server_url_and_token_resolution(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"server": {"port": 9999, "token": "from-file"}}))
    for var in ("PINCHTAB_SERVER", "PINCHTAB_TOKEN", "PINCHTAB_PORT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PINCHTAB_CONFIG", str(config))
    c = pinchtab.Client()
    assert (c.server_url, c.token) == ("http://127.0.0.1:9999", "from-file")
    assert c._http.headers["authorization"] == "Bearer from-file"

    monkeypatch.setenv("PINCHTAB_SERVER", "http://box:1234/")
    monkeypatch.setenv("PINCHTAB_TOKEN", "from-env")
    c = pinchtab.Client()
    assert (c.server_url, c.token) == ("http://box:1234", "from-env")

    c = pinchtab.Client("http://other:1", token="arg")
    assert (c.server_url, c.token) == ("http://other:1", "arg")


def test_wire_names_come_from_the_models() -> None:
    assert _wire(models.NavigateRequest, url="u", new_tab=True, wait_for="dom", timeout=None) == \
        {"url": "u", "newTab": True, "waitFor": "dom"}
    assert _wire(models.SnapshotQuery, max_tokens=50, filter="interactive") == {"maxTokens": 50, "filter": "interactive"}
    assert _wire(models.FindRequest, query="q", top_k=2) == {"query": "q", "topK": 2}


def test_action_body_maps_and_refuses_unknown_fields() -> None:
    assert _action_body("click", ref="e1", wait_nav=True) == {"kind": "click", "ref": "e1", "waitNav": True}
    assert _action_body("press", key="Enter", waitNav=False) == {"kind": "press", "key": "Enter", "waitNav": False}
    with pytest.raises(TypeError, match="unknown action field 'txt'"):
        _action_body("type", ref="e1", txt="oops")


def test_tab_paths_are_quoted() -> None:
    assert _build_call(route("snapshot"), None, {}, None, None).path == "/snapshot"
    assert _build_call(route("snapshot"), "AB/C", {}, None, None).path == "/tabs/AB%2FC/snapshot"
    assert _build_call(route("instance_logs"), None, {"instance_id": "i/1"}, None, None).path == "/instances/i%2F1/logs"


def test_error_bodies_become_one_exception() -> None:
    import httpx

    call = Call("POST", "/action")
    res = httpx.Response(404, json={"error": "ref e5 not found - take a /snapshot first", "code": "ref_not_found"})
    with pytest.raises(PinchtabClientError) as exc:
        pinchtab.Client._finish(call, res)
    assert (exc.value.status, exc.value.code, exc.value.message) == (404, "ref_not_found", "ref e5 not found - take a /snapshot first")
    with pytest.raises(PinchtabClientError) as html:
        pinchtab.Client._finish(call, httpx.Response(502, text="<html>Bad gateway</html>"))
    assert (html.value.status, html.value.code) == (502, "http_error")
