"""The table's websockets (/screencast) and the routes behind security.allowScreencast: refused with
403 naming the key while it is off, before any browser is needed; a plain GET says how to connect."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse

from pinchtab.bridge.app import create_app
from pinchtab.config import load_config


def client(**security: bool) -> TestClient:
    # No lifespan (no `with`): nothing here starts the browser.
    return TestClient(create_app(load_config({"security": security}, environ={})), base_url="http://127.0.0.1")


@pytest.mark.parametrize("method,path", [("GET", "/screencast"), ("GET", "/screencast/tabs"),
                                         ("POST", "/record/start"), ("POST", "/record/stop"), ("GET", "/record/status")])
def test_off_by_default_naming_the_key(method: str, path: str) -> None:
    res = client().request(method, path)
    assert res.status_code == 403
    assert res.json()["details"]["setting"] == "security.allowScreencast"


def test_the_websocket_is_refused_while_off() -> None:
    with pytest.raises(WebSocketDenialResponse) as denied, client().websocket_connect("ws://127.0.0.1/screencast"):
        pass
    assert denied.value.status_code == 403
    assert denied.value.json()["details"]["setting"] == "security.allowScreencast"


def test_a_plain_get_says_it_is_a_websocket() -> None:
    res = client(allow_screencast=True).get("/screencast")
    assert res.status_code == 426 and res.json()["code"] == "websocket_required"


def test_bad_query_is_a_400() -> None:
    with pytest.raises(WebSocketDenialResponse) as denied, \
            client(allow_screencast=True).websocket_connect("ws://127.0.0.1/screencast?fps=100"):
        pass
    assert denied.value.status_code == 400 and "fps" in denied.value.json()["error"]
