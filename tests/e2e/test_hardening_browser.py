"""Issue 16 on a real Chromium: the browser's own pages stay shut, input is bounded and checked,
downloads are refused by default. Uses the shared bridge of tests/conftest.py (one tab for the
module's tests), and one bridge of its own for what needs another config (downloads allowed, a tab
cap, a crash), for a blank tab (its browser's first, where a blank tab is the point) and for the
keyboard shortcuts that open browser pages: the full browser's (the default headless shell has none)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import ServerThread, open_page, open_tab
from tests.fixtures.harness import free_port


tab = pytest.fixture(scope="module", name="tab")(open_tab)


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, Any, Path]]:
    """A bridge on the full browser (browser.headlessShell false) with downloads allowed into its
    own state dir; its client, browser and state dir. The crash test, which kills its Chromium, is
    the last to use it."""
    from pinchtab.bridge.app import create_app
    from pinchtab.config import load_config

    state = tmp_path_factory.mktemp("hardening-state")
    config = load_config({"server": {"stateDir": str(state)}, "security": {"allowDownload": True},
                          "browser": {"headlessShell": False}}, environ={})
    with ServerThread(create_app(config), free_port()) as server, httpx.Client(base_url=server.url, timeout=60) as c:
        yield c, server.server.config.app.state.browser, state


@contextmanager
def tab_cap(own: tuple[httpx.Client, Any, Path], policy: str) -> Iterator[httpx.Client]:
    """``own`` with at most three tabs open (those earlier tests left: fewer new ones to open) and
    browser.maxTabs = 3, browser.tabEviction = ``policy``: set on its live config, which the bridge
    reads at each new tab, and put back afterwards."""
    c, browser, _ = own
    for extra in c.get("/tabs").json()["tabs"][3:]:
        assert c.post(f"/tabs/{extra['id']}/close").status_code == 200
    settings = browser.config.browser
    saved = settings.max_tabs, settings.tab_eviction
    settings.max_tabs, settings.tab_eviction = 3, policy
    try:
        yield c
    finally:
        settings.max_tabs, settings.tab_eviction = saved


def press(http: httpx.Client, tab: str, key: str) -> dict[str, Any]:
    res = http.post(f"/tabs/{tab}/action", json={"kind": "press", "key": key})
    assert res.status_code == 200, res.text
    return res.json()


def ui_tabs(http: httpx.Client) -> list[str]:
    urls = [t["url"] for t in http.get("/tabs").json()["tabs"]]
    return [u for u in urls if u.startswith(("chrome", "view-source:", "devtools:"))]


def test_control_h_on_a_blank_tab_takes_it_back(own: tuple[httpx.Client, Any, Path]) -> None:
    # On the active about:blank tab, Chromium shows history in the same tab: the tab comes back,
    # it is not lost. The tab: the first of the module's own browser, blank since it started (a
    # new tab of the session bridge cost ~0.4 s of Chromium's CPU).
    http = own[0]
    (tab,) = [t["id"] for t in http.get("/tabs").json()["tabs"]]
    assert http.get(f"/tabs/{tab}/text").json()["url"] == "about:blank"
    assert http.post("/tab", json={"action": "focus", "tabId": tab}).status_code == 200
    out = press(http, tab, "Control+h")
    assert out.get("blockedBrowserPages"), out
    deadline = time.monotonic() + 10  # hidden while it shows the browser page, listed once back
    while time.monotonic() < deadline and tab not in {t["id"] for t in http.get("/tabs").json()["tabs"]}:
        time.sleep(0.1)
    listed = {t["id"]: t["url"] for t in http.get("/tabs").json()["tabs"]}
    assert listed.get(tab) == "about:blank", listed
    assert http.get(f"/tabs/{tab}/snapshot").status_code == 200


@pytest.mark.parametrize("key, opens", [
    ("Control+h", "chrome://history"),
    ("Control+u", "view-source:"),
    ("Control+t", "chrome://newtab"),
])
def test_shortcuts_cannot_open_browser_pages(own: tuple[httpx.Client, Any, Path], pages: str, key: str,
                                             opens: str) -> None:
    http = own[0]
    tab = http.get("/tabs").json()["tabs"][0]["id"]  # the first tab, given back by the test above
    open_page(http, tab, f"{pages}/index.html")
    before = len(http.get("/tabs").json()["tabs"])
    out = press(http, tab, key)
    assert any(u.startswith(opens) for u in out.get("blockedBrowserPages", [])), out
    assert "not exposed" in out["warning"]
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and (ui_tabs(http) or len(http.get("/tabs").json()["tabs"]) != before):
        time.sleep(0.1)
    assert not ui_tabs(http)
    assert len(http.get("/tabs").json()["tabs"]) == before
    # The agent's tab still shows its page and answers.
    snap = http.get(f"/tabs/{tab}/snapshot", params={"format": "compact"})
    assert snap.status_code == 200 and "Fixture" in snap.text or "Index" in snap.text, snap.text[:200]


# -- downloads ------------------------------------------------------------------------------------


def test_a_download_is_refused_at_once_by_default(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/index.html")
    started = time.monotonic()
    res = http.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/attachment.bin"})
    assert time.monotonic() - started < 5  # it used to wait out the 30 s navigation timeout
    assert res.status_code == 403, res.text
    body = res.json()
    assert body["code"] == "download_disabled" and "security.allowDownload" in body["error"]
    assert body["tabId"] == tab and body["url"].endswith("/index.html")
    assert http.get(f"/tabs/{tab}/snapshot").status_code == 200


def test_allowed_downloads_land_in_the_state_dir_only(own: tuple[httpx.Client, Any, Path], pages: str) -> None:
    c, _, state = own
    res = c.post("/navigate", json={"url": f"{pages}/attachment.bin"})
    assert res.status_code == 200, res.text
    download = res.json()["download"]
    assert download["status"] == "started" and download["directory"] == str(state / "downloads")
    folder = state / "downloads"  # files are named by Chromium's download id (GET /downloads)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not [f for f in folder.iterdir() if f.is_file() and f.stat().st_size]:
        time.sleep(0.1)
    saved = [f for f in folder.iterdir() if f.is_file()]
    assert len(saved) == 1 and saved[0].read_bytes().startswith(b"pinchtab download fixture")


# -- bounded work ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path, body, field, cap", [
    ("find", {"query": "login button " * 5000}, "query", "1,000"),
    ("action", {"kind": "click", "selector": "div " * 2000}, "selector", "4,096"),
    ("action", {"kind": "type", "selector": "input", "text": "x" * 100_001}, "text", "100,000"),
    ("wait", {"selector": "#x" * 3000}, "selector", "4,096"),
    ("navigate", {"url": "about:blank", "waitSelector": "a" * 5000}, "waitSelector", "4,096"),
])
def test_strings_that_drive_work_are_capped(http: httpx.Client, tab: str, path: str, body: dict[str, Any],
                                            field: str, cap: str) -> None:
    started = time.monotonic()
    res = http.post(f"/tabs/{tab}/{path}", json=body)
    assert time.monotonic() - started < 5
    assert res.status_code == 400, res.text
    assert res.json()["code"] == "too_long" and field in res.json()["error"] and cap in res.json()["error"]


def test_long_text_is_typed_in_one_step(http: httpx.Client, tab: str, pages: str) -> None:
    from tests.conftest import js

    open_page(http, tab, f"{pages}/form.html")
    text = "The quick brown fox. " * 500  # 10,500 characters: key by key this took 34 s and ended 504
    started = time.monotonic()
    res = http.post(f"/tabs/{tab}/action", json={"kind": "type", "selector": "textarea, input[type=text]", "text": text})
    assert res.status_code == 200, res.text
    assert time.monotonic() - started < 5
    assert js(http, tab, "document.activeElement.value.length") == len(text)


# -- input validation -----------------------------------------------------------------------------


def test_coordinates_outside_the_page_are_refused_and_the_tab_stays_usable(http: httpx.Client, tab: str,
                                                                           pages: str) -> None:
    open_page(http, tab, f"{pages}/buttons.html")
    started = time.monotonic()
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "x": 1e308, "y": 1e308})
    assert res.status_code == 400 and time.monotonic() - started < 10  # was 504 after 30 s, then a stuck tab
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "x": 5000, "y": 10})
    assert res.status_code == 400 and res.json()["code"] == "point_outside_viewport", res.text
    assert "1280x800" in res.json()["error"] or "x" in res.json()["error"]
    for _ in range(3):
        ok = http.post(f"/tabs/{tab}/action", json={"kind": "click", "x": 5, "y": 5})
        assert ok.status_code == 200, ok.text
    assert http.post(f"/tabs/{tab}/action", json={"kind": "press", "key": "Tab"}).status_code == 200


def test_lax_types_are_refused_on_a_live_bridge(http: httpx.Client, tab: str, pages: str) -> None:
    res = http.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/index.html", "timeout": True})
    assert res.status_code == 400 and "timeout" in res.json()["error"]
    res = http.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/index.html", "newTab": "yes"})
    assert res.status_code == 400 and "newTab" in res.json()["error"]


def test_tabs_per_browser_are_capped(own: tuple[httpx.Client, Any, Path], pages: str) -> None:
    with tab_cap(own, "reject") as c:
        while len(c.get("/tabs").json()["tabs"]) < 3:
            assert c.post("/tab", json={"action": "new"}).status_code == 200
        res = c.post("/tab", json={"action": "new"})
        assert res.status_code == 429 and res.json()["code"] == "tab_limit" and "browser.maxTabs" in res.json()["error"]
        assert c.post("/navigate", json={"url": f"{pages}/index.html", "newTab": True}).status_code == 429
        some = c.get("/tabs").json()["tabs"][0]["id"]
        assert c.post(f"/tabs/{some}/navigate", json={"url": f"{pages}/index.html"}).status_code == 200  # an open tab


@pytest.mark.parametrize("policy", ["close_lru", "close_oldest"])
def test_a_tab_at_the_cap_closes_an_idle_one(own: tuple[httpx.Client, Any, Path], pages: str, policy: str) -> None:
    with tab_cap(own, policy) as c:
        while len(c.get("/tabs").json()["tabs"]) < 3:
            assert c.post("/tab", json={"action": "new"}).status_code == 200
        order = [t["id"] for t in c.get("/tabs").json()["tabs"]]
        oldest = order[0]
        assert c.post(f"/tabs/{oldest}/navigate", json={"url": f"{pages}/index.html"}).status_code == 200  # now the most used
        new = c.post("/navigate", json={"url": f"{pages}/login.html"})
        assert new.status_code == 200, new.text
        left = {t["id"] for t in c.get("/tabs").json()["tabs"]}
        assert len(left) == 3 and new.json()["tabId"] in left
        if policy == "close_oldest":
            assert oldest not in left
        else:
            assert oldest in left  # it was used last: another, idle longer, went


# -- supervision ----------------------------------------------------------------------------------


def test_a_crash_reopens_tabs_under_their_old_ids_and_a_deliberate_restart_is_no_crash(
        own: tuple[httpx.Client, Any, Path], pages: str) -> None:
    import os
    import signal

    c, browser, _ = own
    # A deliberate restart (of the browser holding the tabs the cap tests left) is not a crash: no
    # lastDeath, no 503 for the next request.
    assert c.post("/browser/restart").status_code == 200
    health = c.get("/health").json()
    assert health["status"] == "ok" and "lastDeath" not in health, health
    tabs = c.get("/tabs")
    assert tabs.status_code == 200
    (login,) = [t["id"] for t in tabs.json()["tabs"]]  # the new browser's blank tab
    assert c.post("/navigate", json={"url": f"{pages}/login.html", "tabId": login}).status_code == 200
    table = c.post("/navigate", json={"url": f"{pages}/table.html", "newTab": True}).json()["tabId"]

    os.killpg(browser.process.pid, signal.SIGKILL)  # a crash
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        res = c.get(f"/tabs/{table}/snapshot", params={"format": "compact"})
        if res.status_code == 200:
            break
        assert res.status_code == 503, res.text
        time.sleep(0.2)
    assert "Team table" in res.text
    assert c.get(f"/tabs/{login}/text").json()["title"] == "Login"
    assert c.post(f"/tabs/{login}/find", json={"query": "log in button"}).json()["best_ref"]
    urls = {t["url"] for t in c.get("/tabs").json()["tabs"]}
    assert f"{pages}/login.html" in urls and f"{pages}/table.html" in urls
    assert c.get("/health").json()["lastDeath"].startswith("Chromium exited")


def test_redirects_to_urls_the_browser_will_not_load_answer_at_once(http: httpx.Client, tab: str) -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Redirect(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            where = {"/js": "javascript:alert(1)", "/vs": "view-source:http://127.0.0.1/"}.get(self.path, "/")
            self.send_response(302)
            self.send_header("Location", where)
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for path in ("/js", "/vs"):
            started = time.monotonic()
            res = http.post(f"/tabs/{tab}/navigate", json={"url": f"http://127.0.0.1:{server.server_address[1]}{path}"})
            assert time.monotonic() - started < 5  # it waited out the whole navigation timeout (504)
            assert res.status_code == 500 and res.json()["code"] == "navigation_aborted", res.text
        assert http.get(f"/tabs/{tab}/snapshot").status_code == 200
    finally:
        server.shutdown()
