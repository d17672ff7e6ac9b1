"""Storage and saved state through the bridge's HTTP API: a session saved in one browser and
restored in a fresh one; the gate when state export is off. The tests share one tab, each opening its
page first."""

from __future__ import annotations

import os
import stat

import httpx
import pytest

from tests.conftest import open_page
from tests.e2e.conftest import start_obs_bridge
from tests.e2e.test_observe import evaluate, obs_tab

tab = pytest.fixture(scope="module", name="tab")(obs_tab)


def fresh_page(obs: httpx.Client, tab: str, url: str) -> None:
    """``url`` with its origin's storage empty: ``obs`` is the session bridge, whose profile keeps
    what other tests stored for the fixture pages' origin."""
    open_page(obs, tab, url)
    assert obs.request("DELETE", f"/tabs/{tab}/storage", json={"type": "all"}).status_code == 200


def test_storage_get_set_delete(obs: httpx.Client, tab: str, pages: str) -> None:
    fresh_page(obs, tab, f"{pages}/index.html")
    res = obs.post("/storage", json={"tabId": tab, "type": "local", "key": "k1", "value": "v1"})
    assert res.status_code == 200 and res.json()["origin"] == pages
    obs.post(f"/tabs/{tab}/storage", json={"type": "session", "key": "s1", "value": "x"})
    got = obs.get(f"/tabs/{tab}/storage").json()
    assert got["local"] == [{"key": "k1", "value": "v1"}] and got["session"] == [{"key": "s1", "value": "x"}]
    assert obs.get(f"/tabs/{tab}/storage", params={"type": "local", "key": "nope"}).json()["local"] == []
    assert evaluate(obs, tab, "localStorage.getItem('k1')") == "v1"
    obs.request("DELETE", f"/tabs/{tab}/storage", json={"type": "local", "key": "k1"})
    assert obs.get(f"/tabs/{tab}/storage", params={"type": "local"}).json()["local"] == []
    obs.request("DELETE", f"/tabs/{tab}/storage", json={"type": "all"})
    assert obs.get(f"/tabs/{tab}/storage").json()["session"] == []
    assert obs.post(f"/tabs/{tab}/storage", json={"key": "k"}).status_code == 400
    assert obs.request("DELETE", f"/tabs/{tab}/storage", json={"type": "all", "key": "k"}).status_code == 400


def test_saved_state_restored_in_a_fresh_browser(obs: httpx.Client, tab: str, pages: str, obs_state_dir: str) -> None:
    fresh_page(obs, tab, f"{pages}/session.html")
    obs.post("/action", json={"tabId": tab, "kind": "click", "selector": "#signin"})
    assert evaluate(obs, tab, "document.getElementById('who').textContent") == "Signed in (tok-ada)"
    current = obs.get("/state", params={"tabId": tab}).json()
    assert current["storage"][pages]["local"] == {"token": "tok-ada"}
    assert any(c["name"] == "sid" for c in current["cookies"])
    saved = obs.post("/state/save", json={"name": "ada", "tabId": tab, "metadata": {"who": "ada"}}).json()
    assert saved["name"] == "ada" and saved["origins"] == [pages] and saved["cookies"] >= 1
    assert stat.S_IMODE(os.stat(saved["path"]).st_mode) == 0o600
    listed = obs.get("/state/list").json()
    assert listed["count"] >= 1 and listed["states"][0]["name"] == "ada"
    assert obs.get("/state/show", params={"name": "ada"}).json()["metadata"]["who"] == "ada"
    with start_obs_bridge(obs_state_dir) as fresh, httpx.Client(base_url=fresh.url, timeout=60) as other:
        (blank,) = [t["id"] for t in other.get("/tabs").json()["tabs"]]  # the fresh browser's blank tab
        loaded = other.post("/state/load", json={"name": "ada", "tabId": blank}).json()
        assert loaded["loaded"] is True and loaded["origins"] == [pages]
        other.post(f"/tabs/{blank}/navigate", json={"url": f"{pages}/session.html"})
        assert evaluate(other, blank, "document.getElementById('who').textContent") == "Signed in (tok-ada)"
    assert obs.post("/state/load", json={"name": "nobody"}).status_code == 404
    assert obs.post("/state/save", json={"name": "../evil"}).status_code == 400
    assert obs.request("DELETE", "/state", params={"name": "ada"}).json() == {"deleted": "ada"}
    assert obs.request("DELETE", "/state", params={"name": "ada"}).status_code == 404
    assert obs.post("/state/clean", json={"olderThanHours": 0}).json()["removed"] >= 0


@pytest.mark.parametrize("method,path", [("GET", "/storage"), ("GET", "/state"), ("GET", "/state/list"),
                                         ("POST", "/state/save"), ("POST", "/state/clean")])
def test_state_gate_is_403_when_off(http: httpx.Client, locked_bridge: str, method: str, path: str) -> None:
    # the session bridge with the default security (this module's obs turns state export on); its
    # client, with an absolute URL: a client of its own costs ~0.05 s of CPU to build
    res = http.request(method, f"{locked_bridge}{path}")
    assert res.status_code == 403
    assert res.json()["details"] == {"setting": "security.allowStateExport"}
