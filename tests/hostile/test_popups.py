"""Tabs a page opens during the agent's action (issue 27, row 7): only a tab the action meant to
open becomes the current one; the answer names it either way.

Both tests run in one tab (tests/hostile/tabs.py): each loads the page itself and closes the tabs
it opened."""

from __future__ import annotations

import httpx
import pytest

from tests.hostile.conftest import healthy_during
from tests.hostile.tabs import module_tab, on_session_bridge


hostile_bridge = pytest.fixture(scope="module", name="hostile_bridge")(on_session_bridge)
new_tab = pytest.fixture(scope="module", name="new_tab")(module_tab)


def tab_ids(client: httpx.Client) -> set[str]:
    return {t["id"] for t in client.get("/tabs").json()["tabs"]}


def click(client: httpx.Client, tab: str, selector: str) -> dict:
    res = client.post(f"/tabs/{tab}/action", json={"kind": "click", "selector": selector})
    assert res.status_code == 200, res.text
    return res.json()


def test_a_tab_opened_on_pointerdown_does_not_become_current(open_bridge: httpx.Client, new_tab: str,
                                                             pages: str) -> None:
    assert open_bridge.post(f"/tabs/{new_tab}/navigate", json={"url": f"{pages}/popup-traps.html"}).status_code == 200
    open_bridge.post("/tab", json={"action": "focus", "tabId": new_tab})
    body = healthy_during(open_bridge, lambda: click(open_bridge, new_tab, "#press"))
    opened = body["newTab"]
    try:
        assert opened["current"] is False and opened["url"] == f"{pages}/login.html"
        assert "switchedToTab" not in (body.get("result") or {})
        assert opened["tabId"] in tab_ids(open_bridge)  # named, left open behind
        # the agent's next step without tabId still lands in its own tab
        res = open_bridge.post("/action", json={"kind": "fill", "selector": "#password", "text": "hunter2"})
        assert res.status_code == 200, res.text
        assert open_bridge.get("/text").json()["url"] == f"{pages}/popup-traps.html"
    finally:
        open_bridge.post("/close", json={"tabId": opened["tabId"]})

    before = tab_ids(open_bridge)
    body = click(open_bridge, new_tab, "#later")  # a timer's window.open, after the click
    assert "switchedToTab" not in (body.get("result") or {})
    assert open_bridge.get("/text").json()["url"] == f"{pages}/popup-traps.html"
    for extra in tab_ids(open_bridge) - before:
        open_bridge.post("/close", json={"tabId": extra})


def test_a_tab_the_click_itself_opens_becomes_current(open_bridge: httpx.Client, new_tab: str, pages: str) -> None:
    assert open_bridge.post(f"/tabs/{new_tab}/navigate", json={"url": f"{pages}/popup-traps.html"}).status_code == 200
    body = click(open_bridge, new_tab, "#own")  # window.open in the button's own onclick: PinchTab's switch
    opened = body["newTab"]
    try:
        assert opened["current"] is True and body["result"]["switchedToTab"] == opened["tabId"]
        assert open_bridge.get("/text").json()["url"] == f"{pages}/buttons.html"
    finally:
        open_bridge.post("/close", json={"tabId": opened["tabId"]})
