"""Actions against a real Chromium, each checked by its effect on the page."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import js, open_page, open_tab, ref_of, snap


# Each test opens the page it acts on: one tab serves the module (opening and closing one per test
# cost more than the test). The tests about a ref their tab never gave (e99) share another, which
# shows only buttons.html: refs of the pages the module's tab showed before are stale there, not
# unknown, and buttons.html gives 18 refs a showing (72 for the four: one load, then the page put
# back by script, new elements with new refs as a load gives). The test about a tab that
# gave no refs yet has a fresh one. Cases that act on different elements of one page share a test
# and one load of it: a navigation costs Chromium ~0.16 s of CPU, more than the rest of such a case.
tab = pytest.fixture(scope="module", name="tab")(open_tab)
refs_tab = pytest.fixture(scope="module", name="refs_tab")(open_tab)
fresh_tab = pytest.fixture(name="fresh_tab")(open_tab)


# A page as it was loaded, its body and title put back by script: for a page whose handlers are
# inline attributes and whose functions are global, the new elements from the markup work as the
# page's own did (new elements, new refs: the ones a test took are stale). A navigation costs
# Chromium ~0.2 s of CPU, the script ~0.01 s.
RESTORE_PAGE = """document.documentElement.removeAttribute('style');
document.body.innerHTML = window.loaded.body;
document.title = window.loaded.title;
document.activeElement?.blur();
scrollTo(0, 0);
"""
# A page whose script binds listeners to its elements gets them on the new ones by running the
# script again, each in a function of its own (a script's top-level let and const are declared
# already; its global functions stay).
RERUN_SCRIPTS = "for (const s of document.body.querySelectorAll('script')) new Function(s.textContent)();\n"


def page_as_loaded(http: httpx.Client, tab: str, url: str, reset: str = "", rerun_scripts: bool = False) -> None:
    """``tab`` on ``url`` as loaded (a page of inline handlers and global functions, or with
    ``rerun_scripts`` a page whose body scripts can run again): a tab already on it gets the page's
    body and title back, scrolled to the top, and ``reset`` run (a script that puts the page's
    globals back), instead of a new load."""
    if js(http, tab, "location.href === %r && typeof window.loaded === 'object'" % url):
        assert js(http, tab, f"{reset};{RESTORE_PAGE}{RERUN_SCRIPTS if rerun_scripts else ''}scrollY") == 0
    else:
        open_page(http, tab, url)
        js(http, tab, "window.loaded = {body: document.body.innerHTML, title: document.title}; 1")


def on_page(http: httpx.Client, tab: str, url: str) -> None:
    """``tab`` on ``url``, loaded only when it shows another page: for a test that needs the page,
    not a fresh load of it."""
    if js(http, tab, "location.href") != url:
        open_page(http, tab, url)


def buttons_page(http: httpx.Client, tab: str, pages: str) -> None:
    """The module's tab on buttons.html as loaded (most of the module's tests act on it)."""
    page_as_loaded(http, tab, f"{pages}/buttons.html")


def events_page(http: httpx.Client, tab: str, pages: str) -> None:
    """The module's tab on events.html as loaded, its event log empty (its script logs the events
    of its elements)."""
    page_as_loaded(http, tab, f"{pages}/events.html", rerun_scripts=True)


def form_page(http: httpx.Client, tab: str, pages: str) -> None:
    """The module's tab on form.html as loaded."""
    page_as_loaded(http, tab, f"{pages}/form.html")


