"""The observation tools of `pinchtab mcp` (served in this process, to the SDK's client) against a live bridge:
console and errors, the network log and routes, waits, emulation, capture, timing, tab state.

The session bridge serves them, network interception turned on in its live config for this module
(no bridge and browser of its own), and the tests share one tab, each loading its page first."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import open_page, open_tab
from tests.e2e.test_mcp import McpSession
from tests.e2e.test_observe import evaluate, until


@pytest.fixture(scope="module", autouse=True)
def intercept(bridge_config: Any) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bridge_config.security, "allow_network_intercept", True)
        yield


@pytest.fixture(scope="module")
def mcp(bridge: str) -> Iterator[McpSession]:
    with McpSession.in_process(bridge) as session:  # the subprocess: test_mcp.py
        yield session


# Made over HTTP (the tools under test are not used to set up); the last test leaves it emulating a phone.
shared_tab = pytest.fixture(scope="module", name="shared_tab")(open_tab)


Load = Callable[[str], str]


@pytest.fixture()
def load(http: httpx.Client, shared_tab: str) -> Load:
    """``load(url)``: the shared tab, on ``url``."""
    def load(url: str) -> str:
        open_page(http, shared_tab, url)
        return shared_tab
    return load


def test_console_errors_and_network(mcp: McpSession, load: Load, pages: str) -> None:
    tab = load(f"{pages}/observe.html")
    assert mcp.json("pinchtab_wait_for_text", {"text": "fetched ok", "tabId": tab, "timeout": 5000})["waited"]
    console = until(lambda: mcp.json("pinchtab_console", {"tabId": tab})["console"])
    assert "something broke" in [e["message"] for e in console if e["level"] == "error"]
    errors = until(lambda: mcp.json("pinchtab_errors", {"tabId": tab})["errors"])
    assert errors[0]["message"] == "Uncaught Error: boom from timer"
    listed = mcp.json("pinchtab_network", {"tabId": tab, "filter": "data.json"})
    assert listed["count"] == 1 and listed["entries"][0]["requestHeaders"]["Authorization"] == "[REDACTED]"
    rid = listed["entries"][0]["requestId"]
    detail = mcp.json("pinchtab_network_detail", {"requestId": rid, "tabId": tab, "body": True})
    assert json.loads(detail["responseBody"])["message"] == "fetched ok"
    assert mcp.json("pinchtab_network_clear", {"tabId": tab}) == {"cleared": True, "tabId": tab}
    assert mcp.json("pinchtab_network", {"tabId": tab})["count"] == 0


def test_route_block_and_fulfil(mcp: McpSession, http: httpx.Client, load: Load, pages: str) -> None:
    tab = load(f"{pages}/index.html")
    mcp.json("pinchtab_network_route", {"tabId": tab, "pattern": "*/blocked/*", "action": "abort"})
    rules = mcp.json("pinchtab_network_route", {"tabId": tab, "pattern": "*/api/me", "action": "fulfill",
                                                "body": '{"me":"mock"}', "status": 200})["rules"]
    assert [r["action"] for r in rules] == ["abort", "fulfill"]
    assert evaluate(http, tab, "fetch('/blocked/x').then(() => 'ok', () => 'blocked')") == "blocked"
    assert evaluate(http, tab, "fetch('/api/me').then(r => r.json()).then(j => j.me)") == "mock"
    assert mcp.json("pinchtab_network_unroute", {"tabId": tab})["removed"] == 2
    assert mcp.error("pinchtab_network_unroute", {"tabId": tab}) == "HTTP 404: this tab has no network routes"
    assert evaluate(http, tab, "fetch('/api/me').then(r => r.status)") == 404


def test_waits(mcp: McpSession, http: httpx.Client, load: Load, pages: str) -> None:
    tab = load(f"{pages}/index.html")
    assert mcp.json("pinchtab_wait_for_load", {"load": "ready-state", "tabId": tab})["match"] == "ready-state"
    assert mcp.json("pinchtab_wait_for_url", {"url": "**/index.html", "tabId": tab})["waited"] is True
    evaluate(http, tab, "setTimeout(() => { window.ready = 1 }, 200)")
    assert mcp.json("pinchtab_wait_for_function", {"fn": "window.ready === 1", "tabId": tab})["waited"] is True
    late = mcp.json("pinchtab_wait_for_text", {"text": "never there", "tabId": tab, "timeout": 200})
    assert late["waited"] is False and "timeout" in late["error"]


def test_mobile_viewport_capture_timing_state(mcp: McpSession, http: httpx.Client, load: Load, pages: str) -> None:
    tab = load(f"{pages}/observe.html")
    res = mcp.json("pinchtab_emulate", {"tabId": tab, "width": 390, "height": 844, "mobile": True,
                                        "colorScheme": "dark"})
    assert res["applied"]["viewport"]["mobile"] is True
    assert evaluate(http, tab, "getComputedStyle(document.getElementById('layout')).flexDirection") == "column"
    cap = mcp.json("pinchtab_capture", {"tabId": tab, "output": "inline", "filter": "all"})
    assert cap["image"]["viewport"]["w"] == 390 and cap["snapshot"]["nodeCount"] > 0
    assert mcp.json("pinchtab_timing", {"tabId": tab})["loadMs"] > 0
    assert mcp.json("pinchtab_tab_state", {"tabId": tab})["load"]["readyState"] == "complete"
