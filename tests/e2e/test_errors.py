"""Bad input, auth, concurrency, dialogs and a dying Chromium: the bridge answers and recovers."""

from __future__ import annotations

import base64
import contextlib
import os
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import ServerThread, free_port, js, open_page, open_tab, ref_of, snap
from tests.fixtures.harness import PAGES


def new_tab(client: httpx.Client, url: str | None = None) -> str:
    res = client.post("/tab", json={"action": "new", **({"url": url} if url else {})})
    assert res.status_code == 200, res.text
    return res.json()["tabId"]


def some_tab(client: httpx.Client, url: str | None = None) -> str:
    """A tab the bridge has open (its browser's first one, or one an earlier test left), on
    ``url`` when given: for the tests of the module's own bridge that only need a page, not a new tab (a new
    tab, with its renderer, costs ~0.4 s of Chromium's CPU, a navigation ~0.15 s)."""
    tabs = client.get("/tabs").json()["tabs"]
    assert tabs, "the bridge has no tab open"
    if url:
        open_page(client, tabs[0]["id"], url)
    return tabs[0]["id"]


def show(client: httpx.Client, tab: str, url: str) -> None:
    """``tab`` on ``url``, loaded unless it shows it already: for a test that needs the page, not
    a fresh load of it (a navigation is ~0.15 s of Chromium's CPU, a look at /tabs next to nothing)."""
    if not any(t["id"] == tab and t["url"] == url for t in client.get("/tabs").json()["tabs"]):
        open_page(client, tab, url)


def start_app(*, token: str, state_dir: Path, **browser: Any) -> ServerThread:
    """A bridge of its own, served in this process (so the test can reach its Chromium)."""
    from pinchtab.bridge.app import create_app
    from pinchtab.config import load_config

    overrides: dict[str, Any] = {"security": {"allowEvaluate": True, "allowDownload": True}, "browser": browser,
                                 "server": {"token": token, "stateDir": str(state_dir)}}
    return ServerThread(create_app(load_config(overrides, environ={})), free_port())


def assert_error(res: httpx.Response, status: int, code: str | None = None) -> dict[str, Any]:
    assert res.status_code == status, res.text
    assert res.headers["content-type"].startswith("application/json"), res.headers
    body = res.json()
    assert set(body) >= {"error", "code"} and body["error"], body
    if code:
        assert body["code"] == code, body
    assert "Traceback" not in res.text and "<html" not in res.text.lower()
    return body


# -- bad input ------------------------------------------------------------------------------------


# One tab for the module's tests on the session bridge: every request of the bad-input tests is
# refused, so none changes it, and every other test opens its page first. A second one for the
# tests that need two tabs; the test about a tab with no history is its first user (a new tab
# with its renderer costs ~0.4 s of Chromium's CPU, a navigation ~0.15 s).
tab = pytest.fixture(scope="module", name="tab")(open_tab)
other = pytest.fixture(scope="module", name="other")(open_tab)

POST_ROUTES = ["navigate", "action", "actions", "evaluate", "wait", "cookies", "pdf"]


@pytest.mark.parametrize("route", POST_ROUTES)
def test_invalid_json(http: httpx.Client, tab: str, route: str) -> None:
    for path in (f"/{route}", f"/tabs/{tab}/{route}"):
        res = http.post(path, content=b'{"url": "x",', headers={"content-type": "application/json"})
        assert_error(res, 400, "invalid_json")
    res = http.post("/tab", content=b"{nope")
    assert_error(res, 400, "invalid_json")


@pytest.mark.parametrize("body", [b"[]", b"[1, 2]", b'"a string"', b"12", b"true", b"null"])
def test_non_object_bodies(http: httpx.Client, tab: str, body: bytes) -> None:
    for route in ("navigate", "action", "evaluate", "wait", "tab"):
        path = "/tab" if route == "tab" else f"/tabs/{tab}/{route}"
        assert_error(http.post(path, content=body), 400, "invalid_body")


