"""The page model against a real Chromium: a ref names one element for the tab's life, find sees
the page as it is now. The tests share one tab, each opening its page first; the tests of
login.html (the one that navigates away from it last), then those of rerender.html, come one after
another and share a load of it, each getting the page as loaded back by script
(test_actions.page_as_loaded)."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import js, open_page, open_tab, ref_of, snap
from tests.e2e.test_actions import page_as_loaded

tab = pytest.fixture(scope="module", name="tab")(open_tab)


def login_page(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/login.html")


def rerender_page(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/rerender.html", reset="items = 0")


def find(http: httpx.Client, tab: str, query: str) -> dict:
    res = http.post(f"/tabs/{tab}/find", json={"query": query})
    assert res.status_code == 200, res.text
    return res.json()


# whether the page says welcome after the log-in click: polled (every 20 ms, up to 5 s), not read
# after a fixed wait
WELCOME_SHOWN = """new Promise(resolve => {
  const until = Date.now() + 5000;
  const look = () => document.getElementById('welcome') || Date.now() > until
    ? resolve(!!document.getElementById('welcome')) : setTimeout(look, 20);
  look();
})"""


def act(http: httpx.Client, tab: str, **body) -> httpx.Response:
    return http.post(f"/tabs/{tab}/action", json=body)


def test_find_ref_keeps_naming_its_element_across_snapshots(http: httpx.Client, tab: str, pages: str) -> None:
    login_page(http, tab, pages)
    ref = find(http, tab, "password field")["best_ref"]
    inter = snap(http, tab, filter="interactive")
    assert ref_of(inter, "textbox", "Password") == ref
    full = snap(http, tab)
    assert ref_of(full, "textbox", "Password") == ref
    for params in ({"selector": "form"}, {"depth": 5}, {"format": "compact"}, {"format": "yaml"}):
        res = http.get(f"/tabs/{tab}/snapshot", params=params)
        assert res.status_code == 200 and ref in res.text, (params, res.text)
    assert act(http, tab, kind="fill", ref=ref, value="hunter2").status_code == 200
    assert js(http, tab, "document.getElementById('password').value") == "hunter2"
    assert js(http, tab, "document.getElementById('email').value") == ""


def test_find_reuses_its_snapshot_while_the_page_is_unchanged(http: httpx.Client, tab: str, pages: str) -> None:
    login_page(http, tab, pages)
    first = find(http, tab, "password field")
    again = find(http, tab, "log in button")
    assert first["element_count"] == again["element_count"]
    js(http, tab, "document.getElementById('email').value = 'typed by a script'")  # no DOM mutation
    js(http, tab, "document.querySelector('h1').textContent = 'Welcome, again'")
    assert find(http, tab, "welcome again heading")["matches"][0]["name"] == "Welcome, again"


def test_html_styles_and_snapshot_to_file(http: httpx.Client, tab: str, pages: str, tmp_path) -> None:
    login_page(http, tab, pages)
    html = http.get(f"/tabs/{tab}/html", params={"selector": "#login"}).json()
    assert html["html"].startswith('<form id="login"') and 'id="password"' in html["html"]
    page = http.get(f"/tabs/{tab}/html", params={"maxChars": 20}).json()
    assert page["html"] == "<html><head><meta ch" and page["truncated"] is True
    ref = ref_of(snap(http, tab), "button", "Log in")
    styles = http.get(f"/tabs/{tab}/styles", params={"ref": ref, "prop": "display"}).json()
    assert styles["styles"] == {"display": "inline-block"}
    assert len(http.get(f"/tabs/{tab}/styles", params={"selector": "label:Email address"}).json()["styles"]) > 100
    res = http.get(f"/tabs/{tab}/snapshot", params={"output": "file", "format": "compact"})
    assert res.status_code == 200, res.text
    body = res.json()
    with open(body["path"], encoding="utf-8") as f:
        assert f'{ref}:button "Log in"' in f.read()
    assert body["count"] > 5 and body["path"].endswith(".txt")


def test_snapshot_selector_takes_locators_and_refs(http: httpx.Client, tab: str, pages: str) -> None:
    login_page(http, tab, pages)
    form = http.get(f"/tabs/{tab}/snapshot", params={"selector": "#login"}).json()
    for selector in ("role:form", "label:Email address"):
        res = http.get(f"/tabs/{tab}/snapshot", params={"selector": selector})
        assert res.status_code == 200, (selector, res.text)
        nodes = res.json()["nodes"]
        assert nodes and set(n["ref"] for n in nodes) <= set(n["ref"] for n in form["nodes"]) | {nodes[0]["ref"]}
    email = http.get(f"/tabs/{tab}/snapshot", params={"selector": "label:Email address"}).json()["nodes"]
    assert email[0]["role"] == "textbox" and "Email" in email[0]["name"]
    by_ref = http.get(f"/tabs/{tab}/snapshot", params={"selector": email[0]["ref"]}).json()["nodes"]
    assert by_ref[0]["ref"] == email[0]["ref"]
    res = http.get(f"/tabs/{tab}/snapshot", params={"selector": "label:No such field"})
    assert res.status_code == 404 and res.json()["code"] == "selector_not_found"


def test_unified_selectors_in_actions_and_snapshots(http: httpx.Client, tab: str, pages: str) -> None:
    login_page(http, tab, pages)
    for selector, value in (("label:Email address", "a@b.c"), ("placeholder:you@example", "c@d.e"),
                            ("xpath://input[@id='email']", "e@f.g"), ("//input[@type='email']", "g@h.i"),
                            ("first:input", "i@j.k"), ("find:email field", "k@l.m"), ("role:textbox Email", "m@n.o")):
        res = act(http, tab, kind="fill", selector=selector, value=value)
        assert res.status_code == 200, (selector, res.text)
        assert js(http, tab, "document.getElementById('email').value") == value, selector
    assert act(http, tab, kind="fill", selector="nth:1:input", value="hunter2").status_code == 200
    assert js(http, tab, "document.getElementById('password').value") == "hunter2"
    for bad in ("nth:x:input", "first:find:log in", "xpath://[", "#"):
        res = act(http, tab, kind="click", selector=bad)
        assert res.status_code == 400 and res.json()["code"] == "bad_selector", (bad, res.text)
    res = act(http, tab, kind="click", selector="label:No such field")
    assert res.status_code == 404 and res.json()["code"] == "selector_not_found"
    found = find(http, tab, "first:role:link")
    assert "structured" in found["strategy"] and found["matches"][0]["name"] == "Home"
    part = http.get(f"/tabs/{tab}/snapshot", params={"selector": "xpath://form", "filter": "interactive"}).json()
    assert [n["role"] for n in part["nodes"]][:2] == ["textbox", "textbox"]
    assert act(http, tab, kind="click", selector="text:Log in").status_code == 200
    assert js(http, tab, WELCOME_SHOWN)


def test_navigation_never_recycles_ref_numbers(http: httpx.Client, tab: str, pages: str) -> None:
    login_page(http, tab, pages)  # the last of the login.html tests: it leaves the page
    first = snap(http, tab)
    refs = {n["ref"] for n in first["nodes"]}
    login_button = ref_of(first, "button", "Log in")
    open_page(http, tab, f"{pages}/buttons.html")
    second = snap(http, tab)
    assert refs.isdisjoint(n["ref"] for n in second["nodes"])
    res = act(http, tab, kind="click", ref=login_button)
    assert res.status_code == 404 and res.json()["code"] == "stale_ref", res.text
    # back on the first page: a new document, so new refs again
    open_page(http, tab, f"{pages}/login.html")
    third = snap(http, tab)
    assert refs.isdisjoint(n["ref"] for n in third["nodes"])


def test_a_rerendered_element_gives_a_stale_ref_and_the_new_one_a_new_ref(http: httpx.Client, tab: str, pages: str) -> None:
    rerender_page(http, tab, pages)
    before = snap(http, tab, filter="interactive")
    old = ref_of(before, "textbox", "Display name")
    button = ref_of(before, "button", "Re-render")
    assert act(http, tab, kind="click", ref=button).status_code == 200
    res = act(http, tab, kind="fill", ref=old, value="x")
    assert res.status_code == 404 and res.json()["code"] == "stale_ref", res.text
    after = snap(http, tab, filter="interactive")
    new = ref_of(after, "textbox", "Display name")
    assert new != old and ref_of(after, "button", "Re-render") == button
    assert act(http, tab, kind="fill", ref=new, value="Ada").status_code == 200
    assert js(http, tab, "document.getElementById('name').value") == "Ada"
    diff = http.get(f"/tabs/{tab}/snapshot", params={"filter": "interactive", "diff": "true"}).json()
    assert diff["added"] == [] and diff["removed"] == []


def test_recovery_after_a_rerender_answers_the_new_elements_ref(http: httpx.Client, tab: str, pages: str) -> None:
    rerender_page(http, tab, pages)
    old = find(http, tab, "display name field")["best_ref"]
    js(http, tab, "rerender()")
    res = act(http, tab, kind="fill", ref=old, value="Grace")
    assert res.status_code == 200, res.text
    body = res.json()
    assert body["recovery"]["recovered"] is True and body["ref"] != old
    assert js(http, tab, "document.getElementById('name').value") == "Grace"
    assert ref_of(snap(http, tab), "textbox", "Display name") == body["ref"]


def test_find_sees_an_element_a_script_added_after_the_last_snapshot(http: httpx.Client, tab: str, pages: str) -> None:
    rerender_page(http, tab, pages)
    before = snap(http, tab)
    add = ref_of(before, "button", "Add to cart")
    assert act(http, tab, kind="click", ref=add).status_code == 200
    found = find(http, tab, "quantity field")
    assert found["best_ref"] and found["matches"][0]["name"] == "Quantity", found
    assert act(http, tab, kind="fill", ref=found["best_ref"], value="3").status_code == 200
    assert js(http, tab, "document.querySelector('.qty').value") == "3"
    # unchanged elements kept their refs through find's new snapshot
    assert ref_of(snap(http, tab), "button", "Add to cart") == add


def test_wait_takes_unified_selectors(http: httpx.Client, tab: str, pages: str) -> None:
    rerender_page(http, tab, pages)
    js(http, tab, "setTimeout(addItem, 300); 1")
    res = http.post(f"/tabs/{tab}/wait", json={"selector": "label:Quantity", "timeout": 5000})
    assert res.status_code == 200 and res.json()["present"] is True, res.text
    res = http.post(f"/tabs/{tab}/wait", json={"selector": "xpath://li[2]", "timeout": 300})
    assert res.status_code == 200 and res.json()["present"] is False, res.text
    res = http.post(f"/tabs/{tab}/wait", json={"selector": "xpath://[", "timeout": 300})
    assert res.status_code == 400 and res.json()["code"] == "bad_selector"


def test_find_sees_a_lazy_list_item_loaded_by_scrolling(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/lazy.html")
    assert find(http, tab, "save story 5 button")["matches"][0]["name"] == "Save story 5"
    assert act(http, tab, kind="scroll", pixels=2000).status_code == 200
    js(http, tab, "new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))")
    assert js(http, tab, "document.querySelectorAll('li').length") >= 20
    found = find(http, tab, "save story 15 button")
    assert found["matches"][0]["name"] == "Save story 15", found
    assert act(http, tab, kind="click", ref=found["best_ref"]).status_code == 200
    assert js(http, tab, "document.querySelectorAll('li button')[14].textContent") == "Saved"


def test_navigate_without_a_tab_opens_one_and_makes_it_current(http: httpx.Client, pages: str) -> None:
    first = http.post("/navigate", json={"url": f"{pages}/login.html"}).json()
    second = http.post("/navigate", json={"url": f"{pages}/buttons.html"}).json()
    try:
        assert first["tabId"] != second["tabId"]
        assert http.get("/text").json()["url"] == f"{pages}/buttons.html"  # the new tab is current
        assert http.get("/text", params={"tabId": first["tabId"]}).json()["url"] == f"{pages}/login.html"
        same = http.post("/navigate", json={"url": f"{pages}/table.html", "currentTab": True}).json()
        assert same["tabId"] == second["tabId"]
        again = http.post("/navigate", json={"url": f"{pages}/login.html", "tabId": first["tabId"]}).json()
        assert again["tabId"] == first["tabId"]
    finally:
        for t in (first["tabId"], second["tabId"]):
            http.post(f"/tabs/{t}/close")


def test_a_click_that_opens_a_tab_says_which(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/popups.html")
    for selector, page in (("#blank", "login.html"), ("#open", "buttons.html")):
        res = act(http, tab, kind="click", selector=selector)
        assert res.status_code == 200, res.text
        new = res.json()["newTab"]
        try:
            assert new["url"] == f"{pages}/{page}" and new["tabId"] != tab
            listed = {t["id"]: t["url"] for t in http.get("/tabs").json()["tabs"]}
            assert listed[new["tabId"]] == new["url"]
        finally:
            http.post(f"/tabs/{new['tabId']}/close")
    stay = act(http, tab, kind="click", selector="#stay").json()
    assert "newTab" not in stay and "switchedToTab" not in (stay.get("result") or {})


def test_a_tab_a_click_opens_becomes_current_unless_auto_switch_is_off(http: httpx.Client, tab: str,
                                                                       pages: str) -> None:
    # PinchTab's auto-switch: the opened tab is where unscoped routes go next
    page_as_loaded(http, tab, f"{pages}/popups.html")
    http.post("/tab", json={"action": "focus", "tabId": tab})
    res = act(http, tab, kind="click", selector="#blank")
    assert res.status_code == 200, res.text
    new = res.json()["result"]["switchedToTab"]
    try:
        assert new == res.json()["newTab"]["tabId"] != tab
        assert http.get("/text").json()["url"] == f"{pages}/login.html"  # unscoped: the new tab
    finally:
        http.post(f"/tabs/{new}/close")
    http.post("/tab", json={"action": "focus", "tabId": tab})
    before = {t["id"] for t in http.get("/tabs").json()["tabs"]}
    res = act(http, tab, kind="click", selector="#open", autoSwitch=False)
    assert res.status_code == 200, res.text
    body = res.json()
    assert "switchedToTab" not in (body.get("result") or {}) and body["closedTab"]["url"] == f"{pages}/buttons.html"
    assert {t["id"] for t in http.get("/tabs").json()["tabs"]} == before  # the popup was closed
    assert http.get("/text").json()["url"] == f"{pages}/popups.html"  # the opener is still current