def give_up_soon(bridge_server: Any, tab: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The session bridge's tab ``tab`` gives up on a target that does not become actionable after
    0.3 s (``browser.actionabilityWaitMs``, 1 s by default, read by a tab when it opens), for a
    test of a click that is refused, which waits that long for nothing."""
    monkeypatch.setattr(bridge_server.server.config.app.state.browser.tabs[tab], "actionability_wait_s", 0.3)


@pytest.fixture()
def quick_refusal(bridge_server: Any, tab: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The module's tab, giving up soon (``give_up_soon``)."""
    give_up_soon(bridge_server, tab, monkeypatch)
    return tab


def act(http: httpx.Client, tab: str, **body: Any) -> httpx.Response:
    return http.post(f"/tabs/{tab}/action", json=body)


def ok(http: httpx.Client, tab: str, **body: Any) -> dict[str, Any]:
    res = act(http, tab, **body)
    assert res.status_code == 200, res.text
    out = res.json()
    assert out["success"] is True and out["kind"] == body["kind"]
    return out


def text_of(http: httpx.Client, tab: str, element_id: str) -> str:
    return js(http, tab, f"document.getElementById({element_id!r}).textContent")


def event_log(http: httpx.Client, tab: str, element_id: str) -> list[dict[str, Any]]:
    return js(http, tab, f"window.log.filter(e => e.id === {element_id!r})")


# -- pointer --------------------------------------------------------------------------------------


def test_click_by_ref_and_hover(http: httpx.Client, tab: str, pages: str) -> None:
    """Clicks by ref, a hover, and a click on a button far below, on one load of buttons.html."""
    # click by ref
    buttons_page(http, tab, pages)
    ref = ref_of(snap(http, tab), "button", "Increment")
    out = ok(http, tab, kind="click", ref=ref)
    assert out["ref"] == ref
    assert text_of(http, tab, "count") == "1"
    ok(http, tab, kind="click", ref=ref)
    assert text_of(http, tab, "count") == "2"
    # hover (the same load)
    assert text_of(http, tab, "hovered") == "no"
    ok(http, tab, kind="hover", ref=ref_of(snap(http, tab), "text", "Hover over me"))
    assert text_of(http, tab, "hovered") == "yes"
    assert js(http, tab, "document.getElementById('hover-target').matches(':hover')") is True
    # click far away button scrolls it into view (the same load)
    assert js(http, tab, "document.getElementById('far').getBoundingClientRect().top > innerHeight") is True
    ok(http, tab, kind="click", ref=ref_of(snap(http, tab), "button", "Far away button"))
    assert text_of(http, tab, "farcount") == "1"
    assert js(http, tab, "scrollY") > 0


def test_click_and_typing_send_real_events(http: httpx.Client, tab: str, pages: str) -> None:
    """Real mouse and key events, appending in a textarea and a React-controlled field, each on its own element of one load of events.html."""
    # click sends real mouse events
    events_page(http, tab, pages)
    ok(http, tab, kind="click", ref=ref_of(snap(http, tab), "button", "Log clicks"))
    log = event_log(http, tab, "clicker")
    assert [e["type"] for e in log] == ["mousedown", "mouseup", "click"]
    assert all(e["trusted"] for e in log)
    # type sends key events per character (the same load)
    ok(http, tab, kind="type", ref=ref_of(snap(http, tab), "textbox", "Typed input"), text="Hi 5!")
    assert js(http, tab, "document.getElementById('typed').value") == "Hi 5!"
    log = event_log(http, tab, "typed")
    assert [e["key"] for e in log if e["type"] == "keydown"] == ["H", "i", " ", "5", "!"]
    assert [e["type"] for e in log if e["type"] != "change"] == ["keydown", "keypress", "input", "keyup"] * 5
    assert all(e["trusted"] for e in log)
    # type appends and newline in textarea (the same load)
    js(http, tab, "document.getElementById('area').value = 'line1'")
    ok(http, tab, kind="type", selector="#area", text="\nline2")
    assert js(http, tab, "document.getElementById('area').value") == "line1\nline2"
    # fill reaches a react controlled input (the same load)
    # the naive way (el.value = ...; dispatch input) is invisible to the app, as with React
    js(http, tab, "const c = document.getElementById('controlled'); c.value = 'naive';"
                  " c.dispatchEvent(new Event('input', {bubbles: true}))")
    assert text_of(http, tab, "controlled-state") == ""
    ok(http, tab, kind="fill", ref=ref_of(snap(http, tab), "textbox", "Controlled field"), value="from fill")
    assert text_of(http, tab, "controlled-state") == "state=from fill"


def test_dblclick(http: httpx.Client, tab: str, pages: str) -> None:
    # events.html first: the test before left it there, and the one after acts on buttons.html
    events_page(http, tab, pages)
    ok(http, tab, kind="dblclick", selector="#clicker")
    types = [e["type"] for e in event_log(http, tab, "clicker")]
    assert types.count("click") == 2 and types.count("dblclick") == 1
    buttons_page(http, tab, pages)
    ok(http, tab, kind="dblclick", ref=ref_of(snap(http, tab), "button", "Double me"))
    assert text_of(http, tab, "dcount") == "1"


def test_click_by_selector(http: httpx.Client, tab: str, pages: str) -> None:
    buttons_page(http, tab, pages)
    out = ok(http, tab, kind="click", selector="#inc")
    assert "ref" not in out
    assert text_of(http, tab, "count") == "1"
    res = act(http, tab, kind="click", selector="#nope")
    assert res.status_code == 404 and res.json()["code"] == "selector_not_found"
    res = act(http, tab, kind="click", selector="button[")
    assert res.status_code == 400 and res.json()["code"] == "bad_selector"
    assert text_of(http, tab, "count") == "1"


def test_click_by_coordinates(http: httpx.Client, tab: str, pages: str) -> None:
    buttons_page(http, tab, pages)
    x, y = js(http, tab, "(() => { const r = document.getElementById('inc').getBoundingClientRect();"
                         " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
    ok(http, tab, kind="click", x=x, y=y)
    assert text_of(http, tab, "count") == "1"
    # coordinates of nothing in particular: a click, and no counter moves
    ok(http, tab, kind="click", x=5, y=js(http, tab, "innerHeight") - 5)
    assert text_of(http, tab, "count") == "1"
    # outside the viewport: refused, not sent to Chromium
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "x": 5, "y": 5000})
    assert res.status_code == 400 and res.json()["code"] == "point_outside_viewport"