def test_missing_fields(http: httpx.Client, tab: str) -> None:
    assert_error(http.post(f"/tabs/{tab}/navigate", json={}), 400, "missing_url")
    body = assert_error(http.post(f"/tabs/{tab}/navigate"), 400, "missing_url")  # no body: name the field
    assert body["error"] == "url is required"
    assert_error(http.post(f"/tabs/{tab}/action", json={"ref": "e1"}), 400, "missing_kind")
    assert_error(http.post(f"/tabs/{tab}/actions", json={}), 400, "missing_actions")
    assert_error(http.post(f"/tabs/{tab}/evaluate", json={}), 400, "missing_expression")
    assert_error(http.post(f"/tabs/{tab}/cookies", json={"url": "http://x.test"}), 400, "missing_cookies")
    assert_error(http.post("/tab", json={}), 400, "missing_action")
    assert_error(http.post("/tab", json={"action": "focus"}), 400, "missing_tab_id")
    assert_error(http.post("/tab", json={"action": "close"}), 400, "missing_tab_id")
    assert_error(http.post(f"/tabs/{tab}/wait", json={}), 400, "missing_condition")


@pytest.mark.parametrize(("path", "body"), [
    ("navigate", {"url": 42}),
    ("navigate", {"url": "about:blank", "timeout": "soon"}),
    ("navigate", {"url": "about:blank", "timeout": -5}),
    ("navigate", {"url": "about:blank", "waitFor": "sunrise"}),
    ("navigate", {"url": "about:blank", "newTab": "maybe"}),
    ("navigate", {"url": "about:blank", "tabId": ["a"]}),
    ("action", {"kind": 7}),
    ("action", {"kind": "click", "x": "left", "y": 3}),
    ("action", {"kind": "scroll", "pixels": "lots"}),
    ("action", {"kind": "scroll", "direction": "sideways"}),
    ("actions", {"actions": "click"}),
    ("actions", {"actions": [{"kind": "click", "ref": 5}]}),
    ("evaluate", {"expression": ["1"]}),
    ("wait", {"selector": "#x", "timeout": "long"}),
    ("cookies", {"cookies": {"name": "a"}}),
])
def test_wrong_types(http: httpx.Client, tab: str, path: str, body: dict[str, Any]) -> None:
    assert_error(http.post(f"/tabs/{tab}/{path}", json=body), 400)


@pytest.mark.parametrize("params", [{"depth": "x"}, {"format": "html"}, {"filter": "some"}, {"maxTokens": 0},
                                    {"interactive": "perhaps"}])
def test_wrong_query_values(http: httpx.Client, tab: str, params: dict[str, Any]) -> None:
    assert_error(http.get(f"/tabs/{tab}/snapshot", params=params), 400, "invalid_field")


def test_unknown_kind(http: httpx.Client, tab: str) -> None:
    body = assert_error(http.post(f"/tabs/{tab}/action", json={"kind": "juggle"}), 400, "unknown_kind")
    assert "juggle" in body["error"]


def test_bad_urls(http: httpx.Client, tab: str) -> None:
    for url in ("", "   ", "not a url", "http://", "javascript:alert(1)", "file:///etc/passwd"):
        assert_error(http.post(f"/tabs/{tab}/navigate", json={"url": url}), 400)
    assert_error(http.post("/tab", json={"action": "new", "url": "chrome://settings"}), 400, "scheme_not_allowed")


@pytest.mark.parametrize(("method", "route"), [
    ("GET", "snapshot"), ("GET", "text"), ("GET", "screenshot"), ("GET", "pdf"), ("POST", "pdf"),
    ("POST", "navigate"), ("POST", "back"), ("POST", "forward"), ("POST", "reload"), ("POST", "action"),
    ("POST", "actions"), ("POST", "evaluate"), ("POST", "wait"), ("GET", "cookies"), ("POST", "close"),
])
def test_unknown_tab(http: httpx.Client, method: str, route: str) -> None:
    bodies = {"navigate": {"url": "about:blank"}, "action": {"kind": "press", "key": "Enter"},
              "actions": {"actions": [{"kind": "press", "key": "Enter"}]}, "evaluate": {"expression": "1"},
              "wait": {"selector": "body", "timeout": 10}}
    kwargs = {"json": bodies[route]} if route in bodies else {}
    res = http.request(method, f"/tabs/NO-SUCH-TAB/{route}", **kwargs)
    body = assert_error(res, 404, "tab_not_found")
    assert "NO-SUCH-TAB" in body["error"] and "/tabs" in body["error"]
    # shorthand with tabId
    if method == "GET":
        res = http.get(f"/{route}", params={"tabId": "NO-SUCH-TAB"})
        assert_error(res, 404, "tab_not_found")
    elif route in bodies:
        res = http.post(f"/{route}", json={**bodies[route], "tabId": "NO-SUCH-TAB"})
        assert_error(res, 404, "tab_not_found")


