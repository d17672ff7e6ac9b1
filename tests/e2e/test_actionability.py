"""Actions wait for their target to become actionable (issue 28, deliverable 7): an overlay that is
closing, a button enabled a moment later, a panel sliding in; list box options in the interactive
snapshot. The tests share one tab, each opening its page first."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import open_tab

tab = pytest.fixture(scope="module", name="tab")(open_tab)


def click(http: httpx.Client, tab: str, selector: str) -> httpx.Response:
    return http.post(f"/tabs/{tab}/action", json={"kind": "click", "selector": selector})


def clicks(http: httpx.Client, tab: str) -> dict:
    return http.post(f"/tabs/{tab}/evaluate", json={"expression": "window.clicks"}).json()["result"]


def test_a_click_waits_for_the_overlay_closing_the_enabling_and_the_sliding(http: httpx.Client, tab: str,
                                                                           pages: str) -> None:
    assert http.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/actionability.html"}).status_code == 200
    # the overlay covers Save and fades out over 300 ms once closed
    assert click(http, tab, "#close").status_code == 200
    res = click(http, tab, "#save")
    assert res.status_code == 200, res.text
    # Send is enabled 200 ms after Arm
    assert click(http, tab, "#arm").status_code == 200
    res = click(http, tab, "#later")
    assert res.status_code == 200, res.text
    # OK slides in over 300 ms from outside the page
    assert click(http, tab, "#slide").status_code == 200
    res = click(http, tab, "#ok")
    assert res.status_code == 200, res.text
    assert clicks(http, tab) == {"save": 1, "later": 1, "ok": 1}
    # ... once it stopped: a click while it moves lands where it no longer is
    assert http.post(f"/tabs/{tab}/evaluate", json={"expression": "window.okAfterSlide"}).json()["result"] is True


def test_a_target_that_stays_covered_answers_occluded_after_the_wait(http: httpx.Client, tab: str, pages: str,
                                                                    bridge_server, monkeypatch) -> None:
    # a 0.3 s wait for this test (browser.actionabilityWaitMs, 1 s by default: asked again every
    # poll until then): the answer after the wait is what is checked, not how long it is
    browser_tab = bridge_server.server.config.app.state.browser.tabs[tab]
    monkeypatch.setattr(browser_tab, "actionability_wait_s", 0.3)
    assert http.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/actionability.html"}).status_code == 200
    res = click(http, tab, "#save")  # the overlay never closes
    assert res.status_code == 500 and res.json()["code"] == "element_occluded"
    assert "Close" in res.json()["error"]
    assert clicks(http, tab) == {}


def test_list_box_options_are_in_the_interactive_snapshot(http: httpx.Client, tab: str, pages: str) -> None:
    assert http.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/actionability.html"}).status_code == 200
    nodes = http.get(f"/tabs/{tab}/snapshot", params={"filter": "interactive"}).json()["nodes"]
    options = [n["name"] for n in nodes if n["role"] == "option"]
    assert options == ["Cheese", "Olives", "Basil"]  # the dropdown's Small and Large are its value


def act(http: httpx.Client, tab: str, **body: str) -> httpx.Response:
    return http.post(f"/tabs/{tab}/action", json=body)


def test_fill_steps_an_aria_slider_with_arrow_keys(http: httpx.Client, tab: str, pages: str) -> None:
    assert http.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/widget-actions.html"}).status_code == 200
    # its keys go to a track inside it, and it shows each value a tick after the key
    res = act(http, tab, kind="fill", selector="#priority", value="7")
    assert res.status_code == 200, res.text
    assert res.json()["result"] == {"value": 7}
    got = http.post(f"/tabs/{tab}/evaluate", json={"expression": "window.changes.join(' ')"}).json()["result"]
    assert got == "priority=4 priority=5 priority=6 priority=7"
    assert act(http, tab, kind="fill", selector="#priority", value="5").json()["result"] == {"value": 5}
    # a value it cannot show is refused, with why
    res = act(http, tab, kind="fill", selector="#units", value="23")
    assert res.status_code == 400 and "steps over 23" in res.json()["error"] and "20 and 25" in res.json()["error"]
    res = act(http, tab, kind="fill", selector="#priority", value="11")
    assert res.status_code == 400 and "outside" in res.json()["error"]
    res = act(http, tab, kind="fill", selector="#units", value="many")
    assert res.status_code == 400 and res.json()["code"] == "bad_value"


def test_a_click_on_an_editor_field_under_its_own_lines_reaches_the_editor(http: httpx.Client, tab: str,
                                                                          pages: str) -> None:
    assert http.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/widget-actions.html"}).status_code == 200
    res = act(http, tab, kind="click", selector="#code")
    assert res.status_code == 200, res.text
    assert act(http, tab, kind="type", selector="#code", text="x").status_code == 200
    value = http.post(f"/tabs/{tab}/evaluate", json={"expression": "document.activeElement.id + ':' + document.getElementById('code').value"})
    assert value.json()["result"] == "code:x"


def test_a_click_on_a_section_its_server_opens_answers_once_it_is_open(http: httpx.Client, tab: str,
                                                                       pages: str) -> None:
    # the page flips aria-expanded 300 ms after the click (a server's round trip): a look right
    # after the click's answer sees the section open, so an agent does not click it shut again
    assert http.post(f"/tabs/{tab}/navigate", json={"url": f"{pages}/late-disclosure.html"}).status_code == 200

    def section() -> dict:
        nodes = http.get(f"/tabs/{tab}/snapshot").json()["nodes"]
        return next(n for n in nodes if n["role"] == "button" and "Advanced options" in n["name"])

    assert section()["expanded"] is False
    assert act(http, tab, kind="click", ref=section()["ref"]).status_code == 200
    assert section()["expanded"] is True
    assert http.post(f"/tabs/{tab}/evaluate", json={"expression": "document.getElementById('more').hidden"}).json()["result"] is False
    assert act(http, tab, kind="click", ref=section()["ref"]).status_code == 200
    assert section()["expanded"] is False
