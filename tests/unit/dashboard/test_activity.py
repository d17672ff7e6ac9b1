"""The activity log and the /api/* routes of a server app without instances (no browser)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pinchtab.config import load_config
from pinchtab.dashboard.activity import ActivityLog
from pinchtab.dashboard.recorder import describe
from pinchtab.server.app import create_app

TOKEN = "unit-test-token"


def client(tmp_path: Path, **server: object) -> TestClient:
    config = load_config({"server": {"stateDir": str(tmp_path), **server},
                          "observability": {"activity": {"maxEvents": 10}}}, environ={})
    return TestClient(create_app(config, default_instance=False), base_url="http://127.0.0.1")


@pytest.fixture()
def api(tmp_path: Path) -> Iterator[TestClient]:
    with client(tmp_path) as c:
        yield c


def test_requests_are_logged_under_their_agent_and_the_log_is_bounded(api: TestClient) -> None:
    for _ in range(12):
        assert api.get("/profiles", headers={"X-Agent-Id": "bosch"}).status_code == 200
    api.post("/tabs/T1/action", json={"kind": "click", "ref": "e5"})  # no such tab: 404, logged all the same
    log = api.get("/api/activity", params={"limit": 20}).json()
    assert log["count"] == 10 and len(log["events"]) == 10  # observability.activity.maxEvents
    last = log["events"][-1]
    assert last["path"] == "/tabs/T1/action" and last["status"] == 404 and last["tabId"] == "T1"
    assert last["action"] == "click" and last["target"] == "e5" and "agentId" not in last
    mine = api.get("/api/activity", params={"agentId": "bosch"}).json()["events"]
    assert {e["agentId"] for e in mine} == {"bosch"} and all(e["method"] == "GET" for e in mine)
    assert api.get("/api/activity", params={"since": "yesterday"}).status_code == 400


def test_agents_their_feed_and_progress_reports(api: TestClient) -> None:
    api.get("/profiles", headers={"X-Agent-Id": "bosch"})
    assert api.post("/api/agents/bosch/events", json={"message": "step 1", "progress": 1, "total": 3}).status_code == 201
    assert api.post("/api/agents/bosch/events", json={"message": ""}).status_code == 400
    agents = api.get("/api/agents").json()
    assert [a["id"] for a in agents] == ["bosch"] and agents[0]["requestCount"] == 2
    detail = api.get("/api/agents/bosch").json()
    assert [e["channel"] for e in detail["events"]] == ["tool_call", "progress"]
    assert api.get("/api/agents/bosch", params={"mode": "progress"}).json()["events"][0]["message"] == "step 1"
    assert api.get("/api/agents/nobody").json()["code"] == "agent_not_found"


def test_the_dashboard_and_its_login_with_a_token(tmp_path: Path) -> None:
    with client(tmp_path, token=TOKEN) as c:
        assert c.get("/dashboard").status_code == 200 and "text/html" in c.get("/").headers["content-type"]
        assert c.get("/dashboard/app.js").status_code == 200 and c.get("/dashboard/nope.js").status_code == 404
        assert c.get("/api/agents").status_code == 401
        assert c.post("/api/auth/login", json={"token": "wrong"}).status_code == 401
        res = c.post("/api/auth/login", json={"token": TOKEN})
        assert res.status_code == 200 and "httponly" in res.headers["set-cookie"].lower()
        assert TOKEN not in res.headers["set-cookie"]
        assert c.get("/api/agents").status_code == 200  # the cookie stands for the token
        config = c.get("/api/config").json()["config"]
        assert config["server"]["tokenSet"] is True and "token" not in config["server"]
        c.post("/api/auth/logout")
        assert c.get("/api/agents").status_code == 401


def test_describe_names_tab_action_and_target() -> None:
    assert describe("/tabs/T9/action", {}, {"kind": "fill", "selector": "#q", "value": "x"}) == {
        "tabId": "T9", "action": "fill", "target": "#q"}
    assert describe("/navigate", {"tabId": ["T2"]}, {"url": "https://example.com"}) == {
        "tabId": "T2", "target": "https://example.com", "url": "https://example.com"}
    assert describe("/action", {}, {"kind": "click", "x": 10, "y": 20.5})["target"] == "(10, 20.5)"


def test_subscribers_get_feed_events_and_a_full_queue_drops_rather_than_blocks() -> None:
    log = ActivityLog(5)
    queue = log.subscribe()
    for i in range(300):
        log.report("a", f"m{i}")
    assert queue.qsize() == queue.maxsize and queue.get_nowait()[1]["message"] == "m0"
    log.unsubscribe(queue)
    assert len(log.feed) == 5 and log.agent("a")["requestCount"] == 300


def test_agent_sessions_stand_for_the_token_name_the_agent_and_can_be_revoked(tmp_path: Path) -> None:
    with client(tmp_path, token=TOKEN) as c:
        admin = {"Authorization": f"Bearer {TOKEN}"}
        made = c.post("/sessions", json={"agentId": "bosch", "label": "research"}, headers=admin).json()
        as_session = {"Authorization": f"Session {made['sessionToken']}", "X-Agent-Id": "someone-else"}
        assert made["sessionToken"] not in (tmp_path / "agent-sessions.json").read_text()  # only its hash is kept
        assert c.get("/sessions/me", headers=as_session).json()["agentId"] == "bosch"
        assert c.get("/tabs", headers=as_session).status_code == 200
        assert c.get("/profiles", headers=as_session).json()["code"] == "session_forbidden"
        last = c.get("/api/activity", headers=admin).json()["events"][-1]
        assert last["path"] == "/tabs" and last["agentId"] == "bosch" and last["sessionId"] == made["id"]
        assert c.post(f"/sessions/{made['id']}/revoke", headers=as_session).json() == {"status": "ok"}
        assert c.get("/tabs", headers=as_session).json()["code"] == "bad_session"
        assert c.get(f"/sessions/{made['id']}", headers=admin).json()["status"] == "revoked"