def test_tab_focus_and_close_unknown(http: httpx.Client) -> None:
    assert_error(http.post("/tab", json={"action": "focus", "tabId": "NOPE"}), 404, "tab_not_found")
    assert_error(http.post("/tab", json={"action": "close", "tabId": "NOPE"}), 404, "tab_not_found")


def test_unknown_routes(http: httpx.Client, tab: str) -> None:
    for method, path in (("GET", "/nothing"), ("POST", "/nothing"), ("GET", f"/tabs/{tab}/nothing"),
                         ("GET", "/tabs/x/y/z"), ("DELETE", "/tabs")):
        res = http.request(method, path)
        assert res.status_code in (404, 405), (method, path)
        assert_error(res, res.status_code)
    assert_error(http.get("/navigate"), 405, "method_not_allowed")


def test_no_history_stays_put(http: httpx.Client, other: str, pages: str) -> None:
    # PinchTab's rule: back or forward with nowhere to go answers the page the tab stays on
    # (``other`` is new here: this test, first in the file to use it, is the one that wants a
    # tab with no history)
    tab = other
    http.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/buttons.html"})
    for direction in ("back", "forward"):
        res = http.post(f"/tabs/{tab}/{direction}")
        assert res.status_code == 200, res.text
        assert res.json()["url"] == f"{pages}/buttons.html" and res.json()["tabId"] == tab


def test_tab_still_works_after_bad_requests(http: httpx.Client, tab: str, pages: str) -> None:
    bad = [
        ("POST", "navigate", {"content": b"{"}),
        ("POST", "navigate", {"json": {"url": "javascript:1"}}),
        ("POST", "action", {"json": {"kind": "click", "ref": "e404"}}),
        ("POST", "action", {"json": {"kind": "click", "selector": "!!"}}),
        ("GET", "snapshot", {"params": {"selector": "[["}}),
        ("POST", "evaluate", {"json": {"expression": "throw 1"}}),
        ("POST", "wait", {"json": {"selector": "((", "timeout": 50}}),
        ("GET", "pdf", {"params": {"pageRanges": "z"}}),
    ]
    open_page(http, tab, f"{pages}/buttons.html")
    for method, route, kwargs in bad:
        res = http.request(method, f"/tabs/{tab}/{route}", **kwargs)
        assert 400 <= res.status_code < 500, (route, res.text)
    ok = http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": ref_of(snap(http, tab), "button", "Increment")})
    assert ok.status_code == 200
    assert js(http, tab, "document.getElementById('count').textContent") == "1"
    assert http.get("/health").json()["status"] == "ok"


# -- auth -----------------------------------------------------------------------------------------


TOKEN = "s3cret-token"


