"""A bridge the server started ends with its server, even frozen (issue 27, row 15: a bridge whose
event loop was blocked ignored SIGTERM and outlived its server by 20 minutes, Chromium and all).
One server for the module, bare ``pinchtab`` with a token: the test that kills it runs last. It
gives a bridge 0.3 s to list its tabs (``instances.tabsTimeoutSec``; 10 s by default)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import httpx
import pytest

from tests.e2e.test_server import ServerProc, kill_pids, live_in_groups, running_server, wait_until
from tests.fixtures.harness import process_alive


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    yield from running_server(ServerProc(tmp_path_factory.mktemp("bridges"), args=(), token="s3cret",
                                         extra={"instances": {"tabsTimeoutSec": 0.3}}))


def test_bare_pinchtab_is_the_server_and_its_token_guards_it_and_its_bridges(server: ServerProc, pages: str) -> None:
    assert server.http.get("/health").json()["mode"] == "server"  # bare `pinchtab` runs the server
    # The token guards the server and, passed on, the bridges; the server sends it along.
    assert httpx.get(f"{server.url}/health", trust_env=False).status_code == 200
    assert httpx.get(f"{server.url}/instances", trust_env=False).status_code == 401
    assert httpx.post(f"{server.url}/navigate", json={"url": f"{pages}/index.html"}, trust_env=False).status_code == 401
    nav = server.http.post("/navigate", json={"url": f"{pages}/index.html"})
    assert nav.status_code == 200, nav.text
    (inst,) = server.instances().values()
    bridge = f"http://127.0.0.1:{inst['port']}"
    assert httpx.get(f"{bridge}/tabs", trust_env=False).status_code == 401
    assert httpx.get(f"{bridge}/tabs", headers={"Authorization": "Bearer s3cret"}, trust_env=False).status_code == 200
    assert not list((server.state / "run").glob("*.json"))  # the bridge config (with the token) is gone once read


def test_tabs_says_which_instance_could_not_list_them(server: ServerProc, pages: str) -> None:
    # Row 16: with a bridge frozen, GET /tabs through the server answered 200 {"tabs": []} after
    # 10 s (now instances.tabsTimeoutSec), silently empty.
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
    wait_until(lambda: "unlisted" not in server.http.get("/tabs").json(), 60, "the bridge to list its tabs again",
               interval=0.05)


def test_a_frozen_bridge_and_a_running_one_end_with_their_server_killed(server: ServerProc) -> None:
    assert server.http.post("/instances/start", json={}).status_code in (200, 201)  # a second bridge, not frozen
    groups = server.process_groups()
    assert len(groups) >= 4, groups  # two bridges, two Chromiums
    bridge = next(i for i in server.instances().values() if i.get("default"))["pid"]
    try:
        os.kill(bridge, signal.SIGSTOP)  # frozen: no signal handler, no thread of its own runs
        server.proc.kill()
        server.proc.wait(30)
        wait_until(lambda: not process_alive(bridge), 30, "the frozen bridge to end with its server", interval=0.05)
        wait_until(lambda: not live_in_groups(groups), 30, "the bridges and their Chromiums to end with it",
                   interval=0.05)
    finally:
        kill_pids(pid for pid, _, _ in live_in_groups(groups))
