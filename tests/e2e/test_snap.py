"""One round trip per step (issue 24): navigate and actions answer with the page after them (snap),
or only what changed (snapDiff), through HTTP, the client, MCP and the CLI."""

from __future__ import annotations

import httpx

from tests.conftest import snap as take_snapshot


def _nav(http: httpx.Client, tab: str, url: str, **extra: object) -> dict:
    res = http.post(f"/tabs/{tab}/navigate", json={"url": url, **extra})
    assert res.status_code == 200, res.text
    return res.json()


def test_navigate_and_act_with_snap(http: httpx.Client, tab: str, pages: str) -> None:
    page = _nav(http, tab, f"{pages}/login.html", snap=True)["snapshot"]
    assert page.startswith("# Login") and 'button "Log in"' in page
    email = next(line.split(":", 1)[0] for line in page.splitlines() if 'textbox "Email' in line)
    res = http.post(f"/tabs/{tab}/action", json={"kind": "fill", "ref": email, "value": "ada@example.com",
                                                 "snap": True})
    assert res.status_code == 200, res.text
    after = res.json()["snapshot"]
    assert email + ":" in after and "ada@example.com" in after  # the ref stays, its value shows
    # A snapshot the answer carried is the tab's previous one: its refs act, and a diff starts from it.
    res = http.post(f"/tabs/{tab}/action", json={"kind": "fill", "ref": email, "value": "bob@example.com",
                                                 "snapDiff": True})
    diff = res.json()["snapshot"]
    assert "bob@example.com" in diff and 'button "Log in"' not in diff, diff


def test_a_batch_answers_with_the_page_after_it(http: httpx.Client, tab: str, pages: str) -> None:
    _nav(http, tab, f"{pages}/login.html")
    res = http.post(f"/tabs/{tab}/actions", json={"snap": True, "actions": [
        {"kind": "fill", "selector": "#email", "value": "ada@example.com"},
        {"kind": "fill", "selector": "#password", "value": "secret"},
    ]})
    assert res.status_code == 200, res.text
    assert "ada@example.com" in res.json()["snapshot"]
    assert take_snapshot(http, tab, filter="interactive")["nodes"]  # the tab is fine after


def test_the_snapshot_an_action_gave_is_the_tabs_own(http: httpx.Client, tab: str, pages: str) -> None:
    page = _nav(http, tab, f"{pages}/login.html", snap=True)["snapshot"]
    login = next(line.split(":", 1)[0] for line in page.splitlines() if 'button "Log in"' in line)
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": login})
    assert res.status_code == 200, res.text