def test_token_auth(dying: Dying, http: httpx.Client, pages: str) -> None:
    good = {"Authorization": f"Bearer {TOKEN}"}
    # a URL of this test's own: the module's other tests open login.html on this bridge too
    login = f"{pages}/login.html?auth"
    # the session's client, with absolute URLs (a client of its own costs ~0.05 s of CPU to build);
    # unlike the module's, it sends no token of its own
    client, url = http, dying.server.url
    health = client.get(f"{url}/health")
    assert health.status_code == 200 and health.json()["status"] == "ok"
    routes = [("GET", "/tabs", {}), ("POST", "/tab", {"json": {"action": "new"}}),
              ("POST", "/navigate", {"json": {"url": login}}), ("GET", "/snapshot", {}),
              ("POST", "/action", {"json": {"kind": "click", "ref": "e1"}}), ("GET", "/text", {}),
              ("GET", "/screenshot", {}), ("GET", "/pdf", {}), ("POST", "/evaluate", {"json": {"expression": "1"}}),
              ("GET", "/cookies", {}), ("POST", "/wait", {"json": {"selector": "body"}}),
              ("POST", "/browser/restart", {}), ("GET", "/tabs/x/snapshot", {}), ("GET", "/openapi.json", {}),
              ("GET", "/no-such-route", {}), ("POST", "/find", {"json": {"query": "login button"}})]
    for method, path, kwargs in routes:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "s3cret-token"},
                        {"Authorization": "bearer s3cret-token"}, {"Authorization": "Bearer s3cret-token2"}):
            res = client.request(method, url + path, headers=headers, **kwargs)
            assert_error(res, 401, "unauthorized")
    assert client.get(f"{url}/tabs").status_code == 401
    # with the token everything works
    # the bridge's own first tab (the module's later tests load their pages in it too): no new one
    tab = client.get(f"{url}/tabs", headers=good).json()["tabs"][0]["id"]
    res = client.post(f"{url}/tabs/{tab}/navigate", json={"url": login}, headers=good)
    assert res.status_code == 200, res.text
    assert client.get(f"{url}/tabs/{tab}/snapshot", headers=good).json()["title"] == "Login"
    assert client.post(f"{url}/tabs/{tab}/evaluate", json={"expression": "document.title"}, headers=good).json() == {"result": "Login"}
    # nothing ran for the refused requests: no navigation to login.html before ours
    tabs = client.get(f"{url}/tabs", headers=good).json()["tabs"]
    assert [t["id"] for t in tabs if t["url"].endswith("login.html?auth")] == [tab]


# -- concurrency ----------------------------------------------------------------------------------


# The parallel requests below share the session's client (thread-safe, a connection per request
# in flight): a client of their own each cost ~0.07 s of CPU to build (its TLS context), more than
# the request.


def test_parallel_requests_on_one_tab_are_serialised(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/buttons.html")
    ref = ref_of(snap(http, tab), "button", "Increment")

    def click(_: int) -> int:
        return http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": ref}).status_code

    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(click, range(16)))
    assert codes == [200] * 16
    assert js(http, tab, "document.getElementById('count').textContent") == "16"


def test_mixed_parallel_requests_on_one_tab(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/form.html")

    def call(i: int) -> int:
        if i % 4 == 0:
            return http.get(f"/tabs/{tab}/snapshot").status_code
        if i % 4 == 1:
            return http.get(f"/tabs/{tab}/text").status_code
        if i % 4 == 2:
            return http.get(f"/tabs/{tab}/screenshot").status_code
        return http.post(f"/tabs/{tab}/action", json={"kind": "type", "selector": "#bio", "text": "ab"}).status_code

    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(call, range(16)))
    assert codes == [200] * 16
    assert js(http, tab, "document.getElementById('bio').value") == "ab" * 4


def timed_waits(client: httpx.Client, tabs: list[str], ms: int) -> float:
    def wait(tab: str) -> dict[str, Any]:
        res = client.post(f"/tabs/{tab}/wait", json={"selector": "#never", "timeout": ms})
        assert res.status_code == 200
        return res.json()

    started = time.monotonic()
    with ThreadPoolExecutor(len(tabs)) as pool:
        results = list(pool.map(wait, tabs))
    assert all(r["present"] is False for r in results)
    return time.monotonic() - started


def meet(client: httpx.Client, tabs: list[str], ms: int) -> list[bool]:
    """Two waits, one on each of ``tabs`` (pages of one origin, so they share localStorage): each
    marks itself there and is met once the other has marked itself too. Both are met only when the
    two run at the same time, whatever the machine's speed."""
    key = f"meet-{time.monotonic_ns()}-"

    def wait(i: int) -> bool:
        fn = f"(localStorage.setItem('{key}{i}', '1'), localStorage.getItem('{key}{1 - i}') === '1')"
        res = client.post(f"/tabs/{tabs[i]}/wait", json={"fn": fn, "timeout": ms})
        assert res.status_code == 200, res.text
        return res.json()["waited"]

    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(wait, range(2)))


