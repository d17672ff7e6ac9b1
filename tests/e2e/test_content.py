"""Reading pages against a real Chromium: text, screenshots, PDFs, evaluate, cookies, waiting."""

from __future__ import annotations

import base64
import re
import time
from typing import Any

import httpx
import pytest

from tests.conftest import js, open_page, open_tab
from tests.e2e.test_actions import on_page, page_as_loaded

PNG = b"\x89PNG\r\n\x1a\n"
JPEG = b"\xff\xd8\xff"


# One tab for this module's tests (each opens the page it reads; none leaves a dialog, an
# emulation or a route behind). A test on login.html or table.html after one on it gets the page
# back by script instead of a new load (page_as_loaded): the tests of a page come one after another
# (evaluate's, on table.html, after text's; the wait that ends on another page after the
# other waits).
tab = pytest.fixture(scope="module", name="tab")(open_tab)


# -- text -----------------------------------------------------------------------------------------


def test_text_readable_raw_and_max_chars(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/login.html")
    readable = http.get(f"/tabs/{tab}/text").json()
    assert readable["url"] == f"{pages}/login.html" and readable["title"] == "Login"
    assert readable["text"].startswith("Welcome back")
    assert "Log in" in readable["text"]
    # page chrome (nav, footer) is not main content
    assert "Terms of Service" not in readable["text"] and "Home" not in readable["text"]
    assert "truncated" not in readable
    raw = http.get("/text", params={"tabId": tab, "mode": "raw"}).json()["text"]
    assert "Terms of Service" in raw and "Home" in raw and "Welcome back" in raw
    assert raw.index("Home") < raw.index("Welcome back") < raw.index("Terms of Service")  # page order
    cut = http.get(f"/tabs/{tab}/text", params={"maxChars": 12}).json()
    assert cut["text"] == readable["text"][:12] and cut["truncated"] is True
    res = http.get(f"/tabs/{tab}/text", params={"maxChars": 0})
    assert res.status_code == 400


def test_text_follows_the_page(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/table.html")
    text = http.get(f"/tabs/{tab}/text").json()["text"]
    assert "Grace Hopper" in text and "analytical engines" in text
    js(http, tab, "document.getElementById('editing').textContent = 'Editing Ada'")
    assert "Editing Ada" in http.get(f"/tabs/{tab}/text").json()["text"]
    assert "<" not in text  # text, not HTML


# -- evaluate -------------------------------------------------------------------------------------


# The locked-down bridge is asked through the session's client with absolute URLs (it overrides
# the client's base URL): a client of its own costs ~0.05 s of CPU to build (its TLS context).


def test_evaluate_is_disabled_by_default(http: httpx.Client, locked_bridge: str) -> None:
    tab = http.post(f"{locked_bridge}/tab", json={"action": "new"}).json()["tabId"]
    res = http.post(f"{locked_bridge}/tabs/{tab}/evaluate", json={"expression": "document.title = 'pwned'"})
    assert res.status_code == 403
    assert res.json()["code"] == "evaluate_disabled" and "allowEvaluate" in res.json()["error"]
    res = http.post(f"{locked_bridge}/evaluate", json={"expression": "1"})
    assert res.status_code == 403
    assert http.get(f"{locked_bridge}/tabs/{tab}/snapshot").json()["title"] == ""  # nothing ran
    http.post(f"{locked_bridge}/tabs/{tab}/close")


def test_evaluate_and_values_json_cannot_hold(http: httpx.Client, tab: str, pages: str) -> None:
    """Evaluate, and values JSON cannot hold, on one load of table.html."""
    # evaluate
    page_as_loaded(http, tab, f"{pages}/table.html")  # the text tests left it there

    def ev(expression: str) -> httpx.Response:
        return http.post(f"/tabs/{tab}/evaluate", json={"expression": expression})

    assert ev("1 + 2").json() == {"result": 3}
    assert ev("document.title").json() == {"result": "Team table"}
    assert ev("({a: [1, 'two', null], b: {c: true}})").json() == {"result": {"a": [1, "two", None], "b": {"c": True}}}
    assert ev("undefined").json() == {"result": None}
    assert ev("new Promise(r => setTimeout(() => r('later'), 50))").json() == {"result": "later"}
    # page globals are visible: evaluate runs in the page's world
    assert ev("typeof edit").json() == {"result": "function"}
    assert ev("window.x = 41; x + 1").json() == {"result": 42}
    # evaluate values json cannot hold (the same load)

    def result(expression: str) -> Any:
        res = http.post(f"/tabs/{tab}/evaluate", json={"expression": expression})
        assert res.status_code == 200, res.text
        return res.json()["result"]

    # not a browser failure: the value is described instead
    assert result("window") == "Window"
    assert result("(() => { const a = {n: 1}; a.self = a; return a; })()") == "Object"
    assert result("Symbol('tag')") == "Symbol(tag)"
    assert result("document.querySelector('h1')") == "h1"
    assert result("() => 1") == "() => 1"
    assert result("NaN") == "NaN" and result("10n ** 20n") == "100000000000000000000n"
    # the expression ran once, even when its value needed a second look
    assert result("window.runs = (window.runs || 0) + 1; window") == "Window"
    assert result("window.runs") == 1


@pytest.mark.parametrize(("expression", "mentions"), [
    ("throw new Error('nope')", "nope"),
    ("null.foo", "TypeError"),
    ("this is not javascript", "SyntaxError"),
    ("Promise.reject(new Error('async nope'))", "async nope"),
])
def test_evaluate_errors_answer_400(http: httpx.Client, tab: str, expression: str, mentions: str) -> None:
    res = http.post(f"/tabs/{tab}/evaluate", json={"expression": expression})
    assert res.status_code == 400, res.text
    assert res.json()["code"] == "evaluate_error" and mentions in res.json()["error"]
    assert "    at " not in res.json()["error"]  # no JavaScript stack either
    assert js(http, tab, "'still fine'") == "still fine"


def test_evaluate_validation(http: httpx.Client, tab: str) -> None:
    assert http.post(f"/tabs/{tab}/evaluate", json={}).json()["code"] == "missing_expression"
    assert http.post(f"/tabs/{tab}/evaluate", json={"expression": ""}).status_code == 400
    assert http.post(f"/tabs/{tab}/evaluate", json={"expression": 5}).status_code == 400


# -- screenshots ----------------------------------------------------------------------------------


def test_screenshot_png(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/login.html")
    body = http.get(f"/tabs/{tab}/screenshot").json()
    assert body["format"] == "png"
    data = base64.b64decode(body["base64"])
    assert data.startswith(PNG)
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == tuple(js(http, tab, "[innerWidth, innerHeight]"))
    raw = http.get(f"/tabs/{tab}/screenshot", params={"raw": "true"})
    assert raw.status_code == 200 and raw.headers["content-type"] == "image/png"
    assert raw.content.startswith(PNG)


def test_screenshot_jpeg_and_quality(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/large.html")
    body = http.get("/screenshot", params={"tabId": tab, "format": "jpeg"}).json()
    assert body["format"] == "jpeg" and base64.b64decode(body["base64"]).startswith(JPEG)
    low = http.get(f"/tabs/{tab}/screenshot", params={"quality": 5, "raw": "true"})
    high = http.get(f"/tabs/{tab}/screenshot", params={"quality": 95, "raw": "true"})
    assert low.headers["content-type"] == high.headers["content-type"] == "image/jpeg"
    assert low.content.startswith(JPEG) and high.content.startswith(JPEG)
    assert len(low.content) < len(high.content) / 2
    assert http.get(f"/tabs/{tab}/screenshot", params={"quality": 101}).status_code == 400
    assert http.get(f"/tabs/{tab}/screenshot", params={"format": "gif"}).status_code == 400


def test_full_page_screenshot_is_taller(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/buttons.html")
    data = http.get(f"/tabs/{tab}/screenshot", params={"fullPage": "true", "raw": "true"}).content
    assert data.startswith(PNG)
    height = int.from_bytes(data[20:24], "big")
    assert height == js(http, tab, "document.documentElement.scrollHeight") > js(http, tab, "innerHeight")


# -- pdf ------------------------------------------------------------------------------------------


def pdf_info(data: bytes) -> tuple[int, list[bytes]]:
    assert data.startswith(b"%PDF-")
    pages = len(re.findall(rb"/Type\s*/Page\b", data))
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 (\d+) (\d+)\s*\]", data)
    return pages, boxes


# print.html: four plain printed pages (large.html printed 7 pages of controls, ~3 s a PDF on the loaded machine)


def test_pdf_get_and_post(http: httpx.Client, tab: str, pages: str) -> None:
    """PDFs through GET and POST, on one load of print.html."""
    # pdf get
    open_page(http, tab, f"{pages}/print.html")
    portrait, boxes = pdf_info(base64.b64decode(http.get(f"/tabs/{tab}/pdf").json()["base64"]))
    assert portrait > 2 and boxes[0] == (b"612", b"792")
    landscape, boxes = pdf_info(base64.b64decode(http.get("/pdf", params={"tabId": tab, "landscape": "true"}).json()["base64"]))
    assert boxes[0] == (b"792", b"612")
    small, _ = pdf_info(base64.b64decode(http.get(f"/tabs/{tab}/pdf", params={"scale": 0.5}).json()["base64"]))
    assert small < portrait
    two, _ = pdf_info(base64.b64decode(http.get(f"/tabs/{tab}/pdf", params={"pageRanges": "1-2"}).json()["base64"]))
    assert two == 2
    raw = http.get(f"/tabs/{tab}/pdf", params={"raw": "true"})
    assert raw.headers["content-type"] == "application/pdf" and raw.content.startswith(b"%PDF-")
    # pdf post (the same load)
    res = http.post(f"/tabs/{tab}/pdf", json={"landscape": True, "pageRanges": "1", "scale": 0.8})
    assert res.status_code == 200, res.text
    count, boxes = pdf_info(base64.b64decode(res.json()["base64"]))
    assert count == 1 and boxes[0] == (b"792", b"612")
    res = http.post("/pdf", json={"tabId": tab, "raw": True})
    assert res.headers["content-type"] == "application/pdf" and res.content.startswith(b"%PDF-")
    res = http.post(f"/tabs/{tab}/pdf")  # no body: defaults
    assert res.status_code == 200 and base64.b64decode(res.json()["base64"]).startswith(b"%PDF-")


def test_pdf_bad_page_ranges(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/login.html")  # one printed page; one load for the four cases
    for ranges in ("abc", "3-1", "99", "1-2-3"):
        res = http.get(f"/tabs/{tab}/pdf", params={"pageRanges": ranges})
        assert res.status_code == 400, res.text
        assert res.json()["code"] == "bad_page_ranges" and ranges in res.json()["error"]
        # the tab is fine afterwards
        assert http.get(f"/tabs/{tab}/pdf").status_code == 200


def test_pdf_bad_scale(http: httpx.Client, tab: str) -> None:
    assert http.get(f"/tabs/{tab}/pdf", params={"scale": 5}).status_code == 400
    assert http.post(f"/tabs/{tab}/pdf", json={"scale": 0}).status_code == 400


# -- cookies --------------------------------------------------------------------------------------


def test_cookies_are_disabled_by_default(http: httpx.Client, locked_bridge: str, pages: str) -> None:
    tab = http.post(f"{locked_bridge}/tab", json={"action": "new", "url": f"{pages}/login.html"}).json()["tabId"]
    res = http.get(f"{locked_bridge}/tabs/{tab}/cookies")
    assert res.status_code == 403 and res.json()["code"] == "cookies_disabled"
    res = http.post(f"{locked_bridge}/tabs/{tab}/cookies", json={"cookies": [{"name": "a", "value": "1"}]})
    assert res.status_code == 403 and res.json()["code"] == "cookies_disabled"
    http.post(f"{locked_bridge}/tabs/{tab}/close")


def test_cookies_round_trip(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/login.html")
    res = http.post(f"/tabs/{tab}/cookies", json={"cookies": [
        {"name": "session", "value": "abc123"},
        {"name": "secret", "value": "s", "httpOnly": True, "sameSite": "Strict"},
    ]})
    assert res.status_code == 200, res.text
    assert res.json() == {"set": 2}
    cookies = {c["name"]: c for c in http.get(f"/tabs/{tab}/cookies").json()["cookies"]}
    assert cookies["session"]["value"] == "abc123"
    assert cookies["session"]["domain"] == "127.0.0.1" and cookies["session"]["path"] == "/"
    assert {"name", "value", "domain", "path", "expires", "httpOnly", "secure"} <= set(cookies["session"]) <= {
        "name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite"}
    assert cookies["session"]["httpOnly"] is False and cookies["session"]["secure"] is False
    assert cookies["secret"]["httpOnly"] is True and cookies["secret"]["sameSite"] == "Strict"
    # the page sees the cookie it may see, and not the httpOnly one
    page_cookies = js(http, tab, "document.cookie")
    assert "session=abc123" in page_cookies and "secret" not in page_cookies
    # cookies the page sets show up too
    js(http, tab, "document.cookie = 'fromPage=yes; path=/'")
    names = {c["name"] for c in http.get("/cookies", params={"tabId": tab}).json()["cookies"]}
    assert {"session", "secret", "fromPage"} <= names


def test_cookies_for_another_url(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/login.html")
    res = http.post("/cookies", json={"tabId": tab, "url": "https://example.test/app",
                                      "cookies": [{"name": "elsewhere", "value": "1", "secure": True}]})
    assert res.json() == {"set": 1}
    names = {c["name"] for c in http.get(f"/tabs/{tab}/cookies", params={"url": "https://example.test/app"}).json()["cookies"]}
    assert "elsewhere" in names
    assert "elsewhere" not in {c["name"] for c in http.get(f"/tabs/{tab}/cookies").json()["cookies"]}


def test_cookies_errors(http: httpx.Client, tab: str, pages: str) -> None:
    # about:blank has no URL to put a cookie on
    open_page(http, tab, "about:blank")
    res = http.post(f"/tabs/{tab}/cookies", json={"cookies": [{"name": "a", "value": "1"}]})
    assert res.status_code == 400 and res.json()["code"] == "cookie_url_required"
    page_as_loaded(http, tab, f"{pages}/login.html")
    assert http.post(f"/tabs/{tab}/cookies", json={"cookies": []}).status_code == 400
    assert http.post(f"/tabs/{tab}/cookies", json={"cookies": [{"name": "a"}]}).status_code == 400
    res = http.post(f"/tabs/{tab}/cookies", json={"cookies": [{"name": "a", "value": "1", "sameSite": "Sometimes"}]})
    assert res.status_code == 400


# -- wait -----------------------------------------------------------------------------------------


def test_wait_times_out_and_is_capped(http: httpx.Client, tab: str, pages: str,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Waits that time out, the one asked for more than the cap at the cap, on one load of login.html."""
    # wait times out
    page_as_loaded(http, tab, f"{pages}/login.html")
    started = time.monotonic()
    body = http.post(f"/tabs/{tab}/wait", json={"selector": "#never", "timeout": 400}).json()
    assert body["present"] is False
    # Upper bounds only tell an answer at the timeout from a hang (a loaded machine is slow, not wrong).
    assert 400 <= body["elapsedMs"] < 10_000
    assert time.monotonic() - started < 10
    body = http.post(f"/tabs/{tab}/wait", json={"text": "never ever", "timeout": 0}).json()
    assert body["present"] is False and body["elapsedMs"] < 5000
    # wait timeout is capped at 30s (the same load): asked for 60 s, the wait ends at the cap, 30 s.
    # The session bridge runs in this process: a 0.3 s cap instead (waiting 30 s held a worker for
    # 30 s) takes the same path.
    from pinchtab.models import core

    assert core.MAX_WAIT_MS == 30000
    cap = 300
    monkeypatch.setattr(core, "MAX_WAIT_MS", cap)  # read as a request is validated
    started = time.monotonic()
    res = http.post(f"/tabs/{tab}/wait", json={"selector": "#never-there", "timeout": 60000})
    seconds = time.monotonic() - started
    assert res.status_code == 200
    assert res.json()["present"] is False
    assert cap <= res.json()["elapsedMs"] < cap + 10_000  # at the cap, far from the 60 s asked for
    assert seconds < cap / 1000 + 10


def test_wait_errors(http: httpx.Client, tab: str) -> None:
    # refused before the page is read: whatever page the tab shows
    res = http.post(f"/tabs/{tab}/wait", json={"timeout": 100})
    assert res.status_code == 400 and res.json()["code"] == "missing_condition"
    res = http.post(f"/tabs/{tab}/wait", json={"selector": "div[", "timeout": 100})
    assert res.status_code == 400 and res.json()["code"] == "bad_selector"
    res = http.post(f"/tabs/{tab}/wait", json={"selector": "#x", "timeout": "soon"})
    assert res.status_code == 400


def test_endless_script_is_stopped_and_the_tab_lives_on(http: httpx.Client, tab: str, pages: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import time as _time

    from pinchtab.browser.content import reading

    # The session bridge runs in this process: a 0.3 s limit instead of the 10 s one (the script
    # spins a core until stopped) takes the same path.
    monkeypatch.setattr(reading, "EVALUATE_TIMEOUT_MS", 300)
    page_as_loaded(http, tab, f"{pages}/login.html")
    start = _time.monotonic()
    res = http.post(f"/tabs/{tab}/evaluate", json={"expression": "while (true) {}"})
    assert res.status_code == 504, res.text
    assert res.json()["code"] == "evaluate_timeout"
    assert _time.monotonic() - start < 25
    assert js(http, tab, "document.title") == "Login"


def test_waits_for_what_comes_later(http: httpx.Client, tab: str, pages: str) -> None:
    """Waits for an element, a text, both, and a text after a navigation, on one load of login.html."""
    # wait for selector inserted later
    page_as_loaded(http, tab, f"{pages}/login.html")
    js(http, tab, "setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<div id=\"late\">Late arrival</div>'), 400)")
    res = http.post(f"/tabs/{tab}/wait", json={"selector": "#late", "timeout": 10000})
    assert res.status_code == 200
    body = res.json()
    # No bound on elapsedMs: on a loaded machine the wait can arrive after the 400 ms (it then finds
    # the element at once, which is as right).
    assert body["present"] is True and isinstance(body["elapsedMs"], int) and body["elapsedMs"] >= 0
    assert js(http, tab, "document.querySelector('#late').textContent") == "Late arrival"
    assert js(http, tab, "!!document.getElementById('late')") is True
    # wait for text (the same load)
    js(http, tab, "setTimeout(() => document.getElementById('status').textContent = 'All systems go', 300)")
    body = http.post("/wait", json={"tabId": tab, "text": "All systems go", "timeout": 10000}).json()
    assert body["present"] is True  # no lower bound: at load the wait can arrive after the 300 ms
    assert js(http, tab, "document.getElementById('status').textContent") == "All systems go"
    # already there: answers at once
    body = http.post(f"/tabs/{tab}/wait", json={"text": "Welcome back"}).json()
    assert body["present"] is True and body["elapsedMs"] < 5000  # not the 30 s default timeout
    # wait for selector and text together (the same load)
    js(http, tab, "setTimeout(() => document.getElementById('status').textContent = 'Ready', 300)")
    body = http.post(f"/tabs/{tab}/wait", json={"selector": "#status", "text": "Ready", "timeout": 10000}).json()
    assert body["present"] is True  # no lower bound: at load the wait can arrive after the 300 ms
    assert js(http, tab, "document.getElementById('status').textContent") == "Ready"
    # wait survives a navigation (the same load)
    js(http, tab, f"setTimeout(() => location.href = '{pages}/table.html', 200)")
    body = http.post(f"/tabs/{tab}/wait", json={"text": "Grace Hopper", "timeout": 5000}).json()
    assert body["present"] is True


def test_a_background_tab_can_be_captured(http: httpx.Client, tab: str, pages: str) -> None:
    # Headless Chromium paints only the tab in front; a capture of another one used to hang 30 s.
    first = tab  # the module's tab, behind a new one
    on_page(http, first, f"{pages}/table.html")  # where the test before left it: any page serves
    second = http.post("/tab", json={"action": "new", "url": f"{pages}/login.html"}).json()["tabId"]
    try:
        res = http.get(f"/tabs/{first}/screenshot", params={"raw": "true"}, timeout=20)
        assert res.status_code == 200, res.text
        assert res.content.startswith(b"\x89PNG")
    finally:
        http.post(f"/tabs/{second}/close")
