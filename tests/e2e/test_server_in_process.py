"""``server.defaultInProcess: "on"``: the default instance's bridge served by the server's own
process (pinchtab.bridge.embedded) against a real Chromium: the same routes, tabs and instance
lifecycle as a bridge process, a second instance still a process of its own, and nothing left
running after the server stops."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import ServerThread
from tests.fixtures.harness import free_port
from tests.e2e.test_server import (QUICK_POLL, SCAN_POLL, ServerProc, children, live_in_groups, pgid_of,
                                   running_server, wait_until)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    srv = ServerProc(tmp_path_factory.mktemp("in-process"), extra={"server": {"defaultInProcess": "on"}})
    yield from running_server(srv)


def chromes_of(pid: int) -> list[int]:
    return [c for c in children(pid) if "chrom" in open(f"/proc/{c}/cmdline", "rb").read().decode(errors="replace")]


def default_instance(server: ServerProc) -> dict[str, Any]:
    return next(i for i in server.instances().values() if i.get("default"))


def test_the_default_instance_runs_in_the_server_process(server: ServerProc, pages: str) -> None:
    inst = default_instance(server)
    assert inst["status"] == "running" and inst["pid"] == server.proc.pid
    assert not [c for c in children(server.proc.pid) if "pinchtab" in open(f"/proc/{c}/cmdline", "rb").read().decode()]
    assert chromes_of(server.proc.pid), "its Chromium is the server's child"
    res = server.http.post("/navigate", json={"url": f"{pages}/buttons.html"})
    assert res.status_code == 200, res.text
    tab = res.json()["tabId"]
    snap = server.http.get("/snapshot", params={"tabId": tab, "filter": "interactive"}).json()
    assert snap["title"] == "Buttons" and snap["nodes"]
    found = server.http.post(f"/tabs/{tab}/find", json={"query": "increment button"}).json()
    assert found["matches"][0]["name"] == "Increment", found
    # the bridge's own port answers too, with the server's pid
    health = server.http.get(f"http://127.0.0.1:{inst['port']}/health").json()
    assert health["pid"] == server.proc.pid


def test_restart_and_stop_of_the_in_process_instance(server: ServerProc, pages: str) -> None:
    inst = default_instance(server)
    before = set(chromes_of(server.proc.pid))
    res = server.http.post(f"/instances/{inst['id']}/restart")
    assert res.status_code == 200, res.text
    assert res.json()["status"] == "running" and res.json()["pid"] == server.proc.pid
    after = set(chromes_of(server.proc.pid))
    assert after and not (before & after), "a new Chromium replaced the old one"
    res = server.http.post("/navigate", json={"url": f"{pages}/buttons.html"})
    assert res.status_code == 200, res.text
    res = server.http.post(f"/instances/{inst['id']}/stop")
    assert res.status_code == 200 and res.json()["status"] == "stopped", res.text
    wait_until(lambda: not chromes_of(server.proc.pid), 15, "its Chromium to exit", QUICK_POLL)
    assert server.http.get("/health").status_code == 200  # the server itself lives on


def test_other_instances_are_processes_of_their_own(server: ServerProc) -> None:
    res = server.http.post("/instances/start", json={})
    assert res.status_code in (200, 201), res.text
    other = res.json()
    wait_until(lambda: server.instances()[other["id"]]["status"] == "running", 60, "the second instance", QUICK_POLL)
    pid = server.instances()[other["id"]]["pid"]
    assert pid != server.proc.pid and pid in children(server.proc.pid)


def test_nothing_survives_the_server(server: ServerProc) -> None:
    groups = {g for c in chromes_of(server.proc.pid) if (g := pgid_of(c))}
    for child in children(server.proc.pid):
        groups.add(child)
        groups |= {g for c in children(child) if (g := pgid_of(c))}
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(30)
    wait_until(lambda: not live_in_groups(groups), 15, "the server's browsers and bridges to exit", SCAN_POLL)


def test_a_chromium_that_cannot_start_is_the_instance_error(tmp_path: Path) -> None:
    # The server's app served in this process (ServerThread), with the instance manager and embedded
    # bridge `pinchtab server` gives it: the server as a process of its own is what the tests above
    # check; here no Chromium or bridge ever runs.
    from pinchtab.cli import _embed_bridge
    from pinchtab.config import load_config
    from pinchtab.server.app import create_app
    from pinchtab.server.instances import InstanceManager
    from pinchtab.server.profiles import ProfileStore
    from pinchtab.server.upstream import Upstream

    config = load_config({"server": {"port": free_port(), "stateDir": str(tmp_path / "state"),
                                     "instancePortStart": free_port(), "defaultInProcess": "on"},
                          "browser": {"binary": "/nonexistent/chrome"}}, environ={})
    manager = InstanceManager(config, ProfileStore(config.server.state_dir, config.server.max_profiles),
                              lambda: Upstream(config.security.attach.ca_file), embed_default=_embed_bridge)
    with ServerThread(create_app(config, manager=manager), config.server.port) as srv, \
            httpx.Client(base_url=srv.url, timeout=60, trust_env=False) as http:
        def default() -> dict[str, Any]:
            return next(i for i in http.get("/instances").json()["instances"] if i.get("default"))

        inst = wait_until(lambda: (i := default())["status"] == "error" and i, 30, "the start to fail", QUICK_POLL)
        assert "/nonexistent/chrome" in inst["error"], inst
        res = http.post("/navigate", json={"url": "http://127.0.0.1:1/"})
        assert res.status_code == 503 and "/nonexistent/chrome" in res.json()["error"], res.text
        # The server itself stays up, and its /health says the default instance is down, and why.
        health = http.get("/health")
        assert health.status_code == 503, health.text
        assert health.json()["status"] == "down" and "/nonexistent/chrome" in health.json()["reason"], health.text
