"""Scale out, end to end: two bridges, on 127.0.0.2 (a ``pinchtab bridge`` process serving HTTPS
with a certificate of a private CA, driving a Chrome the module started) and 127.0.0.1 (the session
bridge, served in this process with its own Chromium), each with its own token, attached to a
``pinchtab server`` that starts no browser of its own and trusts that CA (its app served in this
process, as ``pinchtab server`` serves it: the process here is the first bridge, the one killed; a
server process is test_server.py's).

Checks routing by tab, the merged /tabs, that the server's token opens no bridge, that a killed
bridge turns ``error`` and comes back when started again (its app, served in this process at the
same address), detach, and that attach is refused outside ``security.attach``. The tests run in file order and share the bridges.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pinchtab.web import TokenAuth
from tests.conftest import ServerThread, free_port
from tests.e2e.test_server import START_TIMEOUT, kill_pids, live_in_groups, wait_until

SERVER_TOKEN = "server-token-0123456789"
# The second on 127.0.0.1, where discovery's "localhost" finds it too (no third bridge for that test).
HOSTS = ("127.0.0.2", "127.0.0.1")


@functools.cache
def default_tls() -> ssl.SSLContext:
    """One TLS context for the module's clients of plain-HTTP servers: httpx builds one per client
    otherwise, loading the CA store (~0.065 s of CPU each, more than most requests here)."""
    return ssl.create_default_context()


def _env(config: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCHTAB_")}
    env["PINCHTAB_CONFIG"] = str(config)
    return env


class BridgeProc:
    """``pinchtab bridge --bind HOST --token T --cdp-url WS`` in its own session (so a kill takes
    everything it started), with a client of its own (``http``: absolute URLs, no token, the tests
    send the headers). It drives the module's Chrome (``chrome``) instead of launching a Chromium:
    what the server sees of a bridge is its HTTP API, and a launch cost ~0.7 s of CPU. Started again
    after a kill (``start_here``), it is the same bridge's app served in this process, at the same
    address with the same token, certificate and Chrome: the server sees the bridge come back either
    way, and a second ``pinchtab bridge`` process cost ~1 s of CPU (Python and the bridge's imports)."""

    def __init__(self, tmp: Path, host: str, token: str, cdp_url: str,
                 tls: tuple[Path, Path, Path] | None = None) -> None:
        self.tmp, self.host, self.token, self.cdp_url = tmp, host, token, cdp_url
        self.port = free_port()
        self.tls = tls  # (ca, cert, key)
        self.url = f"{'https' if tls else 'http'}://{host}:{self.port}"
        # what a client of this bridge verifies its certificate with
        self.verify = ssl.create_default_context(cafile=str(tls[0])) if tls else default_tls()
        self.http = httpx.Client(timeout=60, trust_env=False, verify=self.verify)
        self.proc: subprocess.Popen[bytes] | None = None
        self.here: ServerThread | None = None
        (tmp / "config.json").write_text("{}")

    def start_here(self) -> None:
        """``pinchtab bridge``'s app with this bridge's flags, served by uvicorn in this process."""
        import uvicorn

        from pinchtab.bridge.app import create_app
        from pinchtab.config import load_config

        config = load_config({"server": {"token": self.token, "stateDir": str(self.tmp / "state")},
                              "browser": {"cdpUrl": self.cdp_url}, "security": {"allowEvaluate": True}}, environ={})
        app = create_app(config)
        self.here = ServerThread(app, self.port)
        # on this bridge's host and with its certificate (what --bind and --tls-cert/--tls-key give uvicorn)
        ssl = {"ssl_certfile": str(self.tls[1]), "ssl_keyfile": str(self.tls[2])} if self.tls else {}
        self.here.server = uvicorn.Server(uvicorn.Config(app, host=self.host, port=self.port, log_level="warning",
                                                         lifespan="on", timeout_graceful_shutdown=3, **ssl))
        self.here.__enter__()
        self.wait_up()

    def spawn(self) -> None:
        log = open(self.tmp / "bridge.log", "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pinchtab", "bridge", "--bind", self.host, "--port", str(self.port),
             "--token", self.token, "--cdp-url", self.cdp_url, "--allow-evaluate",
             *(["--tls-cert", str(self.tls[1]), "--tls-key", str(self.tls[2])] if self.tls else [])],
            env=_env(self.tmp / "config.json"), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()

    def wait_up(self) -> None:
        def up() -> bool:
            if self.here is None:  # the process
                assert self.proc is not None and self.proc.poll() is None, (self.tmp / "bridge.log").read_text()[-2000:]
            try:
                return self.http.get(f"{self.url}/health", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(up, START_TIMEOUT, f"the bridge on {self.url}", interval=0.05)

    def kill(self) -> None:
        """SIGKILL the bridge and everything in its session."""
        if self.proc is not None and self.proc.poll() is None:
            pgid = os.getpgid(self.proc.pid)
            os.killpg(pgid, signal.SIGKILL)
            self.proc.wait(10)
            kill_pids(pid for pid, _, _ in live_in_groups({pgid}))

    def stop(self) -> None:
        # First: uvicorn's graceful stop waits for a kept-alive idle TLS connection (the close_notify
        # it sends is answered only when the client closes), so the bridge would wait for the timeout.
        self.http.close()
        if self.proc is not None and self.proc.poll() is None:
            pgid = os.getpgid(self.proc.pid)
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                pass
            kill_pids(pid for pid, _, _ in live_in_groups({pgid}))
        if self.here is not None:
            self.here.__exit__(None, None, None)


class SessionBridge:
    """The second bridge: the session bridge (tests/conftest.py, a bridge's app served in this process on
    127.0.0.1 with its own Chromium), asking for a token while the module runs, as ``pinchtab bridge
    --token T`` does. It is never killed, so it needs no process of its own, nor a Chromium: a bridge
    of its own launched one (~0.7 s of CPU) for a few tabs. The same attributes as BridgeProc's."""

    def __init__(self, server: ServerThread, token: str) -> None:
        self.server = server
        self.host, self.port, self.url, self.token = "127.0.0.1", server.port, server.url, token
        self.verify = default_tls()
        self.http = httpx.Client(timeout=60, trust_env=False, verify=self.verify)
        self.auth = self._token_auth()
        self.expected_before = self.auth.expected  # None: the session bridge asks for no token
        self.open_before: set[str] = set()

    def _token_auth(self) -> TokenAuth:
        """The app's token check (in the middleware stack the app built when it started)."""
        layer: Any = self.server.server.config.app.middleware_stack
        while not isinstance(layer, TokenAuth):
            layer = layer.app
        return layer

    def start(self) -> None:
        self.open_before = {t["id"] for t in self.http.get(f"{self.url}/tabs").json()["tabs"]}
        self.auth.expected = f"Bearer {self.token}".encode()

    def stop(self) -> None:
        """As it was, with the tabs the module opened on it closed."""
        self.auth.expected = self.expected_before
        for tab in self.http.get(f"{self.url}/tabs").json()["tabs"]:
            if tab["id"] not in self.open_before:
                self.http.post(f"{self.url}/tabs/{tab['id']}/close")
        self.http.close()


Bridges = list[BridgeProc | SessionBridge]  # the module's two, in HOSTS' order


class Server:
    """The ``pinchtab server`` app with this config, served in a thread (ServerThread)."""

    def __init__(self, tmp: Path, attach: dict[str, Any], discovery: dict[str, Any] | None = None,
                 instances: dict[str, Any] | None = None) -> None:
        from pinchtab.config import load_config
        from pinchtab.server.app import create_app

        tmp.mkdir(parents=True, exist_ok=True)
        config = load_config({
            "server": {"stateDir": str(tmp / "state"), "instancePortStart": free_port(), "defaultInstance": False,
                       "token": SERVER_TOKEN},
            "security": {"allowEvaluate": True, "attach": attach},
            "discovery": discovery or {},
            "instances": instances or {},
        }, environ={})
        self.thread = ServerThread(create_app(config), free_port()).__enter__()
        self.url = self.thread.url
        self.http = httpx.Client(base_url=self.url, timeout=60, trust_env=False, verify=default_tls(),
                                 headers={"Authorization": f"Bearer {SERVER_TOKEN}"})
        assert self.http.get("/health").status_code == 200

    def instance(self, iid: str) -> dict[str, Any]:
        res = self.http.get(f"/instances/{iid}")
        assert res.status_code == 200, res.text
        return res.json()

    def close(self) -> None:
        self.http.close()
        self.thread.__exit__(None, None, None)


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A private CA and a certificate of 127.0.0.2 it signed: (ca, cert, key)."""
    from tests.fixtures.tls import make_ca_and_cert

    return make_ca_and_cert(tmp_path_factory.mktemp("tls"), ips=(HOSTS[0],))


class Chrome:
    """A Chrome that no bridge started, its DevTools on a port (``--remote-debugging-port``)."""

    def __init__(self, tmp: Path) -> None:
        from pinchtab.cdp.launcher import BASE_FLAGS, find_chrome

        self.port = free_port()
        # pinchtab's flags (no background networking, component updates, ...): it runs for the whole module
        self.proc = subprocess.Popen(
            [find_chrome(None), *BASE_FLAGS, "--headless", f"--remote-debugging-port={self.port}",
             "--remote-debugging-address=127.0.0.1", f"--user-data-dir={tmp / 'chrome'}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        self.devtools = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=10, trust_env=False,
                                     verify=default_tls())

    def version(self) -> str | None:
        """Its browser websocket (None while it is not up)."""
        try:
            return self.devtools.get("/json/version", timeout=2).json()["webSocketDebuggerUrl"]
        except (httpx.HTTPError, ValueError, KeyError):
            return None

    def stop(self) -> None:
        self.devtools.close()
        os.killpg(os.getpgid(self.proc.pid), signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture(scope="module")
def chrome(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Chrome, str]]:
    """The module's Chrome and its browser websocket: what the first bridge drives, and what a server
    attaches over CDP in test_attach_an_external_chrome_over_cdp."""
    browser = Chrome(tmp_path_factory.mktemp("chrome"))
    try:
        yield browser, wait_until(browser.version, 30, "Chrome's DevTools endpoint", interval=0.05)
    finally:
        browser.stop()


@pytest.fixture(scope="module")
def bridges(tmp_path_factory: pytest.TempPathFactory, tls: tuple[Path, Path, Path], chrome: tuple[Chrome, str],
            bridge_server: ServerThread) -> Iterator[Bridges]:
    """A BridgeProc serving HTTPS (--tls-cert/--tls-key: one bridge process fewer than one of its own
    for the HTTPS test) and the session bridge with a token (SessionBridge)."""
    first = BridgeProc(tmp_path_factory.mktemp("bridge0"), HOSTS[0], "bridge-0-token-abcdef", chrome[1], tls=tls)
    second = SessionBridge(bridge_server, "bridge-1-token-abcdef")
    try:
        first.spawn()
        second.start()
        first.wait_up()
        yield [first, second]
    finally:
        first.stop()
        second.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, tls: tuple[Path, Path, Path]) -> Iterator[Server]:
    # Health checks five times a second: a killed bridge shows error after three misses (0.6 s, not
    # 3 s), a restarted one running at the next check.
    srv = Server(tmp_path_factory.mktemp("server"), {"enabled": True, "allowHosts": list(HOSTS),
                                                     "allowSchemes": ["http", "https"], "caFile": str(tls[0])},
                 instances={"health": {"intervalSec": 0.2}})
    try:
        yield srv
    finally:
        srv.close()


@pytest.fixture(scope="module")
def state() -> dict[str, Any]:
    return {}


def test_attach_two_bridges(server: Server, bridges: Bridges, state: dict[str, Any]) -> None:
    ids = []
    for i, b in enumerate(bridges):
        res = server.http.post("/instances/attach-bridge", json={"baseUrl": b.url, "token": b.token, "name": f"b{i}"})
        assert res.status_code == 201, res.text
        inst = res.json()
        assert inst["attached"] is True and inst["attachType"] == "bridge" and inst["url"] == b.url
        assert inst["status"] == "running" and inst["name"] == f"b{i}" and "token" not in json.dumps(inst).lower()
        ids.append(inst["id"])
    state["ids"] = ids
    listed = {i["id"]: i for i in server.http.get("/instances").json()["instances"]}
    assert set(ids) <= set(listed) and all(listed[i]["status"] == "running" for i in ids)
    # Attaching the same origin again updates it (200), with "url" as PinchTab's "baseUrl".
    again = server.http.post("/instances/attach-bridge", json={"url": bridges[0].url + "/", "token": bridges[0].token})
    assert again.status_code == 200 and again.json()["id"] == ids[0]
    assert server.http.get("/health").json()["instances"] == 2


def test_routing_by_tab_and_merged_tabs(server: Server, bridges: Bridges, state: dict[str, Any], pages: str) -> None:
    tabs = []
    for iid, page in zip(state["ids"], ("buttons.html", "login.html")):
        res = server.http.post(f"/instances/{iid}/tabs/open", json={"url": f"{pages}/{page}"})
        assert res.status_code == 200, res.text
        assert res.json()["instanceId"] == iid
        tabs.append(res.json()["tabId"])
    state["tabs"] = tabs
    # Each tab lives on its own bridge (asked directly, with that bridge's token).
    for b, tab in zip(bridges, tabs):
        direct = b.http.get(f"{b.url}/tabs", headers={"Authorization": f"Bearer {b.token}"}).json()["tabs"]
        assert tab in [t["id"] for t in direct]
    # Tab routes and shorthand routes reach the owner, through the server with the server's token.
    assert server.http.get(f"/tabs/{tabs[0]}/snapshot").json()["title"] == "Buttons"
    assert server.http.get(f"/tabs/{tabs[1]}/snapshot").json()["title"] == "Login"
    assert server.http.get("/text", params={"tabId": tabs[1]}).json()["title"] == "Login"
    res = server.http.post("/evaluate", json={"tabId": tabs[0], "expression": "location.host"})
    assert res.status_code == 200 and res.json()["result"] == pages.split("//")[1]
    found = server.http.post(f"/tabs/{tabs[1]}/find", json={"query": "log in button"})
    assert found.status_code == 200 and found.json()["best_ref"]
    # /tabs merges both bridges' tabs, each with its instance.
    merged = {t["id"]: t["instanceId"] for t in server.http.get("/tabs").json()["tabs"]}
    assert merged[tabs[0]] == state["ids"][0] and merged[tabs[1]] == state["ids"][1]
    per_instance = server.http.get(f"/instances/{state['ids'][1]}/tabs").json()["tabs"]
    assert tabs[1] in [t["id"] for t in per_instance] and tabs[0] not in [t["id"] for t in per_instance]


def test_the_servers_token_opens_no_bridge(server: Server, bridges: Bridges, state: dict[str, Any]) -> None:
    tab = state["tabs"][0]
    for headers in ({"Authorization": f"Bearer {SERVER_TOKEN}"}, {}, {"Authorization": f"Bearer {bridges[1].token}"}):
        res = bridges[0].http.get(f"{bridges[0].url}/tabs/{tab}/snapshot", headers=headers)
        assert res.status_code == 401, (headers, res.text)
    # ...and the bridge's token opens no server.
    res = server.http.get("/tabs", headers={"Authorization": f"Bearer {bridges[0].token}"})
    assert res.status_code == 401


def test_attach_refused_outside_policy(server: Server, bridges: Bridges) -> None:
    port = bridges[0].port
    res = server.http.post("/instances/attach-bridge", json={"baseUrl": f"http://127.0.0.4:{port}", "token": "x"})
    assert res.status_code == 403 and res.json()["key"] == "security.attach.allowHosts", res.text
    assert "security.attach.allowHosts" in res.json()["error"]
    res = server.http.post("/instances/attach", json={"cdpUrl": "ws://127.0.0.2:9222/devtools/browser/x"})
    assert res.status_code == 403 and res.json()["key"] == "security.attach.allowSchemes", res.text
    for bad in (f"{bridges[0].url}/health", f"http://user:pw@127.0.0.2:{port}", f"{bridges[0].url}?x=1", "ftp://127.0.0.2"):
        res = server.http.post("/instances/attach-bridge", json={"baseUrl": bad})
        assert res.status_code == 400 and res.json()["code"] == "invalid_url", (bad, res.text)
    # A wrong token is found out before anything is registered.
    before = len(server.http.get("/instances").json()["instances"])
    res = server.http.post("/instances/attach-bridge", json={"baseUrl": bridges[1].url, "token": "wrong"})
    assert res.status_code == 502 and res.json()["code"] == "attach_unauthorized", res.text
    assert len(server.http.get("/instances").json()["instances"]) == before
    assert server.http.post("/instances/attach-bridge", json={}).json()["code"] == "missing_baseUrl"


def test_https_bridge_with_a_private_ca(bridges: Bridges, tls: tuple[Path, Path, Path], tmp_path: Path,
                                       pages: str) -> None:
    """A bridge serving HTTPS (--tls-cert/--tls-key, the module's first): refused by a server that does
    not trust its CA, attached and used by one whose security.attach.caFile names it."""
    bridge = bridges[0]
    doubting = trusting = None
    try:
        assert bridge.url.startswith("https://")
        doubting = Server(tmp_path / "doubting", {"enabled": True, "allowHosts": [HOSTS[0]], "allowSchemes": ["https"]})
        res = doubting.http.post("/instances/attach-bridge", json={"baseUrl": bridge.url, "token": bridge.token})
        assert res.status_code == 502 and "certificate verify failed" in res.json()["error"], res.text
        trusting = Server(tmp_path / "srv", {"enabled": True, "allowHosts": [HOSTS[0]], "allowSchemes": ["https"],
                                             "caFile": str(tls[0])})
        res = trusting.http.post("/instances/attach-bridge", json={"baseUrl": bridge.url, "token": bridge.token})
        assert res.status_code == 201, res.text
        nav = trusting.http.post("/navigate", json={"url": f"{pages}/buttons.html"})
        assert nav.status_code == 200 and nav.json()["title"] == "Buttons", nav.text
        assert trusting.http.get(f"/tabs/{nav.json()['tabId']}/text").json()["title"] == "Buttons"
        assert trusting.http.get("/tabs").json()["tabs"]
    finally:
        for srv in (doubting, trusting):
            if srv is not None:
                srv.close()


def test_a_killed_bridge_turns_error_and_comes_back(server: Server, bridges: Bridges, state: dict[str, Any], pages: str) -> None:
    iid, tab = state["ids"][0], state["tabs"][0]
    bridges[0].kill()
    wait_until(lambda: server.instance(iid)["status"] == "error", 20, "the killed bridge to turn error", interval=0.05)
    res = server.http.get(f"/tabs/{tab}/snapshot")
    assert res.status_code in (404, 503), res.text  # its tabs are gone from routing or unreachable
    # The other bridge carries on.
    assert server.http.get(f"/tabs/{state['tabs'][1]}/snapshot").status_code == 200
    assert server.http.post(f"/instances/{iid}/restart").status_code == 409  # not ours to start
    bridges[0].start_here()
    wait_until(lambda: server.instance(iid)["status"] == "running", 20, "the restarted bridge to be running again",
               interval=0.05)
    res = server.http.post(f"/instances/{iid}/tabs/open", json={"url": f"{pages}/buttons.html"})
    assert res.status_code == 200, res.text
    new_tab = res.json()["tabId"]
    assert server.http.get(f"/tabs/{new_tab}/text").json()["title"] == "Buttons"


def test_detach(server: Server, bridges: Bridges, state: dict[str, Any]) -> None:
    iid, tab = state["ids"][1], state["tabs"][1]
    res = server.http.post(f"/instances/{iid}/detach")
    assert res.status_code == 200 and res.json()["status"] == "stopped"
    assert iid not in [i["id"] for i in server.http.get("/instances").json()["instances"]]
    # The server no longer reaches it: its tab is unknown there, though the bridge still has it.
    res = server.http.get(f"/tabs/{tab}/snapshot")
    assert res.status_code == 404 and res.json()["code"] == "tab_not_found"
    direct = bridges[1].http.get(f"{bridges[1].url}/tabs", headers={"Authorization": f"Bearer {bridges[1].token}"})
    assert tab in [t["id"] for t in direct.json()["tabs"]]
    # Stop on an attached bridge detaches it too (the bridge keeps running).
    assert server.http.post(f"/instances/{state['ids'][0]}/stop").json()["status"] == "stopped"
    assert bridges[0].http.get(f"{bridges[0].url}/health").status_code == 200
    assert server.http.post(f"/instances/{iid}/detach").status_code == 404


def test_cli_and_client_attach(server: Server, bridges: Bridges) -> None:
    from click.testing import CliRunner

    import pinchtab
    from pinchtab.cli import main

    unset: dict[str, str | None] = {k: None for k in os.environ if k.startswith("PINCHTAB_")}
    out = CliRunner().invoke(main, [
        "instances", "attach-bridge", "--server", server.url, "--token", SERVER_TOKEN, "--base-url", bridges[1].url,
        "--bridge-token", bridges[1].token, "--name", "from-cli", "--json"],
        env={**unset, "PINCHTAB_CONFIG": "/nonexistent.json"})
    assert out.exit_code == 0, out.output
    inst = json.loads(out.stdout)
    assert inst["name"] == "from-cli" and inst["status"] == "running"
    with pinchtab.Client(server.url, token=SERVER_TOKEN) as pt:
        assert pt.detach_instance(instance_id=inst["id"])["status"] == "stopped"
        again = pt.attach_bridge(base_url=bridges[1].url, bridge_token=bridges[1].token)
        assert again["attached"] is True
        pt.detach_instance(instance_id=again["id"])


def test_attach_an_external_chrome_over_cdp(chrome: tuple[Chrome, str], tmp_path: Path, pages: str) -> None:
    """POST /instances/attach {cdpUrl}: a bridge of the server drives a Chrome it did not start (the
    module's); stopping the instance leaves that Chrome running."""
    external, ws = chrome
    srv = Server(tmp_path / "srv", {"enabled": True, "allowHosts": ["127.0.0.1"], "allowSchemes": ["ws"]})
    try:
        res = srv.http.post("/instances/attach", json={"cdpUrl": f"http://127.0.0.1:{external.port}"})
        assert res.status_code == 403 and res.json()["key"] == "security.attach.allowSchemes"
        res = srv.http.post("/instances/attach", json={"cdpUrl": ws, "name": "shared-chrome"})
        assert res.status_code == 201, res.text
        inst = res.json()
        assert inst["attached"] is True and inst["attachType"] == "cdp" and inst["cdpUrl"] == ws and inst["status"] == "running"
        nav = srv.http.post("/navigate", json={"url": f"{pages}/buttons.html"})
        assert nav.status_code == 200, nav.text
        assert srv.http.get(f"/tabs/{nav.json()['tabId']}/text").json()["title"] == "Buttons"
        # The tab is in the external Chrome itself.
        targets = external.devtools.get("/json/list").json()
        assert nav.json()["tabId"] in [t["id"] for t in targets]
        assert srv.http.post(f"/instances/{inst['id']}/detach").json()["status"] == "stopped"
        assert external.proc.poll() is None and external.version() == ws  # still running, same browser
    finally:
        srv.close()


def test_discovery_attaches_what_the_name_resolves_to(bridges: Bridges, tmp_path: Path, pages: str) -> None:
    """discovery.dns: the server attaches the bridge behind a name (here localhost) by itself."""
    bridge = bridges[1]  # on 127.0.0.1; detached from the module's server by now
    assert bridge.host == "127.0.0.1"
    srv = None
    try:
        srv = Server(tmp_path / "srv", {"enabled": True, "allowHosts": ["127.0.0.1", "::1"], "allowSchemes": ["http"]},
                     discovery={"dns": "localhost", "port": bridge.port, "token": bridge.token, "intervalSeconds": 0.5})

        def attached() -> list[dict[str, Any]]:
            return [i for i in srv.http.get("/instances").json()["instances"] if i.get("attached") and i["status"] == "running"]

        (inst,) = wait_until(attached, 30, "discovery to attach the bridge", interval=0.05)
        assert inst["url"] == bridge.url
        nav = srv.http.post("/navigate", json={"url": f"{pages}/login.html"})  # hub mode: the attached bridge
        assert nav.status_code == 200 and nav.json()["title"] == "Login", nav.text
    finally:
        if srv is not None:
            srv.close()