def test_tabs_run_in_parallel_and_one_tab_serialises(http: httpx.Client, tab: str, other: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/login.html")
    open_page(http, other, f"{pages}/login.html")
    serial = timed_waits(http, [tab, tab], 250)
    assert serial >= 0.5, f"two 0.25 s waits on one tab took {serial:.2f} s"  # the tab's lock
    assert sorted(meet(http, [tab, tab], 250)) == [False, True]  # the first ends unmet, then the second
    # On two tabs the waits run at once: each sees the other's mark (a clock compared with the
    # serial pair failed on a loaded machine).
    assert meet(http, [tab, other], 20000) == [True, True]


def test_a_slow_tab_does_not_block_others(http: httpx.Client, tab: str, other: str, pages: str) -> None:
    show(http, tab, f"{pages}/login.html")  # the origin of ``other``: the two share localStorage
    show(http, other, f"{pages}/login.html")
    key = f"slow-{time.monotonic_ns()}-"
    # A wait on ``tab`` that marks itself under way and is met only once released from ``other``
    # (a fixed 1.5 s wait and pause before: the other tab's answers had to come within 1.3 s).
    fn = f"(localStorage.setItem('{key}on', '1'), localStorage.getItem('{key}go') === '1')"
    with ThreadPoolExecutor(1) as pool:
        slow = pool.submit(http.post, f"/tabs/{tab}/wait", json={"fn": fn, "timeout": 20000})
        wait_until(lambda: js(http, other, f"localStorage.getItem('{key}on')") == "1")
        assert http.get(f"/tabs/{other}/snapshot").status_code == 200
        assert http.get("/tabs").status_code == 200
        assert http.get("/health").status_code == 200
        assert not slow.done(), "the other tab's answers came only after the slow wait ended"
        js(http, other, f"localStorage.setItem('{key}go', '1')")
        res = slow.result()
    assert res.status_code == 200 and res.json()["waited"] is True, res.text


def test_closing_a_tab_while_a_request_waits_on_it(http: httpx.Client, pages: str) -> None:
    doomed = new_tab(http, f"{pages}/login.html")

    def long_wait() -> httpx.Response:
        # A condition that is never met and marks the page's URL when first checked, so the tab is
        # closed once the wait is under way (a fixed pause lost that race on a loaded machine).
        return http.post(f"/tabs/{doomed}/wait", json={"fn": "(history.replaceState(null, '', '#waiting'), false)",
                                                       "timeout": 20000})

    def waiting() -> bool:
        return any(t["id"] == doomed and t["url"].endswith("#waiting") for t in http.get("/tabs").json()["tabs"])

    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(long_wait)
        wait_until(waiting, timeout=30)
        assert http.post(f"/tabs/{doomed}/close").json() == {"closed": True, "tabId": doomed}
        started = time.monotonic()
        res = pending.result(timeout=10)
        assert time.monotonic() - started < 3  # not left hanging until its timeout
    body = assert_error(res, 404, "tab_closed")
    assert doomed in body["error"] and "closed" in body["error"]
    assert http.get("/health").json()["status"] == "ok"
    assert_error(http.get(f"/tabs/{doomed}/snapshot"), 404, "tab_not_found")


# -- dialogs --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def accepting(dying: Dying) -> httpx.Client:
    """A bridge whose policy accepts every dialog (browser.dialogs: accept): the module's own."""
    return dying.client


def test_dialogs_stay_open_by_default_and_say_so(http: httpx.Client, tab: str, pages: str) -> None:
    """PinchTab's default: a dialog nobody answers stays open; the tab reports it and refuses
    actions with 409 dialog_blocking until POST /dialog."""
    open_page(http, tab, f"{pages}/events.html")
    s = snap(http, tab)
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": ref_of(s, "button", "Ask")})
    body = assert_error(res, 409, "dialog_blocking")
    assert {"type": "confirm", "message": "Sure?"}.items() <= body["dialog"].items()
    state = http.get(f"/tabs/{tab}/state").json()
    assert state["dialogPresent"] is True and state["actionability"] == "blocked"
    assert_error(http.post(f"/tabs/{tab}/action", json={"kind": "click", "selector": "#typed"}), 409, "dialog_blocking")
    assert http.post("/dialog", json={"tabId": tab, "action": "dismiss"}).json()["handled"] is True
    assert js(http, tab, "document.getElementById('confirm-out').textContent") == "confirm false"
    # one opened by a script answers at once too, rather than hanging until the script's timeout
    started = time.monotonic()
    assert_error(http.post(f"/tabs/{tab}/evaluate", json={"expression": "alert('from evaluate'); 1"}), 409,
                 "dialog_blocking")
    assert time.monotonic() - started < 5
    assert http.post("/dialog", json={"tabId": tab, "action": "accept"}).status_code == 200
    assert http.get(f"/tabs/{tab}/state").json()["actionability"] != "blocked"


def test_alert_does_not_block_later_requests(accepting: httpx.Client, pages: str) -> None:
    http = accepting
    tab = some_tab(http, f"{pages}/events.html")
    s = snap(http, tab)
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": ref_of(s, "button", "Show alert")})
    assert res.status_code == 200
    assert js(http, tab, "document.getElementById('after-alert').textContent") == "after alert"
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": ref_of(s, "button", "Ask")})
    assert res.status_code == 200
    assert js(http, tab, "document.getElementById('confirm-out').textContent") == "confirm true"
    # a dialog opened from evaluate, and one opened by a timer between requests
    assert js(http, tab, "alert('from evaluate'); 'went on'") == "went on"
    js(http, tab, "setTimeout(() => { alert('timer'); window.timerDone = true; }, 50)")
    wait_until(lambda: js(http, tab, "window.timerDone === true"))  # not a fixed 0.3 s pause
    assert js(http, tab, "window.timerDone") is True
    assert snap(http, tab)["title"] == "Events"


@pytest.mark.parametrize("policy", ["manual", "accept"])
def test_beforeunload_does_not_block_navigation(http: httpx.Client, tab: str, accepting: httpx.Client, pages: str,
                                                policy: str) -> None:
    # manual: the module's tab, accept: one of the module's bridge (the navigation away leaves no
    # handler behind)
    http, tab = (http, tab) if policy == "manual" else (accepting, some_tab(accepting))
    show(http, tab, f"{pages}/events.html")  # the dialog tests' page: they leave no dialog open
    js(http, tab, "window.addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = 'stay'; })")
    http.post(f"/tabs/{tab}/action", json={"kind": "click", "selector": "#typed"})  # a user gesture arms it
    res = http.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/login.html", "timeout": 10000})
    assert res.status_code == 200 and res.json()["title"] == "Login"


# -- a dying Chromium -----------------------------------------------------------------------------


def proc_table() -> dict[int, tuple[int, int, str]]:
    """pid -> (ppid, process group, state) of every process we can see."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        table[int(entry)] = (int(fields[1]), int(fields[2]), fields[0])
    return table


def chrome_processes(leader: int) -> set[int]:
    """Chromium's processes: its process group and every descendant of the browser process."""
    table = proc_table()
    found = {pid for pid, (_, group, state) in table.items() if group == leader and state != "Z"}
    frontier = [leader]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, _, state) in table.items():
            if ppid == parent and pid not in found and state != "Z":
                found.add(pid)
                frontier.append(pid)
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def kill_chrome(server: ServerThread) -> tuple[int, set[int]]:
    process = server.server.config.app.state.browser.process
    pids = chrome_processes(process.pid)
    assert len(pids) > 1, pids  # a browser and its helpers
    os.killpg(process.pid, signal.SIGKILL)
    return process.pid, pids


