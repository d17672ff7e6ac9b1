"""Console, errors, the network log and network routes through the bridge's HTTP API, on a real
Chromium and local pages."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import open_page, open_tab as new_tab


def open_tab(c: httpx.Client, url: str) -> str:
    res = c.post("/navigate", json={"url": url, "newTab": True})
    assert res.status_code == 200, res.text
    return res.json()["tabId"]


def until(fn: Any, timeout: float = 5.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = fn()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def obs_tab(obs: httpx.Client) -> Iterator[str]:
    """A new tab on the observation bridge, closed afterwards: the body of a module's shared-tab
    fixture, ``pytest.fixture(scope="module", name=...)(obs_tab)``."""
    yield from new_tab(obs)


observe_tab = pytest.fixture(scope="module", name="observe_tab")(obs_tab)


@pytest.fixture()
def observed(obs: httpx.Client, observe_tab: str, pages: str) -> str:
    """The module's tab on a fresh load of the observe page, its logs emptied first (they do not
    reset on navigation), for a test that reads what that load logged."""
    tab = observe_tab
    for clear in ("/console/clear", "/errors/clear", "/network/clear"):
        assert obs.post(clear, json={"tabId": tab}).status_code == 200
    open_page(obs, tab, f"{pages}/observe.html")
    return tab


@pytest.fixture(scope="module")
def index_tab(obs: httpx.Client, pages: str) -> Iterator[str]:
    """One tab on the fixture index for the tests that look only at what they do on it."""
    yield from new_tab(obs, f"{pages}/index.html")


def evaluate(c: httpx.Client, tab: str, expression: str) -> Any:
    res = c.post(f"/tabs/{tab}/evaluate", json={"expression": expression})
    assert res.status_code == 200, res.text
    return res.json()["result"]


def test_console_and_uncaught_exception_are_listed(obs: httpx.Client, observed: str) -> None:
    tab = observed
    console = until(lambda: [e for e in obs.get("/console", params={"tabId": tab}).json()["console"]
                             if e["level"] == "error"])
    assert console and console[0]["message"] == "something broke"
    entries = obs.get(f"/tabs/{tab}/console").json()["console"]
    assert {"level": "log", "message": "hello from observe 42"}.items() <= entries[0].items()
    assert "observe.html" in entries[0]["source"] and entries[0]["timestamp"].endswith("Z")
    assert any(e["level"] == "warn" and e["message"] == "careful" for e in entries)
    errors = until(lambda: obs.get("/errors", params={"tabId": tab}).json()["errors"])
    assert errors[0]["message"] == "Uncaught Error: boom from timer"
    assert errors[0]["type"] == "Error" and errors[0]["url"].endswith("observe.html") and errors[0]["line"] > 0
    assert len(obs.get("/console", params={"tabId": tab, "limit": 2}).json()["console"]) == 2
    assert obs.post("/console/clear", json={"tabId": tab}).json() == {"success": True, "tabId": tab}
    assert obs.get(f"/tabs/{tab}/console").json()["console"] == []
    assert obs.post(f"/tabs/{tab}/errors/clear").json()["success"] is True
    assert obs.get(f"/tabs/{tab}/errors").json() == {"tabId": tab, "errors": []}


def test_failed_load_is_an_error(obs: httpx.Client, index_tab: str) -> None:
    tab = index_tab
    obs.post(f"/tabs/{tab}/errors/clear")  # the first error below is this test's
    evaluate(obs, tab, "fetch('missing-file.json').then(r => r.status)")
    errors = until(lambda: obs.get(f"/tabs/{tab}/errors").json()["errors"])
    assert errors[0]["type"] == "network" and "404" in errors[0]["message"]
    assert errors[0]["url"].endswith("missing-file.json")


def test_unknown_tab_is_404(obs: httpx.Client) -> None:
    for path in ("/console", "/errors", "/network"):
        res = obs.get(path, params={"tabId": "nonexistent_xyz"})
        assert res.status_code == 404 and res.json()["code"] == "tab_not_found"


def test_fetch_listed_with_its_body_and_redacted_headers(obs: httpx.Client, observed: str) -> None:
    tab = observed
    assert until(lambda: evaluate(obs, tab, "document.getElementById('fetched').textContent") == "fetched ok")
    listed = obs.get("/network", params={"tabId": tab, "filter": "data.json"}).json()
    assert listed["count"] == 1
    entry = listed["entries"][0]
    assert entry["status"] == 200 and entry["method"] == "GET" and entry["resourceType"] == "Fetch"
    assert entry["finished"] is True and entry["url"].endswith("data.json?from=page")
    assert entry["requestHeaders"]["Authorization"] == "[REDACTED]"
    # type=xhr finds fetch() too; other filters narrow.
    assert obs.get("/network", params={"tabId": tab, "type": "xhr"}).json()["count"] == 1
    assert obs.get("/network", params={"tabId": tab, "status": "2xx", "type": "document"}).json()["count"] == 1
    assert obs.get("/network", params={"tabId": tab, "method": "POST"}).json()["count"] == 0
    detail = obs.get(f"/network/{entry['requestId']}", params={"tabId": tab, "body": "true"}).json()
    assert detail["responseBody"].startswith('{"message": "fetched ok"') and detail["bodySource"] == "live"
    raw = obs.get(f"/tabs/{tab}/network/{entry['requestId']}", params={"redact": "false"}).json()
    assert raw["entry"]["requestHeaders"]["Authorization"] == "Bearer secret-token"
    assert obs.get(f"/tabs/{tab}/network/nope").status_code == 404
    har = obs.get(f"/tabs/{tab}/network/export", params={"body": "true"}).json()["log"]
    assert har["version"] == "1.2" and len(har["entries"]) >= 2
    data = next(e for e in har["entries"] if "data.json" in e["request"]["url"])
    assert data["response"]["content"]["text"].startswith('{"message"')
    assert {"name": "Authorization", "value": "[REDACTED]"} in data["request"]["headers"]
    ndjson = obs.get(f"/tabs/{tab}/network/export", params={"format": "ndjson"}).text.splitlines()
    assert len(ndjson) == len(har["entries"])
    assert obs.post("/network/clear", json={"tabId": tab}).json() == {"cleared": True, "tabId": tab}
    assert obs.get(f"/tabs/{tab}/network").json()["count"] == 0


def test_routes_block_and_fulfil(obs: httpx.Client, index_tab: str) -> None:
    tab = index_tab
    res = obs.post(f"/tabs/{tab}/network/route", json={"pattern": "blocked.invalid", "action": "abort"})
    assert res.status_code == 200 and res.json()["rules"] == [{"pattern": "blocked.invalid", "action": "abort"}]
    fetch = "fetch('{}').then(r => r.text(), e => 'error: ' + e)"
    assert evaluate(obs, tab, fetch.format("https://blocked.invalid/x")).startswith("error: TypeError")
    res = obs.post(f"/tabs/{tab}/network/route", json={
        "pattern": "*/api/user*", "action": "fulfill", "body": '{"name":"mocked"}', "status": 201})
    assert len(res.json()["rules"]) == 2
    assert evaluate(obs, tab, "fetch('/api/user?id=1').then(async r => r.status + ' ' + await r.text())") == \
        '201 {"name":"mocked"}'
    # Same pattern replaces; resourceType narrows (a fetch is not a script).
    obs.post(f"/tabs/{tab}/network/route", json={"pattern": "*/api/user*", "action": "fulfill", "body": "{}",
                                                  "resourceType": "script"})
    assert evaluate(obs, tab, "fetch('/api/user').then(r => r.status)") == 404
    assert len(obs.get(f"/tabs/{tab}/network/route").json()["rules"]) == 2
    blocked = obs.get(f"/tabs/{tab}/network", params={"filter": "blocked.invalid"}).json()["entries"]
    assert blocked and blocked[0]["failed"] is True
    assert obs.delete(f"/tabs/{tab}/network/route", params={"pattern": "blocked.invalid"}).json()["removed"] == 1
    assert obs.delete(f"/tabs/{tab}/network/route").json()["removed"] == 1
    assert obs.delete(f"/tabs/{tab}/network/route").status_code == 404


@pytest.mark.parametrize("body", [
    {"action": "abort"},
    {"pattern": "x", "action": "fulfill", "status": 999},
    {"pattern": "x", "action": "fulfill", "contentType": "text/html"},
    {"pattern": "x", "action": "fulfill", "contentType": "application/json\r\nX-Evil: 1"},
    {"pattern": "x", "action": "abort", "method": "FOOBAR"},
    {"pattern": "x", "action": "abort", "resourceType": "java"},
    {"pattern": "x", "action": "explode"},
])
def test_bad_route_is_400(obs: httpx.Client, pages: str, body: dict[str, Any]) -> None:
    tab = obs.get("/tabs").json()["tabs"][0]["id"]
    assert obs.post(f"/tabs/{tab}/network/route", json=body).status_code == 400


def test_routes_and_block_images_share_fetch(obs: httpx.Client, pages: str, index_tab: str) -> None:
    tab = index_tab
    obs.post(f"/tabs/{tab}/network/route", json={"pattern": "*/api/*", "action": "fulfill", "body": "[]"})
    res = obs.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/images.html", "blockImages": True})
    assert res.status_code == 200
    images = obs.get(f"/tabs/{tab}/network", params={"type": "image"}).json()["entries"]
    assert images and all(e["failed"] for e in images)
    assert evaluate(obs, tab, "fetch('/api/list').then(r => r.text())") == "[]"
    obs.delete(f"/tabs/{tab}/network/route")
    assert evaluate(obs, tab, "fetch('/api/list').then(r => r.status)") == 404


def test_route_gate_is_403_when_off(locked_bridge: str) -> None:
    res = httpx.post(f"{locked_bridge}/network/route", json={"pattern": "x", "action": "abort"}, timeout=30)
    assert res.status_code == 403
    body = res.json()
    assert body["code"] == "network_intercept_disabled"
    assert body["details"] == {"setting": "security.allowNetworkIntercept"}


def test_cli_commands(obs: httpx.Client, observed: str) -> None:
    from click.testing import CliRunner

    from pinchtab.cli import main

    def run(*args: str) -> Any:
        result = CliRunner().invoke(main, [*args, "--no-start"], env={"PINCHTAB_SERVER": str(obs.base_url)},
                                    catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    tab = observed
    assert run("wait", "--tab", tab, "--text", "fetched ok")["waited"] is True
    assert any(e["message"] == "careful" for e in run("console", "--tab", tab)["console"])
    assert run("network", "--tab", tab, "--filter", "data.json")["count"] == 1
    assert run("tab-state", "--tab", tab)["tabId"] == tab
    assert run("viewport", "--tab", tab, "400", "800", "--mobile")["mobile"] is True
    assert run("network-route", "--tab", tab, "--pattern", "*.png", "--action", "abort")["rules"][0]["pattern"] == "*.png"
    assert run("network-unroute", "--tab", tab)["removed"] == 1
