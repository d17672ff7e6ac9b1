"""A page that opens the next alert as each one closes (issue 27, row 16): navigating away leaves
it, under the same tab id, with the ordinary navigate answer (only /close left it before).

Both pages run in one tab (tests/hostile/tabs.py): each test leaves it at the login page with no
dialog open."""

from __future__ import annotations

import httpx
import pytest

from tests.hostile.conftest import healthy_during
from tests.hostile.tabs import module_tab, on_session_bridge


hostile_bridge = pytest.fixture(scope="module", name="hostile_bridge")(on_session_bridge)
new_tab = pytest.fixture(scope="module", name="new_tab")(module_tab)


@pytest.mark.parametrize("page", ["alert-loop.html", "alert-chain.html"])
def test_an_alert_loop_is_left_by_navigating_away(open_bridge: httpx.Client, new_tab: str, pages: str,
                                                  page: str) -> None:
    # The page's alert holds its load: the navigate says so at once (it waited 30 s for the load).
    res = open_bridge.post(f"/tabs/{new_tab}/navigate", json={"url": f"{pages}/{page}"})
    assert res.status_code == 409 and res.json()["code"] == "dialog_blocking", res.text
    assert res.json()["tabId"] == new_tab and res.json()["dialog"]["message"] == "again"
    res = open_bridge.get(f"/tabs/{new_tab}/snapshot", params={"format": "compact"})
    assert res.status_code == 409 and res.json()["code"] == "dialog_blocking", res.text

    res = healthy_during(open_bridge, lambda: open_bridge.post(
        f"/tabs/{new_tab}/navigate", json={"url": f"{pages}/login.html"}))
    assert res.status_code == 200, res.text
    assert res.json()["tabId"] == new_tab and res.json()["title"] == "Login", res.text

    assert open_bridge.get(f"/tabs/{new_tab}/text").json()["title"] == "Login"
    assert open_bridge.get(f"/tabs/{new_tab}/dialog").json() == {"tabId": new_tab, "dialogPresent": False,
                                                                  "dialog": None, "policy": "manual"}
    res = open_bridge.post(f"/tabs/{new_tab}/find", json={"query": "log in button"})
    assert res.status_code == 200 and res.json()["best_ref"], res.text
    assert new_tab in [t["id"] for t in open_bridge.get("/tabs").json()["tabs"]]