def wait_until(predicate: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.05)


class Dying:
    """A bridge of this module whose Chromium the tests kill, and every Chromium process seen."""

    def __init__(self, server: ServerThread, client: httpx.Client) -> None:
        self.server, self.client, self.recorded = server, client, set[int]()


@contextlib.contextmanager
def dying_bridge(token: str, state_dir: Path, **browser: Any) -> Iterator[Dying]:
    """A bridge whose Chromium tests may kill (each test leaves a live browser behind); when it
    stops, none of the Chromium processes it ever had outlives it."""
    with start_app(token=token, state_dir=state_dir, **browser) as server, \
            httpx.Client(base_url=server.url, timeout=60, headers={"Authorization": f"Bearer {token}"}) as client:
        state = Dying(server, client)
        yield state
        state.recorded |= chrome_processes(server.server.config.app.state.browser.process.pid)
    wait_until(lambda: not any(alive(pid) for pid in state.recorded), timeout=5)


@pytest.fixture(scope="module")
def dying(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dying]:
    """The module's own bridge (one Chromium for the auth, dialog, page-download and dying tests):
    it wants a token, accepts every dialog (browser.dialogs: accept), saves page downloads under
    its state dir (security.allowDownload), and restarts a dead Chromium unless a test turns
    browser.autoRestart off; its tests kill its Chromium or a renderer."""
    with dying_bridge(TOKEN, tmp_path_factory.mktemp("dying-state"), dialogs="accept") as state:
        yield state


