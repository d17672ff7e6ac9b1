"""Accessibility snapshots against a real Chromium: refs, roles, filters, formats, budgets, diffs."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import js, open_page, open_tab, ref_of, snap
from tests.e2e.test_actions import on_page, page_as_loaded

STRUCTURAL = {"generic", "none", "presentation", ""}


# Each test opens the page it reads: one tab serves the module (opening and closing one per test
# cost more than the test). A test that reads the refs themselves (a tab numbers its refs on from the
# pages it showed before) has a fresh one, and the one of a blank tab is the module's tab's first;
# the two of a tab's first snapshots share one (first_snapshots_tab), the four that read
# login.html's refs another (login_tab). Tests on the module's tab that act on form.html,
# buttons.html or login.html come one after another and share a load of it (page_as_loaded).
tab = pytest.fixture(scope="module", name="tab")(open_tab)
fresh_tab = pytest.fixture(name="fresh_tab")(open_tab)


@pytest.fixture(scope="module")
def login_tab(http: httpx.Client, pages: str) -> Iterator[str]:
    """A tab of its own on login.html for the tests that read its refs: the first snapshot of a
    tab numbers them from e0 in document order, whichever format asks first, and the later ones
    keep them (the tests leave the page's elements where they are). Other tests that only read
    login.html read it here too (one load, not one a test)."""
    yield from open_tab(http, f"{pages}/login.html")


@pytest.fixture(scope="module")
def first_snapshots_tab(http: httpx.Client, pages: str) -> Iterator[str]:
    """A tab of its own on login.html for the two tests of a tab's first snapshots: a selector's
    (its refs from e0) and a whole page's diff (everything added). They are of different kinds, so
    neither is the other's previous one (one tab and one load, not two)."""
    yield from open_tab(http, f"{pages}/login.html")


@pytest.fixture(scope="module")
def large_tab(http: httpx.Client, pages: str) -> Iterator[str]:
    """A tab of its own on large.html for the tests that only read it (one load of the big page,
    not one a test)."""
    yield from open_tab(http, f"{pages}/large.html")


# The pages a tab of the module shows for tests that only read them.
READ_ONLY_TABS = {"login.html": "login_tab", "large.html": "large_tab"}


def snapshot_text(http: httpx.Client, tab: str, **params: Any) -> str:
    res = http.get(f"/tabs/{tab}/snapshot", params={"format": "text", **params})
    assert res.status_code == 200, res.text
    assert res.headers["content-type"].startswith("text/plain")
    return res.text


def roles_names(s: dict[str, Any]) -> list[tuple[str, str]]:
    return [(n["role"], n["name"]) for n in s["nodes"]]


def test_refs_follow_document_order(http: httpx.Client, login_tab: str, pages: str) -> None:
    tab = login_tab
    s = snap(http, tab)
    assert s["url"] == f"{pages}/login.html" and s["title"] == "Login"
    assert s["count"] == len(s["nodes"])
    assert [n["ref"] for n in s["nodes"]] == [f"e{i}" for i in range(s["count"])]
    assert roles_names(s) == [
        ("banner", ""),
        ("navigation", "Main"),
        ("link", "Home"),
        ("link", "Table"),
        ("main", ""),
        ("heading", "Welcome back"),
        ("form", "Login form"),
        ("textbox", "Email address"),
        ("textbox", "Password"),
        ("checkbox", "Remember me"),
        ("button", "Log in"),
        ("link", "Forgot password?"),
        ("contentinfo", ""),
        ("link", "Terms of Service"),
    ]
    depths = {n["name"] or n["role"]: n["depth"] for n in s["nodes"]}
    assert (depths["banner"], depths["Main"], depths["Home"]) == (0, 1, 2)
    assert (depths["Login form"], depths["Email address"]) == (1, 2)


def test_tab_list_title_is_the_document_title(http: httpx.Client, tab: str, pages: str) -> None:
    # the module's tab, blank until this test, its first
    def listed() -> dict[str, str]:
        return next(t for t in http.get("/tabs").json()["tabs"] if t["id"] == tab)

    # Chromium titles an untitled page with its URL; the API reports document.title
    assert js(http, tab, "document.title") == ""
    assert listed() == {"id": tab, "url": "about:blank", "title": "", "type": "page"}
    open_page(http, tab, f"{pages}/login.html")
    assert listed()["title"] == "Login" == snap(http, tab)["title"]


def test_node_ids_are_stable_backend_ids(http: httpx.Client, tab: str, pages: str) -> None:
    on_page(http, tab, f"{pages}/login.html")  # the test before left it there
    first, second = snap(http, tab), snap(http, tab)
    ids = [n["nodeId"] for n in first["nodes"]]
    assert all(isinstance(i, int) and i > 0 for i in ids)
    assert len(set(ids)) == len(ids)
    # the same DOM nodes keep their backend ids between snapshots
    assert ids == [n["nodeId"] for n in second["nodes"]]
    # and a new document gets new nodes
    open_page(http, tab, f"{pages}/login.html")
    assert not set(ids) & {n["nodeId"] for n in snap(http, tab)["nodes"]}


def test_roles_and_names_are_chromium_s(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/form.html")
    s = snap(http, tab)
    computed = js(http, tab, """[...document.querySelectorAll('select, input, textarea, button, [role=textbox], form, fieldset, h1')]
        .map(e => [e.computedRole, e.computedName])""")
    got = roles_names(s)
    for role, name in computed:
        assert (role, name) in got, (role, name)
    assert ("combobox", "Country") in got
    assert ("checkbox", "Newsletter") in got and ("radio", "Pro") in got
    assert ("group", "Notifications") in got and ("textbox", "Rich text") in got
    assert_no_structural_noise(http, tab)


def test_json_fields(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/form.html")
    js(http, tab, "document.getElementById('bio').value = 'Hello there'; document.getElementById('bio').focus()")
    nodes = {(n["role"], n["name"]): n for n in snap(http, tab)["nodes"]}
    allowed = {"ref", "role", "name", "value", "depth", "focused", "disabled", "checked", "nodeId",
               "pressed", "expanded", "selected", "required", "placeholder"}
    for node in nodes.values():
        assert set(node) <= allowed, node
        assert {"ref", "role", "name", "depth", "nodeId"} <= set(node)
        assert None not in node.values()
    bio = nodes[("textbox", "Bio")]
    assert bio["value"] == "Hello there" and bio["focused"] is True
    assert nodes[("combobox", "Country")]["value"] == "Choose..."
    assert nodes[("checkbox", "Newsletter")]["checked"] is False
    assert nodes[("checkbox", "Alerts")]["checked"] is True
    assert nodes[("radio", "Free")]["checked"] is True
    assert "checked" not in nodes[("button", "Save")] and "focused" not in nodes[("button", "Save")]
    page_as_loaded(http, tab, f"{pages}/buttons.html")
    nodes = {(n["role"], n["name"]): n for n in snap(http, tab)["nodes"]}
    assert nodes[("button", "Disabled button")]["disabled"] is True
    assert "disabled" not in nodes[("button", "Increment")]


def test_interactive_refs_are_the_ones_actions_use(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/buttons.html")
    s = snap(http, tab, filter="interactive")
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": ref_of(s, "button", "Increment")})
    assert res.status_code == 200, res.text
    assert js(http, tab, "document.getElementById('count').textContent") == "1"
    assert_no_structural_noise(http, tab)


def test_password_value_is_masked(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/login.html")
    js(http, tab, "document.getElementById('password').value = 'hunter2'")
    s = snap(http, tab)
    node = next(n for n in s["nodes"] if n["name"] == "Password")
    assert "hunter2" not in json.dumps(s)
    assert node["value"] == "\u2022" * 8  # PinchTab's mask: filled, of no telling length


def test_clickable_divs_are_labelled_clickable_not_generic(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/login.html")
    js(http, tab, "(() => { const d = document.createElement('div'); d.setAttribute('onclick', 'this.textContent=\"done\"');"
                  " d.textContent = 'Open menu'; document.body.appendChild(d); return 1; })()")
    nodes = snap(http, tab, filter="interactive")["nodes"]
    node = next(n for n in nodes if n["name"] == "Open menu")
    assert node["role"] == "clickable"
    assert http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": node["ref"]}).status_code == 200
    assert "done" in js(http, tab, "document.body.innerText")


def test_interactive_filter(http: httpx.Client, login_tab: str) -> None:
    tab = login_tab  # reads login.html
    full = snap(http, tab)
    inter = snap(http, tab, filter="interactive")
    assert snap(http, tab, interactive="true") == inter
    assert roles_names(inter) == [
        ("link", "Home"), ("link", "Table"), ("textbox", "Email address"), ("textbox", "Password"),
        ("checkbox", "Remember me"), ("button", "Log in"), ("link", "Forgot password?"), ("link", "Terms of Service"),
    ]
    # refs are element identities: each interactive node has the ref the full snapshot gave it
    full_refs = {n["nodeId"]: n["ref"] for n in full["nodes"]}
    assert {n["nodeId"]: n["ref"] for n in inter["nodes"]}.items() <= full_refs.items()
    assert snap(http, tab, filter="all") == full


def test_text_format(http: httpx.Client, login_tab: str, pages: str) -> None:
    tab = login_tab
    js(http, tab, "const e = document.getElementById('email'); e.value = 'a@b.c'; e.focus()")
    data = snap(http, tab)
    text = snapshot_text(http, tab)
    lines = text.splitlines()
    assert lines[:3] == ["# Login", f"# {pages}/login.html", f"# {data['count']} nodes"]
    body = lines[3:]
    assert len(body) == data["count"]
    for node, line in zip(data["nodes"], body, strict=True):
        assert line.startswith("  " * node["depth"] + node["ref"] + " " + node["role"]), line
    assert '    e10 button "Log in"' in body
    assert '    e7 textbox "Email address" val="a@b.c" [focused]' in body
    assert '    e9 checkbox "Remember me" [unchecked]' in body
    assert "e4 main" in body


def test_compact_format(http: httpx.Client, login_tab: str) -> None:
    tab = login_tab
    res = http.get(f"/tabs/{tab}/snapshot", params={"format": "compact"})
    assert res.status_code == 200
    lines = res.text.splitlines()
    assert lines[0].startswith("#") and "Login" in lines[0]
    assert 'e10:button "Log in"' in lines
    assert not any(line.startswith(" ") for line in lines)
    assert len(lines) == 1 + snap(http, tab)["count"]
    assert len(res.text) < len(snapshot_text(http, tab))
    assert len(res.text) < len(http.get(f"/tabs/{tab}/snapshot").text) / 2


def test_yaml_format(http: httpx.Client, login_tab: str) -> None:
    tab = login_tab
    res = http.get(f"/tabs/{tab}/snapshot", params={"format": "yaml"})
    assert res.status_code == 200
    lines = res.text.splitlines()
    assert lines[0] == "# Login"
    assert '- banner [ref=e0]:' in lines
    assert '  - navigation "Main" [ref=e1]:' in lines
    assert '    - link "Home" [ref=e2]' in lines
    assert '    - button "Log in" [ref=e10]' in lines
    assert '    - checkbox "Remember me" [ref=e9] [unchecked]' in lines


def test_depth(http: httpx.Client, login_tab: str) -> None:
    tab = login_tab  # reads login.html
    full = snap(http, tab)
    for depth in (0, 1, 2):
        s = snap(http, tab, depth=depth)
        assert s["nodes"], depth
        assert max(n["depth"] for n in s["nodes"]) == depth
        expected = [(n["role"], n["name"]) for n in full["nodes"] if n["depth"] <= depth]
        assert roles_names(s) == expected
    assert roles_names(snap(http, tab, depth=0)) == [("banner", ""), ("main", ""), ("contentinfo", "")]
    assert http.get(f"/tabs/{tab}/snapshot", params={"depth": -1}).status_code == 400


def test_selector_subtree(http: httpx.Client, first_snapshots_tab: str) -> None:
    tab = first_snapshots_tab  # on login.html
    s = snap(http, tab, selector="#login")
    assert roles_names(s) == [
        ("form", "Login form"), ("textbox", "Email address"), ("textbox", "Password"),
        ("checkbox", "Remember me"), ("button", "Log in"), ("link", "Forgot password?"),
    ]
    assert s["nodes"][0]["depth"] == 0 and s["nodes"][1]["depth"] == 1
    assert s["nodes"][0]["ref"] == "e0"
    inter = snap(http, tab, selector="nav", filter="interactive")
    assert roles_names(inter) == [("link", "Home"), ("link", "Table")]


def test_selector_errors(http: httpx.Client, login_tab: str) -> None:
    tab = login_tab  # reads login.html
    res = http.get(f"/tabs/{tab}/snapshot", params={"selector": "###"})
    assert res.status_code == 400 and res.json()["code"] == "bad_selector"
    assert "###" in res.json()["error"]
    res = http.get(f"/tabs/{tab}/snapshot", params={"selector": "#nothing-here"})
    assert res.status_code == 404 and res.json()["code"] == "selector_not_found"
    # the tab still works
    assert snap(http, tab)["count"] == 14


@pytest.mark.parametrize("fmt", ["json", "text", "compact", "yaml"])
def test_max_tokens(http: httpx.Client, large_tab: str, fmt: str) -> None:
    tab = large_tab
    full = http.get(f"/tabs/{tab}/snapshot", params={"format": fmt})
    budget = 800
    res = http.get(f"/tabs/{tab}/snapshot", params={"format": fmt, "maxTokens": budget})
    assert res.status_code == 200
    assert len(res.text) <= budget * 4
    assert len(res.text) > budget * 4 * 0.7  # uses the budget rather than giving up early
    if fmt == "json":
        body = res.json()
        assert body["truncated"] is True
        assert body["count"] == len(body["nodes"]) < body["totalCount"] == full.json()["count"]
        assert body["nodes"] == full.json()["nodes"][: body["count"]]
    else:
        assert "truncated" in res.text.splitlines()[-1]
    assert "truncated" not in http.get(f"/tabs/{tab}/snapshot", params={"format": fmt, "maxTokens": 10**6}).text


def test_diff(http: httpx.Client, fresh_tab: str, pages: str) -> None:
    tab = fresh_tab
    open_page(http, tab, f"{pages}/form.html")
    before = snap(http, tab)
    js(http, tab, """
        document.getElementById('news').checked = true;
        document.getElementById('save').remove();
        const b = document.createElement('button'); b.textContent = 'Export'; b.type = 'button';
        document.querySelector('form').append(b);
    """)
    d = snap(http, tab, diff="true")
    assert d["diff"] is True
    assert [(n["role"], n["name"]) for n in d["added"]] == [("button", "Export")]
    assert [(n["role"], n["name"], n["checked"]) for n in d["changed"]] == [("checkbox", "Newsletter", True)]
    save = next(n for n in before["nodes"] if n["name"] == "Save")
    assert d["removed"] == [{"ref": save["ref"], "role": "button", "name": "Save", "nodeId": save["nodeId"]}]
    # nothing changed since: an empty diff
    again = snap(http, tab, diff="true")
    assert (again["added"], again["changed"], again["removed"]) == ([], [], [])
    # refs in added/changed are the new snapshot's: they work for actions
    new_ref = d["added"][0]["ref"]
    js(http, tab, "document.querySelector('form').lastElementChild.onclick = () => { window.exported = true }")
    assert http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": new_ref}).status_code == 200
    assert js(http, tab, "window.exported") is True
    # the click focused the button: a change
    focused = snap(http, tab, diff="true")
    assert [(n["name"], n.get("focused")) for n in focused["changed"]] == [("Export", True)]
    # text form of a diff
    js(http, tab, "document.getElementById('alerts').checked = false")
    text = snapshot_text(http, tab, diff="true")
    assert "# diff: 0 added, 1 changed, 0 removed" in text
    assert '~ e5 checkbox "Alerts" [unchecked]' in text.splitlines()


def test_first_diff_reports_everything_as_added(http: httpx.Client, first_snapshots_tab: str) -> None:
    tab = first_snapshots_tab  # on login.html, no whole-page snapshot yet
    d = snap(http, tab, diff="true")
    assert len(d["added"]) == d["count"] == 14 and d["removed"] == []


def test_same_origin_iframe_content_is_included(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/iframe.html")
    s = snap(http, tab)
    got = roles_names(s)
    assert got.index(("button", "Outer button")) < got.index(("heading", "Inner frame"))
    assert ("textbox", "Inner name") in got and ("button", "Inner button") in got
    inner = next(n for n in s["nodes"] if n["name"] == "Inner button")
    assert isinstance(inner["nodeId"], int)
    assert_no_structural_noise(http, tab)


def test_hidden_elements_are_excluded_and_open_shadow_dom_included(http: httpx.Client, tab: str, pages: str) -> None:
    """Hidden elements, shadow DOM, then a visible child of a hidden parent, on one load of index.html."""
    open_page(http, tab, f"{pages}/index.html")
    names = [n["name"] for n in snap(http, tab)["nodes"]]
    assert "Hidden button" not in names  # display:none
    assert "Aria hidden" not in names  # aria-hidden=true
    assert "Invisible" not in names  # visibility:hidden
    assert "Shadow button" in names
    assert "Shadow button" in [n["name"] for n in snap(http, tab, filter="interactive")["nodes"]]
    assert_no_structural_noise(http, tab)
    # a visibility:hidden parent with a visible child (the same load)
    js(http, tab, """document.body.insertAdjacentHTML('beforeend',
        '<div style="visibility:hidden"><span>Secret words</span><button style="visibility:visible">Shown child</button></div>')""")
    names = [n["name"] for n in snap(http, tab)["nodes"]]
    assert "Shown child" in names
    assert not any("Secret words" in n for n in names)


def assert_no_structural_noise(http: httpx.Client, tab: str) -> None:
    """No generic or presentational node, no blank text, in the full and the interactive snapshot."""
    for params in ({}, {"filter": "interactive"}):
        for node in snap(http, tab, **params)["nodes"]:
            assert node["role"] not in STRUCTURAL, node
            if node["role"] == "text":
                assert node["name"].strip(), node


# form.html, buttons.html, table.html, iframe.html, index.html and widgets.html: checked by the tests
# that read them (one load each, not two), login.html and large.html on the tabs that show them to readers.
@pytest.mark.parametrize("page", ["login.html", "events.html", "large.html"])
def test_no_structural_noise(http: httpx.Client, tab: str, pages: str, page: str, request: pytest.FixtureRequest) -> None:
    if page in READ_ONLY_TABS:  # a tab of the module that shows it already
        tab = request.getfixturevalue(READ_ONLY_TABS[page])
    else:
        open_page(http, tab, f"{pages}/{page}")
    assert_no_structural_noise(http, tab)


def test_large_page(http: httpx.Client, large_tab: str) -> None:
    tab = large_tab
    started = time.monotonic()
    full = snap(http, tab)
    elapsed = time.monotonic() - started
    assert elapsed < 5, elapsed
    assert full["count"] > 500
    inter = snap(http, tab, filter="interactive")
    roles: dict[str, int] = {}
    for n in inter["nodes"]:
        roles[n["role"]] = roles.get(n["role"], 0) + 1
    # 80 rows x (Edit, Delete) + Search; 30 nav + 30 section + 20 footer links; 30 x (name, checkbox, select)
    assert roles == {"button": 161, "link": 80, "searchbox": 1, "textbox": 30, "checkbox": 30, "combobox": 30}
    assert inter["count"] == 332
    full_interactive = [n["nodeId"] for n in full["nodes"] if n["role"] in roles]
    assert [n["nodeId"] for n in inter["nodes"]] == full_interactive
    assert ("button", "Delete 79") in roles_names(inter)
    ids = [n["nodeId"] for n in full["nodes"]]
    assert all(isinstance(i, int) for i in ids) and len(set(ids)) == len(ids)


def test_table_rows_on_the_current_tab(http: httpx.Client, tab: str, pages: str) -> None:
    """Table rows, through /snapshot?tabId and the tab's own route, on one load of table.html; an unknown tab."""
    # snapshot on the current tab and unknown tab
    open_page(http, tab, f"{pages}/table.html")
    res = http.get("/snapshot", params={"tabId": tab})
    assert res.status_code == 200 and res.json()["title"] == "Team table"
    res = http.get("/tabs/NOPE/snapshot")
    assert res.status_code == 404 and res.json()["code"] == "tab_not_found"
    # table rows (the same load)
    s = snap(http, tab)
    got = roles_names(s)
    assert ("table", "Team members") in got
    assert ("cell", "Ada Lovelace") in got and ("columnheader", "Role") in got
    assert [name for role, name in got if role == "button"] == ["Edit", "Edit", "Edit"]
    assert_no_structural_noise(http, tab)


def test_widgets_chromium_gives_no_aria_role(http: httpx.Client, tab: str, pages: str) -> None:
    """Widgets without an ARIA role, then a contenteditable's text as its value, on one load of widgets.html."""
    open_page(http, tab, f"{pages}/widgets.html")
    nodes = {n["name"]: n for n in snap(http, tab)["nodes"]}
    # children of display:contents wrappers, and of a component whose :host is display:contents
    assert nodes["Inside contents"]["role"] == "button"
    assert nodes["Card title"]["role"] == "heading" and nodes["Buy now"]["role"] == "button"
    assert nodes["12 EUR"]["role"] == "text"  # slotted light DOM
    assert "Hidden contents" not in nodes  # display:contents inside visibility:hidden
    # controls whose computedRole is empty
    assert nodes["More options"]["role"] == "button" and nodes["More options"]["expanded"] is False
    assert "Advanced setting" not in nodes  # inside the closed <details>
    assert nodes["Delivery date"]["role"] == "textbox" and nodes["Delivery time"]["role"] == "textbox"
    assert nodes["Colour"]["role"] == "textbox" and nodes["Colour"]["value"] == "#00ff00"
    # a contenteditable region without a role is still a text field
    assert nodes["Message body"]["role"] == "textbox"
    inter = [n["name"] for n in snap(http, tab, filter="interactive")["nodes"]]
    assert inter == ["Inside contents", "Buy now", "More options", "Delivery date", "Delivery time", "Colour",
                     "Message body"]
    assert_no_structural_noise(http, tab)
    # a contenteditable's text is its value (the same load)
    js(http, tab, "document.getElementById('editor').textContent = 'Dear team'")
    s = snap(http, tab)
    editor = next(n for n in s["nodes"] if n["name"] == "Message body")
    assert editor["value"] == "Dear team"
    assert not any(n["role"] == "text" and n["name"] == "Dear team" for n in s["nodes"])  # not twice


def test_diff_compares_with_the_last_snapshot_of_the_same_kind(http: httpx.Client, login_tab: str) -> None:
    tab = login_tab  # reads login.html
    snap(http, tab, filter="interactive")
    snap(http, tab)  # a full snapshot in between must not be what the next interactive diff sees
    diff = snap(http, tab, filter="interactive", diff="true")
    assert diff["added"] == [] and diff["removed"] == [] and diff["changed"] == []


def test_an_item_alone_between_dividers_is_still_an_item(http: httpx.Client, tab: str, pages: str) -> None:
    # a chat's first message sits alone between "Yesterday" and "Today": find still reads which
    # message each "Add reaction" belongs to
    open_page(http, tab, f"{pages}/chat-dividers.html")
    buttons = [n["ref"] for n in snap(http, tab)["nodes"] if n["name"] == "Add reaction"]
    assert len(buttons) == 3
    for query, ref in (("react to the invoice run message", buttons[0]), ("react to the staging is down message", buttons[1]),
                       ("react to the release notes message", buttons[2])):
        found = http.post(f"/tabs/{tab}/find", json={"query": query}).json()
        assert found["best_ref"] == ref, (query, found)


def test_a_disclosure_button_names_the_list_it_opens(http: httpx.Client, tab: str, pages: str) -> None:
    # a docs sidebar: "Errors" under "Guides", under "Reference" and under "SDKs" are told apart by
    # the aria-expanded button (or <summary>) just above their unnamed list
    open_page(http, tab, f"{pages}/docs-nav.html")
    errors = [n["ref"] for n in snap(http, tab)["nodes"] if n["name"] == "Errors"]
    assert len(errors) == 3
    for query, ref in (("errors page under reference", errors[1]), ("errors in guides", errors[0]),
                       ("errors under SDKs", errors[2])):
        found = http.post(f"/tabs/{tab}/find", json={"query": query}).json()
        assert found["best_ref"] == ref, (query, found)


def test_icon_controls_answer_icon_queries(http: httpx.Client, tab: str, pages: str) -> None:
    # a control named by aria-label/title that shows only a glyph, an emoji or an svg is what
    # "... icon" describes; the folder link that says the word is not
    open_page(http, tab, f"{pages}/icons.html")
    nodes = snap(http, tab)["nodes"]
    ref = {n["name"]: n["ref"] for n in nodes}
    for query, name in (("trash can icon", "Delete"), ("gear icon", "Preferences"), ("trash folder", "Trash")):
        found = http.post(f"/tabs/{tab}/find", json={"query": query}).json()
        assert found["best_ref"] == ref[name], (query, found)


def test_a_misspelt_query_is_read_as_spelt_right(http: httpx.Client, tab: str, pages: str) -> None:
    # "shufle": the one page word a typo away, read as that word ("playlist", spelt right, no
    # longer outweighs it); "thrid": an ordinal again, not a word to match
    open_page(http, tab, f"{pages}/player.html")
    nodes = snap(http, tab)["nodes"]
    shuffle = next(n["ref"] for n in nodes if n["name"] == "Shuffle play Morning Mix")
    plays = [n["ref"] for n in nodes if n["name"] == "Play" and n["role"] == "button"]
    for query, want in (("shufle the playlist", shuffle), ("thrid play button", plays[2])):
        found = http.post(f"/tabs/{tab}/find", json={"query": query}).json()
        assert found["best_ref"] == want, (query, found)


def test_unnamed_icons_untied_labels_and_collapsed_sections(http: httpx.Client, tab: str, pages: str) -> None:
    """widget-labels.html read as a person reads it: unnamed icons, untied labels, controls in
    collapsed sections (one load)."""
    # unnamed icons and untied labels are read as a person reads them
    # an icon-font button with no name is described by its glyph ("edit icon"); a control the page
    # did not tie to its caption gets the caption as its label (not a table cell's text)
    open_page(http, tab, f"{pages}/widget-labels.html")
    nodes = snap(http, tab)["nodes"]
    buttons = [n for n in nodes if n["role"] == "button"]
    found = {q: http.post(f"/tabs/{tab}/find", json={"query": q}).json()["best_ref"]
             for q in ("edit", "trash can", "next page", "region", "minimum units slider",
                       "smooth the curve", "filter column", "filter operator")}
    assert found["edit"] == buttons[0]["ref"]
    assert found["trash can"] == buttons[1]["ref"]
    assert found["next page"] == buttons[2]["ref"]
    assert found["region"] == next(n["ref"] for n in buttons if n["name"] == "North")
    assert found["minimum units slider"] == next(n["ref"] for n in nodes if n["role"] == "slider")
    checkboxes = [n for n in nodes if n["role"] == "checkbox"]
    assert found["smooth the curve"] == checkboxes[0]["ref"]
    selects = [n["ref"] for n in nodes if n["role"] == "combobox"]  # bare fields: their form names
    assert [found["filter column"], found["filter operator"]] == selects
    assert found["smooth the curve"] != checkboxes[1]["ref"]
    # a control inside a collapsed section is found through its toggle (the same load)
    # a closed <details> and an aria-controls region hide their controls from the snapshot; find
    # answers with the toggle to open and says so, and not for a query the toggle's name answers
    nodes = snap(http, tab)["nodes"]
    dates = next(n["ref"] for n in nodes if n["name"] == "Important dates" and n["role"] == "button")
    advanced = next(n["ref"] for n in nodes if n["name"] == "Advanced options")
    assert not any(n["name"] == "Date joined" for n in nodes)
    for query, ref in (("date joined", dates), ("make the task private", advanced)):
        found = http.post(f"/tabs/{tab}/find", json={"query": query}).json()
        assert found["best_ref"] == ref, (query, found)
        assert f"expand it (click {ref})" in found["hint"]
    found = http.post(f"/tabs/{tab}/find", json={"query": "important dates"}).json()
    assert found["best_ref"] == dates and "hint" not in found


def test_drawn_tabs_hidden_labels_dual_lists_and_columns(http: httpx.Client, tab: str, pages: str) -> None:
    # tabs drawn as divs are tabs; a date picker's caption goes past its hidden input; a list's
    # name is its label (its help text describes it) and an arrow between two lists says which
    # one it moves to (an arrow when its words are pushed out of its box); a table cell knows its
    # column, so find reads "bob's email" by row and column
    open_page(http, tab, f"{pages}/drawn-widgets.html")
    nodes = snap(http, tab)["nodes"]
    tabs = [(n["name"], n.get("selected", False)) for n in nodes if n["role"] == "tab"]
    assert tabs == [("Overview", True), ("Forecast", False)]
    lists = [n["name"] for n in nodes if n["role"] == "listbox"]
    assert lists == ["Available groups", "Chosen groups"]
    find = {q: http.post(f"/tabs/{tab}/find", json={"query": q}).json()
            for q in ("forecast tab", "start date", "move the selected group to chosen",
                      "arrow back to available groups", "email of Chen Wei", "bob's email")}
    ref = {n["name"]: n["ref"] for n in nodes}
    assert find["forecast tab"]["best_ref"] == ref["Forecast"]
    assert find["start date"]["best_ref"] == next(n["ref"] for n in nodes if n["role"] == "textbox")
    assert find["move the selected group to chosen"]["best_ref"] == ref["Choose selected groups"]
    # its words pushed out of its box, the arrow is an icon
    assert find["arrow back to available groups"]["best_ref"] == ref["Remove selected groups"]
    assert find["email of Chen Wei"]["best_ref"] == ref["chen@example.com"]
    assert find["bob's email"]["best_ref"] == ref["bob@example.com"]
    # the interactive snapshot keeps the drawn tabs
    inter = snap(http, tab, filter="interactive")["nodes"]
    assert [n["name"] for n in inter if n["role"] == "tab"] == ["Overview", "Forecast"]


def test_field_shortcuts_and_a_dropdown_drawn_as_a_button(http: httpx.Client, tab: str, pages: str) -> None:
    # an icon link drawn by a child with a tooltip is described by it; a "Now" beside each time
    # field is told apart by the field; a button showing its list's value is the dropdown its label names
    open_page(http, tab, f"{pages}/field-shortcuts.html")
    nodes = snap(http, tab)["nodes"]
    links = [n for n in nodes if n["role"] == "link"]
    assert [n["name"] for n in links] == ["Today", "", "Now", ""] * 2
    found = {q: http.post(f"/tabs/{tab}/find", json={"query": q}).json()["best_ref"]
             for q in ("now link for the last login time", "now for the date joined time",
                       "clock for the last login time", "calendar for date joined", "region dropdown",
                       "choose a time")}
    assert found["choose a time"] == links[3]["ref"]
    assert found["now link for the last login time"] == links[2]["ref"]
    assert found["now for the date joined time"] == links[6]["ref"]
    assert found["clock for the last login time"] == links[3]["ref"]
    assert found["calendar for date joined"] == links[5]["ref"]
    assert found["region dropdown"] == ref_of({"nodes": nodes}, "button", "North")