def test_hover_by_coordinates(http: httpx.Client, tab: str, pages: str) -> None:
    buttons_page(http, tab, pages)
    x, y = js(http, tab, "(() => { const r = document.getElementById('hover-target').getBoundingClientRect();"
                         " return [r.x + 5, r.y + r.height / 2]; })()")
    ok(http, tab, kind="hover", x=x, y=y)
    assert text_of(http, tab, "hovered") == "yes"


def test_click_in_a_scrolled_container(http: httpx.Client, tab: str, pages: str) -> None:
    buttons_page(http, tab, pages)
    # smooth scrolling must not move the target after it was measured
    js(http, tab, """document.documentElement.style.scrollBehavior = 'smooth';
        document.body.insertAdjacentHTML('afterbegin', '<div id="box" style="height:100px;overflow:auto;scroll-behavior:smooth">' +
          '<div style="height:1000px">tall<button id="deep" style="margin-top:600px" onclick="this.textContent=\\'deep clicked\\'">Deep</button></div></div>')""")
    ok(http, tab, kind="scroll", selector="#box", pixels=100)
    assert js(http, tab, "box.scrollTop") == 100
    # the button is inside the window's viewport but clipped by its container
    ok(http, tab, kind="click", selector="#deep")
    assert js(http, tab, "deep.textContent") == "deep clicked"
    ok(http, tab, kind="click", ref=ref_of(snap(http, tab), "button", "Far away button"))
    assert text_of(http, tab, "farcount") == "1"