# -- page downloads -------------------------------------------------------------------------------


def test_page_download_saved_under_the_state_dir(dying: Dying, pages: str) -> None:
    """test_interaction's, on this module's bridge: Chromium is told where page downloads go when
    it starts (security.allowDownload then), so the session bridge, which starts without it, cannot
    show one."""
    http = dying.client
    state_dir = Path(dying.server.server.config.app.state.browser.config.server.state_dir)
    page = some_tab(http, f"{pages}/interaction.html")
    assert http.post(f"/tabs/{page}/action", json={"kind": "click", "selector": "#dl"}).status_code == 200
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        done = [d for d in http.get("/downloads").json()["downloads"] if d["state"] == "completed"]
        if done:
            break
        time.sleep(0.1)
    assert done and done[-1]["filename"] == "report.csv"
    path = Path(done[-1]["path"])
    assert path.parent == state_dir / "downloads" and path.read_bytes() == (PAGES / "report.csv").read_bytes()
    one = http.get("/downloads", params={"id": done[-1]["id"]}).json()
    assert base64.b64decode(one["data"]) == path.read_bytes() and one["contentType"] == "text/csv"
    assert http.get("/downloads", params={"id": done[-1]["id"], "raw": "true"}).content == path.read_bytes()
    assert http.get("/downloads", params={"id": "nope"}).status_code == 404


def test_dead_chromium_is_reported_then_replaced(dying: Dying, pages: str) -> None:
    server, client, recorded = dying.server, dying.client, dying.recorded
    tab = some_tab(client, f"{pages}/login.html")
    restarts = client.get("/health").json().get("restarts", 0)  # absent before the first restart
    browser = server.server.config.app.state.browser
    first_pid, pids = kill_chrome(server)
    recorded |= pids
    # noticed: down, or already restarted (a restart can take less than a poll of this loop)
    wait_until(lambda: not browser.alive or getattr(browser.process, "pid", None) != first_pid)

    # the next request hears what happened, as JSON, and says what to do
    res = client.get(f"/tabs/{tab}/snapshot")
    body = assert_error(res, 503, "browser_gone")
    assert "Chromium exited" in body["error"] and "retry" in body["error"]
    # the bridge keeps answering
    health = client.get("/health")
    assert health.status_code in (200, 503) and health.json()["lastDeath"].startswith("Chromium exited")

    # a new browser took over: the old tab is back at its URL under its old id, new ones work
    wait_until(lambda: client.get("/health").json()["status"] == "ok", timeout=30)
    assert browser.process.pid != first_pid
    wait_until(lambda: client.get(f"/tabs/{tab}/snapshot").status_code == 200, timeout=10)
    assert client.get(f"/tabs/{tab}/snapshot").json()["title"] == "Login"
    fresh = new_tab(client, f"{pages}/buttons.html")
    res = client.post(f"/tabs/{fresh}/action", json={"kind": "click", "selector": "#inc"})
    assert res.status_code == 200
    assert client.post(f"/tabs/{fresh}/evaluate", json={"expression": "count.textContent"}).json() == {"result": "1"}
    assert client.get("/health").json()["restarts"] == restarts + 1
    assert all(not alive(pid) for pid in pids), "processes of the killed Chromium survive"

    # dying while a request is in flight: that request answers, and is the one told
    client.post(f"/tabs/{tab}/close")  # one tab fewer for the next restart to reopen
    with ThreadPoolExecutor(1) as pool:
        # a wait never met that marks the page's URL when first checked: under way (not a fixed pause)
        pending = pool.submit(client.post, f"/tabs/{fresh}/wait",
                              json={"fn": "(history.replaceState(null, '', '#waiting'), false)", "timeout": 10000})
        wait_until(lambda: any(t["id"] == fresh and t["url"].endswith("#waiting")
                               for t in client.get("/tabs").json()["tabs"]))
        _, pids = kill_chrome(server)
        recorded |= pids
        started = time.monotonic()
        res = pending.result(timeout=15)
        assert time.monotonic() - started < 3
    body = assert_error(res, 503, "browser_gone")
    assert "Chromium exited" in body["error"] and "retry" in body["error"]
    wait_until(lambda: browser.alive, timeout=30)
    assert new_tab(client, f"{pages}/login.html")  # not told a second time
    recorded |= chrome_processes(browser.process.pid)  # none outlives the bridge: checked when ``dying`` stops


