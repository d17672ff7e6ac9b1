"""Tab locks and human handoff through the bridge's HTTP API. The tests share one tab on a page of
buttons (a new tab costs more than most tests); each leaves it unlocked and active."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import open_tab
from tests.e2e.test_observe import until


@pytest.fixture(scope="module")
def tab(obs: httpx.Client, pages: str) -> Iterator[str]:
    yield from open_tab(obs, f"{pages}/buttons.html")


def test_lock_and_unlock(obs: httpx.Client, tab: str) -> None:
    res = obs.post("/lock", json={"tabId": tab, "owner": "agent-a", "timeoutSec": 60}).json()
    assert res["locked"] is True and res["owner"] == "agent-a" and res["expiresAt"].endswith("Z")
    assert obs.post(f"/tabs/{tab}/lock", json={"owner": "agent-b"}).status_code == 409
    assert obs.post(f"/tabs/{tab}/unlock", json={"owner": "agent-b"}).status_code == 409
    assert obs.post("/unlock", json={"tabId": tab, "owner": "agent-a"}).json() == {"unlocked": True, "tabId": tab}
    assert obs.post(f"/tabs/{tab}/lock", json={"owner": "agent-b"}).json()["owner"] == "agent-b"
    assert obs.post("/lock", json={"tabId": "nope", "owner": "x"}).status_code == 404
    assert obs.post(f"/tabs/{tab}/unlock", json={"owner": "agent-b"}).status_code == 200


def test_handoff_pauses_actions(obs: httpx.Client, tab: str) -> None:
    click = {"tabId": tab, "kind": "click", "selector": "button"}
    res = obs.post(f"/tabs/{tab}/handoff", json={"reason": "captcha"}).json()
    assert res["status"] == "paused_handoff" and res["reason"] == "captcha"
    assert obs.get(f"/tabs/{tab}/handoff").json()["status"] == "paused_handoff"
    blocked = obs.post("/action", json=click)
    assert blocked.status_code == 409 and blocked.json()["code"] == "tab_paused_handoff"
    assert obs.post("/actions", json={"tabId": tab, "actions": [click]}).status_code == 409
    assert obs.get(f"/tabs/{tab}/snapshot").status_code == 200  # reading is not blocked
    assert obs.post(f"/tabs/{tab}/resume", json={"status": "completed"}).json()["status"] == "active"
    assert obs.post("/action", json=click).status_code == 200
    timed = obs.post(f"/tabs/{tab}/handoff", json={"reason": "short", "timeoutMs": 200}).json()
    assert "expiresAt" in timed
    assert until(lambda: obs.get(f"/tabs/{tab}/handoff").json()["status"] == "active")  # the handoff expired
    assert obs.post("/action", json=click).status_code == 200


def test_a_locked_tab_acts_only_for_its_owner(obs: httpx.Client, tab: str) -> None:
    click = {"tabId": tab, "kind": "click", "selector": "button"}
    assert obs.post(f"/tabs/{tab}/lock", json={"owner": "agent-a"}).status_code == 200
    anonymous = obs.post("/action", json=click)
    assert anonymous.status_code == 423 and anonymous.json()["code"] == "tab_locked"
    assert "owner required" in anonymous.json()["error"]
    intruder = obs.post(f"/tabs/{tab}/action", json=click, headers={"X-Owner": "intruder"})
    assert intruder.status_code == 423 and "agent-a" in intruder.json()["error"]
    # the header wins over the body, as in PinchTab
    assert obs.post("/action", json={**click, "owner": "agent-a"}, headers={"X-Owner": "intruder"}).status_code == 423
    assert obs.post("/action", json={**click, "owner": "agent-a"}).status_code == 200
    assert obs.post("/action", json=click, headers={"X-Owner": "agent-a"}).status_code == 200
    batch = {"tabId": tab, "actions": [click]}
    assert obs.post("/actions", json=batch, headers={"X-Owner": "intruder"}).status_code == 423
    assert obs.post("/actions", json=batch, headers={"X-Owner": "agent-a"}).status_code == 200
    assert obs.post(f"/tabs/{tab}/handoff", json={"reason": "x"}, headers={"X-Owner": "b"}).status_code == 423
    assert obs.get(f"/tabs/{tab}/network/export", params={"owner": "b"}).status_code == 423
    assert obs.get(f"/tabs/{tab}/snapshot").status_code == 200  # reading is not leased
    assert obs.post(f"/tabs/{tab}/unlock", json={"owner": "agent-a"}).status_code == 200
    assert obs.post("/action", json=click).status_code == 200


def test_an_expired_lock_leases_nothing(obs: httpx.Client, tab: str) -> None:
    assert obs.post(f"/tabs/{tab}/lock", json={"owner": "agent-a", "timeoutSec": 0.2}).status_code == 200
    # once the lock has expired (polled: refused with 423 until then), anyone's action runs
    assert until(lambda: obs.post("/action", json={"tabId": tab, "kind": "click", "selector": "button"},
                                  headers={"X-Owner": "someone-else"}).status_code == 200)
