"""Supervision through ``pinchtab server`` (issue 27, deliverable 2 and row 9): a frozen bridge is
killed and restarted with its tabs under their old ids, tabs opened just before it froze and tabs
that never finished loading included; while restoring, their requests answer 503, never 404;
a restart adds no blank tab. Intervals are shortened through the config."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.test_server import ServerProc, running_server, wait_until
from tests.fixtures.harness import process_alive
from tests.hostile.hanging import Hanging

RESTORING = ("tab_restoring", "instance_unavailable")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    srv = ServerProc(tmp_path_factory.mktemp("supervision"), extra={
        "browser": {"navigationTimeoutMs": 3000, "commandTimeoutMs": 5000},
        # A check every 0.1 s; three misses of 1 s each: frozen, SIGTERM, SIGKILL 0.1 s later (a
        # stopped process ignores SIGTERM), restarted 0.05 s after its exit.
        "instances": {
            "proxyMarginSec": 1, "stopGraceSec": 0.1,
            "restart": {"initBackoffSec": 0.05, "maxRestarts": 10},
            "health": {"intervalSec": 0.1, "timeoutSec": 1, "failures": 2, "restartAfter": 3},
        },
    })
    yield from running_server(srv)


@pytest.fixture()
def hanging() -> Iterator[Hanging]:
    site = Hanging()
    yield site
    site.close()


def default_instance(server: ServerProc) -> dict[str, Any]:
    return next(i for i in server.instances().values() if i.get("default"))


def tab_back(server: ServerProc, tab: str, load: str | None = None) -> dict[str, Any]:
    """Wait until ``tab`` answers under its old id again (its text, or loading ``load``); until then
    only 503 saying it is restoring."""
    def answer() -> dict[str, Any] | None:
        if load:
            res = server.http.post(f"/tabs/{tab}/navigate", json={"url": load})
        else:
            res = server.http.get(f"/tabs/{tab}/text")
        if res.status_code == 200:
            return res.json()
        assert res.status_code == 503 and res.json()["code"] in RESTORING, res.text  # never 404
        return None

    return wait_until(answer, 60, f"tab {tab} to come back under its old id", interval=0.05)


def tab_count(server: ServerProc) -> int:
    res = server.http.get("/tabs")
    assert res.status_code == 200 and "unlisted" not in res.json(), res.text
    return len(res.json()["tabs"])


def test_a_frozen_bridge_is_killed_and_restarted_with_all_its_tabs(server: ServerProc, pages: str,
                                                                   hanging: Hanging) -> None:
    # A bridge that stopped answering was marked error and left frozen for good; a manual restart
    # lost its tabs. Row 9: the server polled the tab list every 2 s, so tabs opened just before were
    # lost (404 tab_not_found), a tab that never finished loading came back under a new id, and each
    # restart added a blank tab.
    tab = server.http.post("/navigate", json={"url": f"{pages}/login.html", "newTab": True}).json()["tabId"]
    fresh = server.http.post("/navigate", json={"url": f"{pages}/table.html", "newTab": True}).json()["tabId"]
    res = server.http.post("/navigate", json={"url": hanging.url, "newTab": True, "timeout": 500})
    assert res.status_code == 504, res.text
    never = res.json()["tabId"]
    count = tab_count(server)
    before = default_instance(server)
    os.kill(before["pid"], signal.SIGSTOP)  # a real freeze as far as the server can tell
    try:
        wait_until(lambda: default_instance(server)["pid"] != before["pid"], 30, "the frozen bridge to be replaced",
                   interval=0.05)
    finally:
        if process_alive(before["pid"]):
            os.kill(before["pid"], signal.SIGKILL)
    assert not process_alive(before["pid"])  # SIGTERM is not enough for a stopped process: it was SIGKILLed

    back = tab_back(server, tab)
    assert back["url"] == f"{pages}/login.html" and back["title"] == "Login", back
    assert tab_back(server, fresh)["url"] == f"{pages}/table.html"
    wait_until(lambda: len(hanging.connections) >= 2, 30, "the never-loaded tab to load its page again", interval=0.05)
    after = wait_until(lambda: (i := default_instance(server))["status"] == "running" and i, 30, "the instance to run",
                       interval=0.05)
    assert after["bridgeRestarts"] == before.get("bridgeRestarts", 0) + 1, after
    assert tab_count(server) == count  # the fresh bridge's blank tab was reused, none added
    listed = {t["id"]: t["url"] for t in server.http.get("/tabs").json()["tabs"]}
    assert listed.get(tab) == f"{pages}/login.html" and never in listed, listed  # under the ids agents know
    res = server.http.post(f"/tabs/{tab}/reload")
    assert res.status_code == 200 and res.json()["tabId"] == tab, res.text  # answers name it so too
    assert server.http.post(f"/tabs/{tab}/find", json={"query": "log in button"}).status_code == 200
    moved = tab_back(server, never, load=f"{pages}/login.html")
    assert moved["title"] == "Login" and moved["tabId"] == never, moved