def test_dead_chromium_without_auto_restart(dying: Dying, pages: str, monkeypatch: pytest.MonkeyPatch) -> None:
    server, client, recorded = dying.server, dying.client, dying.recorded
    tab = some_tab(client, f"{pages}/login.html")
    browser = server.server.config.app.state.browser
    monkeypatch.setattr(browser.config.browser, "auto_restart", False)  # read when Chromium dies
    _, pids = kill_chrome(server)
    recorded |= pids
    wait_until(lambda: not browser.alive)
    body = assert_error(client.post(f"/tabs/{tab}/action", json={"kind": "press", "key": "Enter"}), 503, "browser_gone")
    assert "/browser/restart" in body["error"]
    # it stays down, and says so on every route, until restarted
    for _ in range(2):
        assert_error(client.get("/tabs"), 503, "browser_not_ready")
        assert_error(client.post("/navigate", json={"url": f"{pages}/login.html"}), 503, "browser_not_ready")
    assert client.get("/health").status_code == 503
    assert client.get("/health").json()["status"] == "down"
    res = client.post("/browser/restart")
    assert res.status_code == 200 and res.json()["restarted"] is True
    assert client.post("/navigate", json={"url": f"{pages}/login.html"}).json()["title"] == "Login"
    recorded |= chrome_processes(browser.process.pid)  # none outlives the bridge: checked when ``dying`` stops


def test_renderer_crash_is_reported_and_reload_recovers(dying: Dying, pages: str) -> None:
    server, client = dying.server, dying.client
    tab = some_tab(client, f"{pages}/login.html")
    browser = server.server.config.app.state.browser
    renderers = [pid for pid in chrome_processes(browser.process.pid)
                 if b"--type=renderer" in open(f"/proc/{pid}/cmdline", "rb").read()]
    assert renderers
    for pid in renderers:
        os.kill(pid, signal.SIGKILL)
    wait_until(lambda: browser.tabs[tab].crashed)
    body = assert_error(client.get(f"/tabs/{tab}/snapshot"), 500, "tab_crashed")
    assert "reload" in body["error"].lower()
    assert client.get("/health").json()["status"] == "ok"  # the browser itself is fine
    res = client.post(f"/tabs/{tab}/reload")
    assert res.status_code == 200, res.text
    assert client.get(f"/tabs/{tab}/snapshot").json()["title"] == "Login"

    # POST /browser/restart replaces a healthy browser too, and its processes end
    old = chrome_processes(browser.process.pid)
    dying.recorded |= old
    res = client.post("/browser/restart")
    assert res.status_code == 200 and res.json()["restarted"] is True
    assert all(not alive(pid) for pid in old)
    assert_error(client.get(f"/tabs/{tab}/snapshot"), 404, "tab_not_found")
    assert client.post("/navigate", json={"url": f"{pages}/table.html"}).json()["title"] == "Team table"


def test_find_errors(http: httpx.Client, tab: str, pages: str) -> None:
    show(http, tab, f"{pages}/login.html")
    missing = http.post(f"/tabs/{tab}/find", json={})
    assert missing.status_code == 400 and "query" in missing.json()["error"]
    empty = http.post(f"/tabs/{tab}/find", json={"query": ""})
    assert empty.status_code == 400
    bad_json = http.post(f"/tabs/{tab}/find", content=b"{nope", headers={"Content-Type": "application/json"})
    assert bad_json.status_code == 400 and bad_json.json()["code"] == "invalid_json"
    unknown = http.post("/tabs/NOSUCHTAB/find", json={"query": "login button"})
    assert unknown.status_code == 404 and unknown.json()["code"] == "tab_not_found"
    unknown_body = http.post("/find", json={"query": "login button", "tabId": "NOSUCHTAB"})
    assert unknown_body.status_code == 404
    ok = http.post("/find", json={"query": "log in button", "tabId": tab})
    assert ok.status_code == 200 and ok.json()["matches"][0]["name"] == "Log in"