def test_click_with_wait_nav(http: httpx.Client, tab: str, pages: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from pinchtab.browser.core import tab as tabs

    open_page(http, tab, f"{pages}/index.html")
    ok(http, tab, kind="click", ref=ref_of(snap(http, tab), "link", "Login"), waitNav=True)
    assert js(http, tab, "[location.pathname, document.readyState]") == ["/login.html", "complete"]
    # nothing navigates: waitNav gives up quickly and still succeeds (after its grace for a
    # navigation to begin: 0.3 s here, not 1.5 s, on the session bridge in this process)
    monkeypatch.setattr(tabs, "NAV_START_GRACE", 0.3)
    ok(http, tab, kind="click", ref=ref_of(snap(http, tab), "checkbox", "Remember me"), waitNav=True)
    assert js(http, tab, "document.getElementById('remember').checked") is True


# -- keyboard and values --------------------------------------------------------------------------


def test_type_unicode_and_press_control_a(http: httpx.Client, tab: str, pages: str) -> None:
    """Unicode typed, then select all and type over it, in one load of events.html."""
    # type unicode
    events_page(http, tab, pages)
    ok(http, tab, kind="type", selector="#typed", text="café €5")
    assert js(http, tab, "document.getElementById('typed').value") == "café €5"
    # press control a selects all (the same load)
    js(http, tab, "document.getElementById('typed').value = 'select me'")
    ok(http, tab, kind="press", selector="#typed", key="Control+a")
    ok(http, tab, kind="press", selector="#typed", key="Backspace")
    assert js(http, tab, "document.getElementById('typed').value") == ""
    # select all, then type: the text is replaced, not appended to
    js(http, tab, "document.getElementById('typed').value = 'old words'")
    ok(http, tab, kind="press", selector="#typed", key="Control+a")
    ok(http, tab, kind="type", selector="#typed", text="new")
    assert js(http, tab, "document.getElementById('typed').value") == "new"
    # a field focused anew types at its end
    ok(http, tab, kind="focus", selector="#area")
    ok(http, tab, kind="type", selector="#typed", text="er")
    assert js(http, tab, "document.getElementById('typed').value") == "newer"


def test_fill_fires_input_and_change(http: httpx.Client, tab: str, pages: str) -> None:
    events_page(http, tab, pages)
    js(http, tab, "document.getElementById('typed').value = 'old text'")
    ok(http, tab, kind="fill", selector="#typed", value="new value")
    assert js(http, tab, "document.getElementById('typed').value") == "new value"
    types = [e["type"] for e in event_log(http, tab, "typed")]
    assert types == ["input", "change"]


def test_fill_errors_focus_and_presses(http: httpx.Client, tab: str, pages: str) -> None:
    """Refused fills, focus and key presses on their own fields of one load of buttons.html."""
    # fill errors
    buttons_page(http, tab, pages)
    res = act(http, tab, kind="fill", selector="#inc", value="x")
    assert res.status_code == 400 and res.json()["code"] == "not_fillable"
    res = act(http, tab, kind="fill", selector="#focus-me")
    assert res.status_code == 400 and res.json()["code"] == "missing_value"
    res = act(http, tab, kind="type", selector="#focus-me")
    assert res.status_code == 400 and res.json()["code"] == "missing_text"
    res = act(http, tab, kind="fill", x=10, y=10, value="x")
    assert res.status_code == 400 and res.json()["code"] == "missing_target"
    # focus (the same load)
    ok(http, tab, kind="focus", ref=ref_of(snap(http, tab), "textbox", "Focus target"))
    assert text_of(http, tab, "focused") == "yes"
    assert js(http, tab, "document.activeElement.id") == "focus-me"
    node = next(n for n in snap(http, tab)["nodes"] if n["name"] == "Focus target")
    assert node["focused"] is True
    # press named keys (the same load): each shows in #lastkey
    ref = ref_of(snap(http, tab), "textbox", "Key input")
    for key in ("ArrowDown", "Escape", "Tab", "Backspace", "a"):
        ok(http, tab, kind="press", ref=ref, key=key)
        assert text_of(http, tab, "lastkey") == key
    # press without target goes to the focused element (the same load)
    js(http, tab, "document.getElementById('keys').focus()")
    ok(http, tab, kind="press", key="ArrowUp")
    assert text_of(http, tab, "lastkey") == "ArrowUp"


def test_press_enter_submits_the_form(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/login.html")
    s = snap(http, tab)
    ok(http, tab, kind="fill", ref=ref_of(s, "textbox", "Email address"), value="ada@example.com")
    ok(http, tab, kind="type", ref=ref_of(s, "textbox", "Password"), text="hunter2")
    ok(http, tab, kind="press", ref=ref_of(s, "textbox", "Password"), key="Enter")
    assert js(http, tab, "document.title") == "Dashboard"
    assert text_of(http, tab, "welcome") == "Signed in as ada@example.com"


def test_press_unknown_key(http: httpx.Client, tab: str) -> None:
    # refused before the page is touched: whatever page the tab shows
    res = act(http, tab, kind="press", key="Hyper")
    assert res.status_code == 400 and res.json()["code"] == "unknown_key"
    res = act(http, tab, kind="press")
    assert res.status_code == 400 and res.json()["code"] == "missing_key"


def test_select_and_fill_form_fields(http: httpx.Client, tab: str, pages: str) -> None:
    """Select by value and by text (after the refused ones) and fills, on their own fields of one load of form.html."""
    # select errors
    form_page(http, tab, pages)
    s = snap(http, tab)
    res = act(http, tab, kind="select", ref=ref_of(s, "combobox", "Country"), value="Atlantis")
    assert res.status_code == 400 and res.json()["code"] == "option_not_found"
    assert "Germany" in res.json()["error"]  # lists what there is
    assert js(http, tab, "document.getElementById('country').value") == ""
    res = act(http, tab, kind="select", ref=ref_of(s, "button", "Save"), value="x")
    assert res.status_code == 400 and res.json()["code"] == "not_a_select"
    # select by value and by text (the same load)
    ref = ref_of(snap(http, tab), "combobox", "Country")
    out = ok(http, tab, kind="select", ref=ref, value="de")
    assert out["result"] == {"value": "de", "text": "Germany"}
    assert text_of(http, tab, "country-out") == "de"  # the change handler ran
    ok(http, tab, kind="select", ref=ref, value="Japan")
    assert text_of(http, tab, "country-out") == "jp"
    ok(http, tab, kind="select", ref=ref, text="france")  # visible text, any case
    assert js(http, tab, "document.getElementById('country').value") == "fr"
    node = next(n for n in snap(http, tab)["nodes"] if n["name"] == "Country")
    assert node["value"] == "France"
    # fill form fields (the same load)
    s = snap(http, tab)
    ok(http, tab, kind="fill", ref=ref_of(s, "textbox", "Framework field"), value="typed by fill")
    assert text_of(http, tab, "react-input") == "typed by fill"
    assert text_of(http, tab, "react-change") == "typed by fill"
    ok(http, tab, kind="fill", ref=ref_of(s, "textbox", "Bio"), text="multi\nline")
    assert js(http, tab, "document.getElementById('bio').value") == "multi\nline"
    ok(http, tab, kind="fill", ref=ref_of(s, "textbox", "Rich text"), value="rich words")
    assert js(http, tab, "document.getElementById('editable').textContent") == "rich words"
    # the snapshot shows the new values
    values = {n["name"]: n.get("value") for n in snap(http, tab)["nodes"]}
    assert values["Framework field"] == "typed by fill" and values["Rich text"] == "rich words"


def test_fill_on_a_select_selects(http: httpx.Client, tab: str, pages: str) -> None:
    form_page(http, tab, pages)
    ok(http, tab, kind="fill", selector="#country", value="Germany")
    assert text_of(http, tab, "country-out") == "de"


# -- check / uncheck ------------------------------------------------------------------------------


def test_check_and_uncheck(http: httpx.Client, tab: str, pages: str) -> None:
    """Check and uncheck: refused ones, a radio, checkboxes and an ARIA switch, on one load of form.html."""
    # check on something uncheckable
    form_page(http, tab, pages)
    res = act(http, tab, kind="check", ref=ref_of(snap(http, tab), "button", "Save"))
    assert res.status_code == 400 and res.json()["code"] == "not_checkable"
    # unchecking a radio is a conflict (the same load)
    res = http.post(f"/tabs/{tab}/action", json={"kind": "uncheck", "selector": "#free"})
    assert res.status_code == 409
    assert res.json()["code"] == "cannot_uncheck_radio"
    assert js(http, tab, "document.getElementById('free').checked") is True
    # check radio (the same load)
    ok(http, tab, kind="check", ref=ref_of(snap(http, tab), "radio", "Pro"))
    assert js(http, tab, "[free.checked, pro.checked]") == [False, True]
    # check and uncheck (the same load)
    s = snap(http, tab)
    news, alerts = ref_of(s, "checkbox", "Newsletter"), ref_of(s, "checkbox", "Alerts")
    assert ok(http, tab, kind="check", ref=news)["result"] == {"checked": True}
    assert text_of(http, tab, "checks") == "news=true alerts=true"  # the change handler ran
    ok(http, tab, kind="uncheck", ref=alerts)
    assert text_of(http, tab, "checks") == "news=true alerts=false"
    # idempotent: checking a checked box (or unchecking an unchecked one) changes nothing
    js(http, tab, "window.changes = 0; document.querySelectorAll('input').forEach(i => i.addEventListener('change', () => window.changes++))")
    ok(http, tab, kind="check", ref=news)
    ok(http, tab, kind="uncheck", ref=alerts)
    assert js(http, tab, "[news.checked, alerts.checked, window.changes]") == [True, False, 0]
    nodes = {n["name"]: n for n in snap(http, tab)["nodes"]}
    assert nodes["Newsletter"]["checked"] is True and nodes["Alerts"]["checked"] is False
    # check aria checkbox (the same load)
    js(http, tab, """document.body.insertAdjacentHTML('beforeend',
        '<div role="switch" id="sw" aria-checked="false" tabindex="0" aria-label="Dark mode" ' +
        'onclick="this.setAttribute(\\'aria-checked\\', this.getAttribute(\\'aria-checked\\') === \\'true\\' ? \\'false\\' : \\'true\\')">Dark</div>')""")
    ref = ref_of(snap(http, tab), "switch", "Dark mode")
    ok(http, tab, kind="check", ref=ref)
    assert js(http, tab, "sw.getAttribute('aria-checked')") == "true"
    ok(http, tab, kind="check", ref=ref)
    assert js(http, tab, "sw.getAttribute('aria-checked')") == "true"
    ok(http, tab, kind="uncheck", ref=ref)
    assert js(http, tab, "sw.getAttribute('aria-checked')") == "false"


# -- scrolling ------------------------------------------------------------------------------------


def test_scroll_page(http: httpx.Client, tab: str, pages: str) -> None:
    buttons_page(http, tab, pages)
    ok(http, tab, kind="scroll")
    assert js(http, tab, "scrollY") == 300  # default amount
    ok(http, tab, kind="scroll", pixels=500)
    assert js(http, tab, "scrollY") == 800
    ok(http, tab, kind="scroll", direction="up", pixels=200)
    assert js(http, tab, "scrollY") == 600
    ok(http, tab, kind="scroll", direction="up")
    assert js(http, tab, "scrollY") == 300


def test_scroll_ref_into_view(http: httpx.Client, tab: str, pages: str) -> None:
    buttons_page(http, tab, pages)
    in_view = "(() => { const r = document.getElementById('far').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()"
    assert js(http, tab, in_view) is False
    ok(http, tab, kind="scroll", ref=ref_of(snap(http, tab), "button", "Far away button"))
    assert js(http, tab, in_view) is True


def test_scroll_wheel_at_coordinates(http: httpx.Client, tab: str, pages: str) -> None:
    buttons_page(http, tab, pages)
    ok(http, tab, kind="scroll", x=300, y=300, pixels=400)
    # wheel scrolling is handled asynchronously by the compositor
    res = http.post(f"/tabs/{tab}/evaluate", json={"expression": "new Promise(r => { const t0 = Date.now(); (function f() { if (scrollY > 0 || Date.now() - t0 > 2000) r(scrollY); else requestAnimationFrame(f); })(); })"})
    assert res.json()["result"] == 400


# -- batches --------------------------------------------------------------------------------------


def test_actions_batch(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/login.html")
    s = snap(http, tab)
    res = http.post(f"/tabs/{tab}/actions", json={"actions": [
        {"kind": "fill", "ref": ref_of(s, "textbox", "Email address"), "value": "grace@example.com"},
        {"kind": "fill", "ref": ref_of(s, "textbox", "Password"), "value": "hunter2"},
        {"kind": "click", "ref": ref_of(s, "button", "Log in")},
    ]})
    assert res.status_code == 200, res.text
    body = res.json()
    assert body["success"] is True and [r["kind"] for r in body["results"]] == ["fill", "fill", "click"]
    assert text_of(http, tab, "welcome") == "Signed in as grace@example.com"


def test_actions_batch_stops_at_first_failure(http: httpx.Client, refs_tab: str, pages: str) -> None:
    tab = refs_tab  # a ref it never gave
    buttons_page(http, tab, pages)
    ref = ref_of(snap(http, tab), "button", "Increment")
    res = http.post("/actions", json={"tabId": tab, "actions": [
        {"kind": "click", "ref": ref},
        {"kind": "click", "selector": "#inc"},
        {"kind": "click", "ref": "e99"},
        {"kind": "click", "ref": ref},
    ]})
    assert res.status_code == 404
    body = res.json()
    assert body["code"] == "ref_not_found"
    assert body["failedIndex"] == 2
    assert len(body["results"]) == 2 and all(r["success"] for r in body["results"])
    assert "e99" in body["error"]
    assert text_of(http, tab, "count") == "2"  # the two before ran, the one after did not


@pytest.mark.parametrize("stop_on_error", [False, True])
def test_actions_batch_with_stop_on_error_records_each_outcome(http: httpx.Client, refs_tab: str, pages: str,
                                                                stop_on_error: bool) -> None:
    tab = refs_tab  # a ref it never gave
    # PinchTab's batch: stopOnError given -> 200, every outcome in results
    buttons_page(http, tab, pages)
    ref = ref_of(snap(http, tab), "button", "Increment")
    res = http.post(f"/tabs/{tab}/actions", json={"stopOnError": stop_on_error, "actions": [
        {"kind": "click", "ref": ref},
        {"kind": "click", "ref": "e99"},
        {"kind": "click", "selector": "#inc"},
    ]})
    assert res.status_code == 200, res.text
    body = res.json()
    ran = 2 if stop_on_error else 3
    assert [r["index"] for r in body["results"]] == list(range(ran))
    assert body["results"][0]["success"] is True and body["results"][0]["result"]["success"] is True
    failed = body["results"][1]
    assert failed["success"] is False and "e99" in failed["error"] and failed["code"] == "ref_not_found"
    assert body["total"] == 3 and body["successful"] == ran - 1 and body["failed"] == 3 - (ran - 1)
    assert text_of(http, tab, "count") == str(ran - 1)


def test_actions_batch_validation(http: httpx.Client, tab: str) -> None:
    res = http.post(f"/tabs/{tab}/actions", json={"actions": []})
    assert res.status_code == 400
    res = http.post(f"/tabs/{tab}/actions", json={"actions": [{"kind": "click", "ref": "e0"}, {"kind": "fly"}]})
    assert res.status_code == 400 and res.json()["code"] == "unknown_kind"


# -- failures -------------------------------------------------------------------------------------


def test_refused_clicks_do_not_click(http: httpx.Client, quick_refusal: str, pages: str) -> None:
    """Clicks on a covered, a disabled and an invisible button are refused and click nothing (one load of buttons.html)."""
    # occluded click fails and does not click
    tab = quick_refusal
    buttons_page(http, tab, pages)
    res = act(http, tab, kind="click", ref=ref_of(snap(http, tab), "button", "Covered button"))
    assert res.status_code == 500
    body = res.json()
    assert "element is occluded" in body["error"] and "overlay" in body["error"]
    assert body["code"] == "element_occluded"
    assert text_of(http, tab, "ccount") == "0"
    res = act(http, tab, kind="click", selector="#covered")
    assert res.status_code == 500 and text_of(http, tab, "ccount") == "0"
    # disabled button (the same load)
    js(http, tab, "window.clicked = 0; document.getElementById('disabled').parentElement.addEventListener('click', () => window.clicked++)")
    res = act(http, tab, kind="click", ref=ref_of(snap(http, tab), "button", "Disabled button"))
    assert res.status_code == 409
    assert res.json()["code"] == "element_disabled"
    assert js(http, tab, "window.clicked") == 0
    # invisible element (the same load)
    js(http, tab, "document.body.insertAdjacentHTML('beforeend', '<button id=\"ghost\" style=\"display:none\">Ghost</button>')")
    res = act(http, tab, kind="click", selector="#ghost")
    assert res.status_code == 409 and res.json()["code"] == "element_not_visible"


def test_missing_ref(http: httpx.Client, refs_tab: str, pages: str) -> None:
    tab = refs_tab  # a ref it never gave
    buttons_page(http, tab, pages)
    snap(http, tab)
    res = act(http, tab, kind="click", ref="e99")
    assert res.status_code == 404
    body = res.json()
    assert body["code"] == "ref_not_found"
    # the refs this tab gave, and where a ref of another one comes from
    assert body["error"].startswith("ref e99 not found - this tab's refs are e0..e"), body
    assert "(pass its tabId): take a /snapshot first" in body["error"]


def test_ref_before_any_snapshot(http: httpx.Client, fresh_tab: str, pages: str) -> None:
    tab = fresh_tab  # no refs yet
    open_page(http, tab, f"{pages}/buttons.html")
    res = act(http, tab, kind="click", ref="e1")
    assert res.status_code == 404
    assert res.json()["error"] == ("ref e1 not found - this tab has given no refs yet, and a ref belongs to the tab "
                                   "whose /snapshot or /find gave it (pass its tabId): take a /snapshot first")


def test_stale_ref_without_find_intent_fails_clearly(http: httpx.Client, tab: str, pages: str) -> None:
    buttons_page(http, tab, pages)
    s = snap(http, tab)
    old = ref_of(s, "button", "Save changes")
    ok(http, tab, kind="click", ref=ref_of(s, "button", "Re-render"))
    res = act(http, tab, kind="click", ref=old)
    assert res.status_code == 404, res.text
    body = res.json()
    assert body["code"] == "stale_ref"
    assert old in body["error"] and "snapshot" in body["error"]
    assert "recovery" not in body
    assert text_of(http, tab, "dyncount") == "0"
    # a new snapshot gives a ref that works
    ok(http, tab, kind="click", ref=ref_of(snap(http, tab), "button", "Save changes"))
    assert text_of(http, tab, "dyncount") == "1"


def test_stale_ref_from_find_is_recovered(http: httpx.Client, tab: str, pages: str) -> None:
    # the contrast to the test above: the same re-render, but the ref came from /find
    buttons_page(http, tab, pages)
    found = http.post(f"/tabs/{tab}/find", json={"query": "save changes button"}).json()
    ref = found["best_ref"]
    ok(http, tab, kind="click", selector="#rerender")
    out = ok(http, tab, kind="click", ref=ref)
    assert out["recovery"]["recovered"] is True and out["recovery"]["original_ref"] == ref
    assert text_of(http, tab, "dyncount") == "1"


def test_ref_after_navigation_is_stale(http: httpx.Client, tab: str, pages: str) -> None:
    buttons_page(http, tab, pages)
    ref = ref_of(snap(http, tab), "button", "Increment")
    open_page(http, tab, f"{pages}/buttons.html")
    res = act(http, tab, kind="click", ref=ref)
    assert res.status_code == 404 and res.json()["code"] == "stale_ref"
    assert text_of(http, tab, "count") == "0"


def test_unknown_kind_and_missing_target(http: httpx.Client, tab: str) -> None:
    # refused before the page is touched: whatever page the tab shows
    res = act(http, tab, kind="smash", ref="e1")
    assert res.status_code == 400 and res.json()["code"] == "unknown_kind"
    res = act(http, tab, kind="click")
    assert res.status_code == 400 and res.json()["code"] == "missing_target"
    res = act(http, tab, kind="click", x=10)
    assert res.status_code == 400 and res.json()["code"] == "missing_target"


# -- frames ---------------------------------------------------------------------------------------


def test_click_and_type_inside_same_origin_iframe(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/iframe.html")
    s = snap(http, tab)
    ok(http, tab, kind="click", ref=ref_of(s, "button", "Inner button"))
    inner = "document.getElementById('inner').contentDocument"
    assert js(http, tab, f"{inner}.getElementById('inner-out').textContent") == "inner clicked"
    assert js(http, tab, "document.getElementById('outer-out').textContent") == ""
    ok(http, tab, kind="type", ref=ref_of(s, "textbox", "Inner name"), text="Ada")
    assert js(http, tab, f"{inner}.getElementById('inner-input').value") == "Ada"
    ok(http, tab, kind="fill", ref=ref_of(s, "textbox", "Inner name"), value="Grace")
    assert js(http, tab, f"{inner}.getElementById('inner-input').value") == "Grace"
    ok(http, tab, kind="click", ref=ref_of(s, "button", "Outer button"))
    assert js(http, tab, "document.getElementById('outer-out').textContent") == "outer clicked"


def test_click_inside_framed_iframe_below_the_fold(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/iframe.html")
    # the frame has a border and padding, sits below the fold, and its content is scrolled
    js(http, tab, """(() => {
        const f = document.getElementById('inner');
        f.style.border = '7px solid black'; f.style.padding = '30px'; f.style.height = '150px';
        f.insertAdjacentHTML('beforebegin', '<div style="height:1500px"></div>');
        f.contentDocument.body.insertAdjacentHTML('afterbegin', '<div style="height:600px">tall</div>');
        window.hits = [];
        f.contentDocument.addEventListener('click', e => window.hits.push(e.target.id), true);
    })()""")
    ok(http, tab, kind="click", ref=ref_of(snap(http, tab), "button", "Inner button"))
    assert js(http, tab, "window.hits") == ["inner-btn"]
    assert js(http, tab, "document.getElementById('inner').contentDocument.getElementById('inner-out').textContent") == "inner clicked"


def test_click_inside_a_covered_iframe_is_occluded(http: httpx.Client, quick_refusal: str, pages: str) -> None:
    tab = quick_refusal
    open_page(http, tab, f"{pages}/iframe.html")
    js(http, tab, """(() => {
        const r = document.getElementById('inner').getBoundingClientRect();
        document.body.insertAdjacentHTML('beforeend', `<div id="veil" style="position:fixed;left:${r.left}px;top:${r.top}px;` +
            `width:${r.width}px;height:${r.height}px;background:rgba(0,0,0,.5)"></div>`);
    })()""")
    res = act(http, tab, kind="click", ref=ref_of(snap(http, tab), "button", "Inner button"))
    assert res.status_code == 500 and "element is occluded" in res.json()["error"] and "veil" in res.json()["error"]
    assert js(http, tab, "document.getElementById('inner').contentDocument.getElementById('inner-out').textContent") == ""


def test_widgets_without_aria_roles_can_be_used(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/widgets.html")
    s = snap(http, tab)
    ok(http, tab, kind="click", ref=ref_of(s, "button", "Inside contents"))
    assert text_of(http, tab, "contents-out") == "clicked"
    ok(http, tab, kind="click", ref=ref_of(s, "button", "Buy now"))
    assert text_of(http, tab, "card-out") == "bought"
    ok(http, tab, kind="click", ref=ref_of(s, "button", "More options"))
    assert js(http, tab, "document.getElementById('more').open") is True
    assert ("button", "Advanced setting") in [(n["role"], n["name"]) for n in snap(http, tab)["nodes"]]
    s = snap(http, tab)
    ok(http, tab, kind="fill", ref=ref_of(s, "textbox", "Delivery date"), value="2025-03-14")
    assert text_of(http, tab, "when-out") == "2025-03-14"
    ok(http, tab, kind="fill", ref=ref_of(s, "textbox", "Colour"), value="#123456")
    assert js(http, tab, "document.getElementById('colour').value") == "#123456"
    ok(http, tab, kind="type", ref=ref_of(s, "textbox", "Message body"), text="Hello there")
    assert js(http, tab, "document.getElementById('editor').textContent") == "Hello there"


