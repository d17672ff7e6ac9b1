"""Emulation, timing, tab state, capture, element screenshots and the extended /wait through the
bridge's HTTP API, on a real Chromium and local pages. Two tabs serve the module: one whose
emulation settings the emulation tests leave on it, one for the others; a test opens its page first."""

from __future__ import annotations

import base64
import struct
from pathlib import Path

import httpx
import pytest

from tests.conftest import open_page
from tests.e2e.test_actions import on_page
from tests.e2e.test_observe import evaluate, obs_tab

emulated = pytest.fixture(scope="module", name="emulated")(obs_tab)
tab = pytest.fixture(scope="module", name="tab")(obs_tab)


def png_size(data: bytes) -> tuple[int, int]:
    return struct.unpack(">II", data[16:24])


def test_mobile_viewport_changes_the_layout(obs: httpx.Client, emulated: str, pages: str) -> None:
    tab = emulated
    open_page(obs, tab, f"{pages}/observe.html")
    row = "getComputedStyle(document.getElementById('layout')).flexDirection"
    assert evaluate(obs, tab, row) == "row"
    res = obs.post(f"/tabs/{tab}/emulation/viewport",
                   json={"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    assert res.status_code == 200
    assert res.json() == {"tabId": tab, "width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True,
                          "touch": True, "status": "applied"}
    assert evaluate(obs, tab, row) == "column"
    assert evaluate(obs, tab, "[innerWidth, devicePixelRatio, navigator.maxTouchPoints > 0]") == [390, 3, True]
    obs.post(f"/tabs/{tab}/emulation/viewport", json={"width": 1024, "height": 768})
    assert evaluate(obs, tab, row) == "row"


def test_media_locale_timezone_user_agent_geolocation_offline(obs: httpx.Client, emulated: str, pages: str) -> None:
    tab = emulated
    on_page(obs, tab, f"{pages}/observe.html")  # the test before left it there
    res = obs.post("/emulation/media", json={"tabId": tab, "feature": "prefers-color-scheme", "value": "dark"}).json()
    assert res == {"tabId": tab, "feature": "prefers-color-scheme", "value": "dark", "status": "applied"}
    assert evaluate(obs, tab, "matchMedia('(prefers-color-scheme: dark)').matches") is True
    obs.post(f"/tabs/{tab}/emulation/timezone", json={"timezoneId": "Asia/Tokyo"})
    assert evaluate(obs, tab, "Intl.DateTimeFormat().resolvedOptions().timeZone") == "Asia/Tokyo"
    assert obs.post(f"/tabs/{tab}/emulation/timezone", json={"timezoneId": "Mars/Base"}).status_code == 400
    obs.post(f"/tabs/{tab}/emulation/locale", json={"locale": "de-DE"})
    assert evaluate(obs, tab, "(1234.5).toLocaleString()") == "1.234,5"
    obs.post(f"/tabs/{tab}/emulation/useragent", json={"userAgent": "PinchBot/1.0"})
    assert evaluate(obs, tab, "navigator.userAgent") == "PinchBot/1.0"
    res = obs.post(f"/tabs/{tab}/emulation/geolocation", json={"latitude": 51.5074, "longitude": -0.1278}).json()
    assert res["status"] == "applied" and res["latitude"] == 51.5074
    where = ("new Promise(r => navigator.geolocation.getCurrentPosition("
             "p => r([p.coords.latitude, p.coords.longitude]), e => r('denied: ' + e.message)))")
    assert evaluate(obs, tab, where) == [51.5074, -0.1278]
    res = obs.post(f"/tabs/{tab}/emulation/offline", json={"offline": True}).json()
    assert res["offline"] is True and res["status"] == "offline"
    assert evaluate(obs, tab, "fetch('data.json').then(() => 'ok', () => 'failed')") == "failed"
    assert obs.post(f"/tabs/{tab}/emulation/offline", json={"offline": False}).json()["status"] == "online"
    assert evaluate(obs, tab, "fetch('data.json').then(() => 'ok', () => 'failed')") == "ok"
    headers = obs.post(f"/tabs/{tab}/emulation/headers", json={"headers": {"X-Test": "yes"}}).json()
    assert headers == {"tabId": tab, "headers": ["X-Test"], "status": "applied"}
    evaluate(obs, tab, "fetch('data.json?h=1').then(r => r.status)")
    sent = obs.get(f"/tabs/{tab}/network", params={"filter": "h=1"}).json()["entries"][0]["requestHeaders"]
    assert sent["X-Test"] == "yes"


def test_emulate_many_at_once(obs: httpx.Client, emulated: str, pages: str) -> None:
    tab = emulated
    on_page(obs, tab, f"{pages}/observe.html")
    res = obs.post(f"/tabs/{tab}/emulation", json={"width": 500, "height": 700, "mobile": True,
                                                    "timezoneId": "Europe/Berlin", "colorScheme": "dark"})
    assert res.status_code == 200 and set(res.json()["applied"]) == {"viewport", "timezoneId", "colorScheme"}
    assert evaluate(obs, tab, "[innerWidth, matchMedia('(prefers-color-scheme: dark)').matches]") == [500, True]
    assert obs.post(f"/tabs/{tab}/emulation", json={}).status_code == 400
    assert obs.post(f"/tabs/{tab}/emulation", json={"width": 10}).status_code == 400


@pytest.mark.parametrize("path,body", [
    ("/emulation/viewport", {"width": 0, "height": 10}),
    ("/emulation/geolocation", {"latitude": 91, "longitude": 0}),
    ("/emulation/media", {"feature": "prefers-color-scheme"}),
    ("/emulation/headers", {"headers": {"X-Bad": "a\r\nb"}}),
])
def test_bad_emulation_is_400(obs: httpx.Client, emulated: str, pages: str, path: str, body: dict) -> None:
    tab = emulated
    on_page(obs, tab, f"{pages}/index.html")  # one load for the four cases
    assert obs.post(f"/tabs/{tab}{path}", json=body).status_code == 400


def test_timing_metrics_and_state(obs: httpx.Client, tab: str, pages: str) -> None:
    open_page(obs, tab, f"{pages}/images.html")
    timing = obs.get("/timing", params={"tabId": tab}).json()
    assert timing["tabId"] == tab and timing["ttfbMs"] > 0 and timing["loadMs"] >= timing["domContentLoadedMs"] > 0
    assert timing["resourceCount"] >= 1 and timing["lcpMs"] > 0 and "cls" in timing
    metrics = obs.get(f"/tabs/{tab}/metrics").json()
    assert metrics["tabId"] == tab and metrics["jsHeapUsedMB"] > 0 and metrics["nodes"] > 0
    state = obs.get(f"/tabs/{tab}/state").json()
    assert state["tabId"] == tab and state["load"]["readyState"] == "complete"
    assert state["actionability"] in ("ready", "caution") and state["dialogPresent"] is False
    assert obs.get("/tabs/nonexistent/state").status_code == 404
    assert obs.get("/timing", params={"tabId": "nonexistent"}).status_code == 404


def test_capture_pairs_image_and_snapshot(obs: httpx.Client, tab: str, pages: str, tmp_path: Path) -> None:
    open_page(obs, tab, f"{pages}/form.html")
    cap = obs.get(f"/tabs/{tab}/capture").json()
    assert cap["status"] == "ok" and cap["tabId"] == tab and cap["pairing"]["navigated"] is False
    assert cap["snapshot"]["filter"] == "interactive" and cap["image"]["coordinateSpace"] == "viewport"
    assert Path(cap["image"]["path"]).read_bytes()[:2] == b"\xff\xd8"
    boxed = [n for n in cap["snapshot"]["nodes"] if n.get("boundingBox")]
    assert boxed and all(n["visible"] for n in boxed)
    # The refs of the capture are the tab's refs: act on one.
    button = next(n for n in cap["snapshot"]["nodes"] if n["role"] == "button")
    assert obs.post("/action", json={"tabId": tab, "kind": "focus", "ref": button["ref"]}).status_code == 200
    again = obs.get("/capture", params={"tabId": tab, "withBounds": "false", "output": "inline", "format": "png"}).json()
    assert again["epoch"]["domEpoch"] != cap["epoch"]["domEpoch"]
    assert not any("boundingBox" in n for n in again["snapshot"]["nodes"])
    assert base64.b64decode(again["image"]["base64"])[:4] == b"\x89PNG"
    clip = obs.get(f"/tabs/{tab}/capture", params={"selector": "form", "output": "inline"}).json()
    assert clip["image"]["coordinateSpace"] == "clip" and clip["image"]["clip"]["width"] > 0
    assert min(n["boundingBox"]["y"] for n in clip["snapshot"]["nodes"] if n.get("boundingBox")) < 200


def test_capture_beyond_viewport_and_scaled_screenshots(obs: httpx.Client, tab: str, pages: str) -> None:
    open_page(obs, tab, f"{pages}/tall.html")
    cap = obs.get(f"/tabs/{tab}/capture", params={"beyondViewport": "true", "format": "png", "output": "inline"}).json()
    assert cap["image"]["coordinateSpace"] == "document"
    bottom = next(n for n in cap["snapshot"]["nodes"] if n["name"] == "Bottom")
    assert bottom["boundingBox"]["y"] >= 3000 and bottom["visible"] is False
    assert png_size(base64.b64decode(cap["image"]["base64"]))[1] >= 3000
    full = obs.get(f"/tabs/{tab}/screenshot", params={"raw": "true"}).content
    quarter = obs.get(f"/tabs/{tab}/screenshot", params={"raw": "true", "scale": 0.25}).content
    assert png_size(quarter)[0] * 4 == png_size(full)[0]
    element = obs.get(f"/tabs/{tab}/screenshot", params={"raw": "true", "selector": "#bottom"}).content
    assert png_size(element)[0] < 200
    assert obs.get(f"/tabs/{tab}/screenshot", params={"selector": "#nope"}).status_code == 404


def test_waits(obs: httpx.Client, tab: str, pages: str) -> None:
    open_page(obs, tab, f"{pages}/observe.html")
    wait = lambda **body: obs.post(f"/tabs/{tab}/wait", json={"timeout": 3000, **body}).json()  # noqa: E731
    assert wait(text="fetched ok")["waited"] is True
    assert wait(notText="waiting")["match"] == "!waiting"
    assert wait(url="**/observe.html")["waited"] is True
    assert wait(url="*/nowhere", timeout=300)["waited"] is False
    assert wait(load="ready-state")["match"] == "ready-state"
    assert wait(load="network-idle", idleFor=50)["waited"] is True
    assert wait(fn="document.title === 'Observe'")["waited"] is True
    evaluate(obs, tab, "setTimeout(() => document.getElementById('b').style.display = 'none', 200)")
    assert wait(selector="#b", state="hidden")["waited"] is True
    assert wait(selector="#a", state="visible")["waited"] is True
    assert wait(ms=50)["match"] == "50ms"
    assert obs.post(f"/tabs/{tab}/wait", json={"load": "whenever"}).status_code == 400
    assert wait(load="networkidle", idleFor=50)["match"] == "network-idle"  # PinchTab's legacy alias
    for renamed in ("load", "domcontentloaded"):  # PinchTab's pre-rename names: 400 there too
        res = obs.post(f"/tabs/{tab}/wait", json={"load": renamed})
        assert res.status_code == 400 and "ready-state" in res.json()["error"], res.text
    assert obs.post(f"/tabs/{tab}/wait", json={}).status_code == 400


def test_wait_fn_needs_evaluate(locked_bridge: str, pages: str) -> None:
    res = httpx.post(f"{locked_bridge}/wait", json={"fn": "true"}, timeout=30)
    assert res.status_code == 403 and res.json()["code"] == "evaluate_disabled"


def test_element_questions_by_ref_and_selector(obs: httpx.Client, tab: str, pages: str) -> None:
    open_page(obs, tab, f"{pages}/form.html")
    nodes = obs.get(f"/tabs/{tab}/snapshot", params={"filter": "interactive"}).json()["nodes"]
    news = next(n["ref"] for n in nodes if n["role"] == "checkbox" and "Newsletter" in n["name"])
    get = lambda path, **q: obs.get(f"/tabs/{tab}{path}", params=q)  # noqa: E731
    assert get("/count", selector="input[type=checkbox]").json() == {"selector": "input[type=checkbox]", "count": 2}
    assert get("/count", selector="xpath://input[@type='radio']").json()["count"] == 2
    assert get("/count", selector="first:input").json()["count"] == 1
    assert get("/count", selector="text:Save").json()["count"] == 1
    assert get("/count", selector=news).json()["count"] == 1
    assert get("/count", selector="e999999").json()["count"] == 0
    assert get("/checked", ref=news).json() == {"ref": news, "checked": False}
    assert get("/checked", ref="#alerts").json()["checked"] is True
    assert get("/attr", ref="#free", name="value").json() == {"ref": "#free", "name": "value", "value": "free"}
    assert get("/attr", ref="#free", name="nope").json()["value"] is None
    assert get("/box", ref="#save").json()["box"]["width"] > 0
    assert get("/visible", ref="#save").json()["visible"] is True
    assert get("/enabled", ref="#save").json()["enabled"] is True
    obs.post("/action", json={"tabId": tab, "kind": "fill", "selector": "#bio", "value": "hello"})
    assert get("/value", ref="#bio").json()["value"] == "hello"
    assert get("/visible", ref="#missing").status_code == 404
    assert get("/value").status_code == 400
    assert get("/count", selector="div[").status_code == 400


def test_clear_cookies(obs: httpx.Client, tab: str, pages: str) -> None:
    open_page(obs, tab, f"{pages}/index.html")
    obs.post(f"/tabs/{tab}/cookies", json={"cookies": [{"name": "a", "value": "1"}, {"name": "b", "value": "2"}]})
    assert obs.request("DELETE", f"/tabs/{tab}/cookies", params={"name": "a"}).json()["deleted"] == ["a"]
    names = [k["name"] for k in obs.get(f"/tabs/{tab}/cookies").json()["cookies"]]
    assert "b" in names and "a" not in names
    assert obs.request("DELETE", f"/tabs/{tab}/cookies").json() == {"status": "cleared", "tabId": tab}
    assert obs.get(f"/tabs/{tab}/cookies").json()["cookies"] == []
