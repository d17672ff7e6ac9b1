"""pinchtab.Client and AsyncClient against a live bridge with a real Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import pinchtab
from pinchtab.client import PinchtabClientError
from tests.conftest import free_port, ref_of


@pytest.fixture(scope="module")
def client(bridge: str) -> Iterator[pinchtab.Client]:
    with pinchtab.Client(bridge) as c:
        yield c


def _new_tab(client: pinchtab.Client) -> Iterator[str]:
    """A tab made through the client (closing one is checked in test_login_flow)."""
    tid = client.new_tab()["tabId"]
    yield tid
    try:
        client.close_tab(tid)
    except PinchtabClientError:
        pass  # the test closed it already


# Shared by the tests that each load their page in it first (a new tab, with its renderer, costs
# more than most of these tests).
tab_id = pytest.fixture(scope="module", name="tab_id")(_new_tab)


def show_login(client: pinchtab.Client, tab_id: str, pages: str) -> None:
    """The login page in the shared tab: loaded unless the test before left it there, not signed in
    (a navigation is ~0.15 s of Chromium's CPU; these tests read the page, not its loading)."""
    url = f"{pages}/login.html"
    if client.evaluate("[location.href, document.title]", tab_id) != [url, "Login"]:
        client.navigate(url, tab_id=tab_id)


def test_login_flow(client: pinchtab.Client, pages: str) -> None:
    tab = client.new_tab()
    tid = tab["tabId"]
    assert tab["url"] == "about:blank"
    assert client.navigate(f"{pages}/login.html", tab_id=tid) == {"tabId": tid, "url": f"{pages}/login.html", "title": "Login"}

    snap = client.snapshot(tid)
    assert isinstance(snap, dict) and snap["title"] == "Login"
    email, password = ref_of(snap, "textbox", "Email address"), ref_of(snap, "textbox", "Password")
    client.fill(email, "ada@example.com", tab_id=tid)
    client.type(password, "hunter2", tab_id=tid)
    clicked = client.click(ref_of(snap, "button", "Log in"), tab_id=tid)
    assert clicked["success"] is True and clicked["kind"] == "click"

    assert client.wait(selector="#welcome", timeout=5000, tab_id=tid)["present"] is True
    text = client.text(tid)
    assert "Signed in as ada@example.com" in text["text"]
    assert text["title"] == "Dashboard"
    assert {t["id"]: t["title"] for t in client.tabs()}[tid] == "Dashboard"

    assert client.close_tab(tid) == {"closed": True, "tabId": tid}
    assert tid not in {t["id"] for t in client.tabs()}


async def test_async_client_find_and_press(bridge: str, tab_id: str, pages: str) -> None:
    async with pinchtab.AsyncClient(bridge) as c:
        tid = (await c.navigate(f"{pages}/login.html", tab_id=tab_id))["tabId"]
        compact = await c.snapshot(tid, interactive=True, format="compact")
        assert isinstance(compact, str) and 'textbox "Password"' in compact
        found = await c.find("password field", tab_id=tid)
        assert found["confidence"] == "high"
        assert f'{found["best_ref"]}:textbox "Password"' in compact
        email = (await c.find("email address input", tab_id=tid))["best_ref"]
        await c.actions([{"kind": "fill", "ref": email, "value": "bob@example.com"},
                         {"kind": "type", "ref": found["best_ref"], "text": "hunter2"}], tab_id=tid)
        await c.press("Enter", ref=found["best_ref"], tab_id=tid)
        assert (await c.wait(text="Signed in as bob@example.com", timeout=5000, tab_id=tid))["present"]
        assert await c.evaluate("document.title", tab_id=tid) == "Dashboard"


def test_form_controls(client: pinchtab.Client, tab_id: str, pages: str) -> None:
    client.navigate(f"{pages}/form.html", tab_id=tab_id)
    snap = client.snapshot(tab_id)
    client.select(ref_of(snap, "combobox", "Country"), "Japan", tab_id=tab_id)
    client.check(ref_of(snap, "checkbox", "Newsletter"), tab_id=tab_id)
    client.uncheck(ref_of(snap, "checkbox", "Alerts"), tab_id=tab_id)
    assert client.evaluate("document.getElementById('country-out').textContent", tab_id) == "jp"
    assert client.evaluate("document.getElementById('checks').textContent", tab_id) == "news=true alerts=false"


def test_history_and_raw_text(client: pinchtab.Client, tab_id: str, pages: str) -> None:
    client.navigate(f"{pages}/login.html", tab_id=tab_id)
    client.navigate(f"{pages}/table.html", tab_id=tab_id)
    assert client.back(tab_id)["title"] == "Login"
    assert client.forward(tab_id)["title"] == "Team table"
    client.evaluate("window.marker = 1", tab_id)
    client.reload(tab_id)
    assert client.evaluate("typeof window.marker", tab_id) == "undefined"
    assert len(client.text(tab_id, raw=True, max_chars=20)["text"]) <= 20


def test_cookies(client: pinchtab.Client, tab_id: str, pages: str) -> None:
    show_login(client, tab_id, pages)
    assert client.set_cookies([{"name": "flavour", "value": "oat"}], tab_id=tab_id) == 1
    assert {"flavour": "oat"}.items() <= {c["name"]: c["value"] for c in client.cookies(tab_id)}.items()
    # other tests share this bridge's cookie jar, so look for ours among whatever else is set
    assert "flavour=oat" in client.evaluate("document.cookie", tab_id).split("; ")


def test_screenshot_and_pdf_bytes(client: pinchtab.Client, tab_id: str, pages: str) -> None:
    show_login(client, tab_id, pages)
    assert client.screenshot(tab_id).startswith(b"\x89PNG\r\n\x1a\n")
    assert client.screenshot(tab_id, quality=40).startswith(b"\xff\xd8\xff")  # quality implies JPEG
    assert client.pdf(tab_id).startswith(b"%PDF")
    assert client.pdf(tab_id, landscape=True, scale=0.5, page_ranges="1").startswith(b"%PDF")


def test_errors_carry_status_and_code(client: pinchtab.Client, tab_id: str, pages: str) -> None:
    show_login(client, tab_id, pages)
    email = ref_of(client.snapshot(tab_id), "textbox", "Email address")  # a ref of the page now shown
    with pytest.raises(PinchtabClientError) as ref:
        client.click("e999", tab_id=tab_id)
    assert (ref.value.status, ref.value.code) == (404, "ref_not_found")
    assert "e999" in ref.value.message and "snapshot" in ref.value.message

    with pytest.raises(PinchtabClientError) as url:
        client.navigate("javascript:alert(1)", tab_id=tab_id)
    assert (url.value.status, url.value.code) == (400, "scheme_not_allowed")
    assert client.evaluate("location.href", tab_id) == f"{pages}/login.html"

    with pytest.raises(PinchtabClientError) as tab:
        client.snapshot("NO-SUCH-TAB")
    assert (tab.value.status, tab.value.code) == (404, "tab_not_found")

    with pytest.raises(PinchtabClientError) as kind:
        client.action("explode", ref=email, tab_id=tab_id)
    assert (kind.value.status, kind.value.code) == (400, "unknown_kind")

    with pytest.raises(PinchtabClientError) as batch:
        client.actions([{"kind": "focus", "ref": email}, {"kind": "click", "ref": "e999"}], tab_id=tab_id)
    assert batch.value.status == 404 and batch.value.body["failedIndex"] == 1
    recorded = client.actions([{"kind": "focus", "ref": email}, {"kind": "click", "ref": "e999"}], tab_id=tab_id,
                              stop_on_error=False)
    assert [r["success"] for r in recorded["results"]] == [True, False] and recorded["failed"] == 1


def test_evaluate_disabled_is_403(bridge: str, bridge_config: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bridge_config.security, "allow_evaluate", False)  # read at each request
    with pinchtab.Client(bridge) as c:
        with pytest.raises(PinchtabClientError) as exc:
            c.evaluate("1 + 1")
    assert (exc.value.status, exc.value.code) == (403, "evaluate_disabled")


def test_server_down_is_server_unreachable() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    with pinchtab.Client(url, timeout=5) as c:
        with pytest.raises(PinchtabClientError) as exc:
            c.health()
    assert exc.value.status == 0
    assert exc.value.code == "server_unreachable"
    assert url in exc.value.message and "pinchtab server" in exc.value.message


async def test_async_server_down() -> None:
    async with pinchtab.AsyncClient(f"http://127.0.0.1:{free_port()}", timeout=5) as c:
        with pytest.raises(PinchtabClientError) as exc:
            await c.tabs()
    assert exc.value.code == "server_unreachable"


@pytest.fixture(scope="module")
def orchestrator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server app without a default instance, in a thread of this process, its state in a temp dir.

    The instance it starts is served in this process too (pinchtab.bridge.embedded, the path of
    ``server.defaultInProcess``, here for any instance): a bridge process of its own cost ~2.5 s
    of CPU (imports, on a loaded machine) for what is a test of the client's methods; test_server
    starts real bridge processes."""
    from pinchtab.config import load_config
    from pinchtab.server.app import create_app
    from tests.conftest import ServerThread

    from pinchtab.cli import _embed_bridge
    from pinchtab.server.instances import InstanceManager
    from pinchtab.server.profiles import ProfileStore
    from pinchtab.server.upstream import Upstream

    port = free_port()
    config = load_config({"server": {"port": port, "stateDir": str(tmp_path_factory.mktemp("state")),
                                     "defaultInstance": False}}, environ={})
    manager = InstanceManager(config, ProfileStore(config.server.state_dir, config.server.max_profiles),
                              lambda: Upstream(config.security.attach.ca_file), embed_default=_embed_bridge)
    # The launcher embeds only the default instance; this server has none, so every instance it starts.
    manager.launcher._in_process = lambda inst: inst.cdp_url is None  # type: ignore[method-assign]
    with ServerThread(create_app(config, manager=manager), port) as server:
        yield server.url


def test_orchestrator_routes(orchestrator: str, pages: str) -> None:
    with pinchtab.Client(orchestrator, token="") as c:
        assert c.health()["mode"] == "server"
        profile = c.create_profile("client-test", "made by test_client")
        assert profile["id"].startswith("prof_") and profile["description"] == "made by test_client"
        assert profile["id"] in {p["id"] for p in c.profiles()}

        inst = c.start_instance(profile["id"])
        assert inst["status"] == "running" and inst["id"] in {i["id"] for i in c.instances()}
        with pytest.raises(PinchtabClientError) as busy:
            c.delete_profile(profile["id"])
        assert (busy.value.status, busy.value.code) == (409, "profile_in_use")

        tid = c.open_tab_in_instance(inst["id"], f"{pages}/login.html")["tabId"]
        assert c.text(tid)["title"] == "Login"  # /tabs/{id}/... is routed to the instance
        assert c.stop_instance(inst["id"])["status"] == "stopped"
        assert c.delete_profile(profile["id"])["deleted"] is True
        assert profile["id"] not in {p["id"] for p in c.profiles()}
        with pytest.raises(PinchtabClientError) as gone:
            c.stop_instance("inst_nothere")
        assert gone.value.status == 404
