"""A bridge the server started ends with its server, even frozen (issue 27, row 15: a bridge whose
event loop was blocked ignored SIGTERM and outlived its server by 20 minutes, Chromium and all).
One server for the module: the test that kills it runs last."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from tests.e2e.test_server import ServerProc, live_in_groups, running_server, wait_until
from tests.fixtures.harness import process_alive


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    yield from running_server(ServerProc(tmp_path_factory.mktemp("bridges")))


def test_tabs_says_which_instance_could_not_list_them(server: ServerProc, pages: str) -> None:
    # Row 16: with a bridge frozen, GET /tabs through the server answered 200 {"tabs": []} after
    # 10 s, silently empty.
    assert server.http.post("/navigate", json={"url": f"{pages}/login.html"}).status_code == 200
    inst = next(i for i in server.instances().values() if i.get("default"))
    os.kill(inst["pid"], signal.SIGSTOP)
    try:
        res = server.http.get("/tabs")
        assert res.status_code == 200, res.text
        unlisted = res.json()["unlisted"]
        assert [u["instanceId"] for u in unlisted] == [inst["id"]], res.text
        assert "could not be listed" in unlisted[0]["error"]
        res = server.http.get(f"/instances/{inst['id']}/tabs")
        assert res.status_code == 503 and res.json()["code"] == "instance_unavailable", res.text
    finally:
        os.kill(inst["pid"], signal.SIGCONT)
    wait_until(lambda: "unlisted" not in server.http.get("/tabs").json(), 60, "the bridge to list its tabs again")


def test_a_frozen_bridge_ends_with_its_server(server: ServerProc) -> None:
    groups = server.process_groups()
    bridge = next(i for i in server.instances().values() if i.get("default"))["pid"]
    try:
        os.kill(bridge, signal.SIGSTOP)  # frozen: no signal handler, no thread of its own runs
        server.proc.kill()
        server.proc.wait(30)
        wait_until(lambda: not process_alive(bridge), 30, "the frozen bridge to end with its server")
        wait_until(lambda: not live_in_groups(groups), 30, "the bridge's Chromium to end with it")
    finally:
        for pid, _, _ in live_in_groups(groups):
            os.kill(pid, signal.SIGKILL)
