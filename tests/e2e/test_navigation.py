"""Tabs and navigation against a real Chromium."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import js, open_page, open_tab
from tests.e2e.test_actions import on_page

# One tab for the module's tests (each opens its page first, unless the test before left the tab
# there); the test that reads a tab's first page, about:blank, comes first.
tab = pytest.fixture(scope="module", name="tab")(open_tab)


def test_navigate_refuses_bad_schemes(http: httpx.Client, tab: str) -> None:
    # the module's tab, on its first page (about:blank) until the next test
    for url in ("javascript:alert(1)", "file:///etc/passwd", "data:text/html,hi", "chrome://version"):
        res = http.post(f"/tabs/{tab}/navigate", json={"url": url})
        assert res.status_code == 400, url
        assert res.json()["code"] == "scheme_not_allowed"
    assert js(http, tab, "location.href") == "about:blank"


def test_navigate_answers_after_load(http: httpx.Client, tab: str, pages: str) -> None:
    body = open_page(http, tab, f"{pages}/login.html")
    assert body == {"tabId": tab, "url": f"{pages}/login.html", "title": "Login"}
    assert js(http, tab, "document.readyState") == "complete"


def test_navigate_new_tab_and_tab_list(http: httpx.Client, pages: str) -> None:
    res = http.post("/navigate", json={"url": f"{pages}/table.html", "newTab": True})
    assert res.status_code == 200
    new_id = res.json()["tabId"]
    listed = {t["id"]: t for t in http.get("/tabs").json()["tabs"]}
    assert listed[new_id]["url"] == f"{pages}/table.html"
    assert listed[new_id]["title"] == "Team table"
    assert listed[new_id]["type"] == "page"
    closed = http.post(f"/tabs/{new_id}/close")
    assert closed.json() == {"closed": True, "tabId": new_id}
    assert new_id not in {t["id"] for t in http.get("/tabs").json()["tabs"]}


def test_back_forward_reload(http: httpx.Client, tab: str, pages: str) -> None:
    on_page(http, tab, f"{pages}/login.html")  # the test before left it there
    open_page(http, tab, f"{pages}/table.html")
    back = http.post(f"/tabs/{tab}/back").json()
    assert back["url"].endswith("/login.html") and back["title"] == "Login"
    fwd = http.post("/forward", params={"tabId": tab}).json()
    assert fwd["url"].endswith("/table.html")
    js(http, tab, "window.marker = 1")
    http.post(f"/tabs/{tab}/reload")
    assert js(http, tab, "typeof window.marker") == "undefined"


def test_navigation_timeout_is_a_clear_error(http: httpx.Client, tab: str, pages: str) -> None:
    # waitFor none: the 300 ms go to the selector, not to a load that may take longer on a loaded
    # machine (then the error named the load: failed at load 22)
    res = http.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/login.html", "waitSelector": "#never",
                                                  "waitFor": "none", "timeout": 300})
    assert res.status_code == 504
    assert "#never" in res.json()["error"]
    # the tab is still usable afterwards
    assert open_page(http, tab, f"{pages}/table.html")["title"] == "Team table"


def test_unknown_tab_is_404(http: httpx.Client) -> None:
    res = http.post("/tabs/DOESNOTEXIST/navigate", json={"url": "about:blank"})
    assert res.status_code == 404
    assert res.json()["code"] == "tab_not_found"


def test_failed_navigation_in_a_new_tab_names_the_tab(http: httpx.Client, pages: str) -> None:
    res = http.post("/navigate", json={"url": f"{pages}/login.html", "newTab": True, "waitSelector": "#never", "timeout": 300})
    assert res.status_code == 504
    tab_id = res.json()["tabId"]
    assert tab_id in {t["id"] for t in http.get("/tabs").json()["tabs"]}
    http.post(f"/tabs/{tab_id}/close")


def test_block_images_keeps_images_from_loading(http: httpx.Client, tab: str, pages: str) -> None:
    page = f"{pages}/images.html"
    res = http.post(f"/tabs/{tab}/navigate", json={"url": page, "blockImages": True})
    assert res.status_code == 200
    assert js(http, tab, "document.getElementById('pic').naturalWidth") == 0
    http.post(f"/tabs/{tab}/navigate", json={"url": page})
    assert js(http, tab, "document.getElementById('pic').naturalWidth") == 2
