"""Dialogs, uploads, downloads, low-level input, drag, click modes and the clipboard, against a
real Chromium and local pages (interaction.html), through HTTP; the MCP tools at the end."""

from __future__ import annotations

import base64
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import ServerThread, free_port, js, open_page, ref_of, snap
from tests.fixtures.harness import PAGES


class _Pages(http.server.SimpleHTTPRequestHandler):
    """The fixture pages, plus POST /upload that keeps what it received (a form's multipart body)."""

    received: list[bytes] = []

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        _Pages.received.append(body)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<title>Received</title>received")


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Pages, directory=str(PAGES)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def state_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("state")


@pytest.fixture(scope="module")
def iserver(state_dir: Path) -> Iterator[ServerThread]:
    """A bridge that leaves dialogs open (browser.dialogs manual, the default), with uploads,
    downloads (127.0.0.1 allowed), clipboard and evaluate on, its state under a temporary dir."""
    from pinchtab.bridge.app import create_app
    from pinchtab.config import load_config

    config = load_config({
        "server": {"stateDir": str(state_dir)},
        "security": {"allowEvaluate": True, "allowUpload": True, "allowDownload": True, "allowClipboard": True,
                     "downloadAllowedDomains": ["127.0.0.1"]},
    }, environ={})
    with ServerThread(create_app(config), free_port()) as server:
        yield server


@pytest.fixture(scope="module")
def ibridge(iserver: ServerThread) -> str:
    return iserver.url


@pytest.fixture(scope="module")
def hc(ibridge: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=ibridge, timeout=60) as client:
        yield client


@pytest.fixture(scope="module")
def shared_tab(hc: httpx.Client) -> Iterator[str]:
    tab = hc.post("/tab", json={"action": "new"}).json()["tabId"]
    yield tab
    hc.post(f"/tabs/{tab}/close")


@pytest.fixture()
def page(hc: httpx.Client, site: str, shared_tab: str) -> str:
    """The module's tab on a fresh interaction.html (each test answers the dialogs it opens and
    releases the keys and buttons it holds)."""
    open_page(hc, shared_tab, f"{site}/interaction.html")
    return shared_tab


def act(hc: httpx.Client, tab: str, status: int = 200, **body: Any) -> dict[str, Any]:
    res = hc.post(f"/tabs/{tab}/action", json=body)
    assert res.status_code == status, res.text
    return res.json()


def text(hc: httpx.Client, tab: str, id_: str) -> str:
    return js(hc, tab, f"document.getElementById({id_!r}).textContent")


# -- dialogs --------------------------------------------------------------------------------------


def test_confirm_dismissed_then_accepted(hc: httpx.Client, page: str) -> None:
    # manual policy: the click answers at once that a dialog blocks the page, and says which
    err = act(hc, page, 409, kind="click", selector="#ask")
    assert err["code"] == "dialog_blocking" and err["dialog"] == {"type": "confirm", "message": "Delete the draft?",
                                                                   "url": err["dialog"]["url"]}
    state = hc.get(f"/tabs/{page}/dialog").json()
    assert state["dialogPresent"] and state["dialog"]["type"] == "confirm"
    assert hc.get(f"/tabs/{page}/snapshot").status_code == 409  # the tab waits for an answer
    tab_state = hc.get(f"/tabs/{page}/state").json()  # observation's probe reads the same dialog
    assert tab_state["dialogPresent"] and tab_state["dialog"]["message"] == "Delete the draft?"
    res = hc.post(f"/tabs/{page}/dialog", json={"action": "dismiss"})
    assert res.status_code == 200 and res.json()["handled"] and res.json()["type"] == "confirm"
    assert text(hc, page, "confirm") == "no"
    out = act(hc, page, kind="click", selector="#ask", dialogAction="accept")
    assert out["dialog"]["action"] == "accept" and out["dialog"]["message"] == "Delete the draft?"
    assert text(hc, page, "confirm") == "yes"
    assert not hc.get(f"/tabs/{page}/dialog").json()["dialogPresent"]


def test_prompt_answered_with_text(hc: httpx.Client, page: str) -> None:
    act(hc, page, kind="click", selector="#name", dialogAction="accept", dialogText="Ada")
    assert text(hc, page, "prompt") == "Ada"
    act(hc, page, 409, kind="click", selector="#name")
    assert hc.post(f"/tabs/{page}/dialog", json={"action": "accept", "text": "Grace"}).status_code == 200
    assert text(hc, page, "prompt") == "Grace"
    act(hc, page, kind="click", selector="#name", dialogAction="dismiss")
    assert text(hc, page, "prompt") == "null"


def test_beforeunload_answered_by_the_action(hc: httpx.Client, page: str) -> None:
    js(hc, page, "window.addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = 'stay'; }), 1")
    act(hc, page, kind="click", selector="#plain")  # a user gesture arms beforeunload
    out = act(hc, page, kind="click", selector="#away", dialogAction="dismiss")
    assert out["dialog"]["type"] == "beforeunload"
    assert js(hc, page, "location.pathname") == "/interaction.html"  # dismissed: the page stays
    act(hc, page, kind="click", selector="#away", dialogAction="accept", waitNav=True)
    assert js(hc, page, "location.pathname") == "/index.html"


def test_dialog_errors(hc: httpx.Client, page: str) -> None:
    res = hc.post(f"/tabs/{page}/dialog", json={"action": "accept"})
    assert res.status_code == 400 and res.json()["code"] == "no_dialog"
    assert hc.post(f"/tabs/{page}/dialog", json={"action": "maybe"}).status_code == 400
    assert hc.post(f"/tabs/{page}/dialog", json={}).status_code == 400


def test_default_policy_leaves_the_dialog_to_the_agent(hc: httpx.Client, page: str) -> None:
    http, tab = hc, page  # the module's bridge keeps browser.dialogs at its default
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "selector": "#ask"})
    assert res.status_code == 409 and res.json()["dialog"]["message"] == "Delete the draft?"
    assert http.post(f"/tabs/{tab}/dialog", json={"action": "accept"}).json()["action"] == "accept"
    assert js(http, tab, "document.getElementById('confirm').textContent") == "yes"
    out = http.post(f"/tabs/{tab}/action", json={"kind": "click", "selector": "#ask", "dialogAction": "dismiss"}).json()
    assert out["dialog"]["action"] == "dismiss" and js(http, tab, "document.getElementById('confirm').textContent") == "no"


# -- files ------------------------------------------------------------------------------------------


def test_upload_received_by_the_server(hc: httpx.Client, page: str, site: str) -> None:
    content = b"quarterly numbers\n"
    data = "data:text/plain;base64," + base64.b64encode(content).decode()
    res = hc.post(f"/tabs/{page}/upload", json={"selector": "#file", "files": [data]})
    assert res.status_code == 200 and res.json()["files"] == 1, res.text
    assert js(hc, page, "document.getElementById('file').files[0].size") == len(content)
    _Pages.received.clear()
    act(hc, page, kind="click", selector="button[type=submit]", waitNav=True)
    assert len(_Pages.received) == 1 and content in _Pages.received[0]


def test_upload_from_an_allowed_path_and_by_ref(hc: httpx.Client, page: str, state_dir: Path) -> None:
    (state_dir / "uploads").mkdir(exist_ok=True)
    (state_dir / "uploads" / "photo.png").write_bytes(b"\x89PNG fake")
    s = snap(hc, page, filter="interactive")
    ref = next(n["ref"] for n in s["nodes"] if n["name"].startswith("Photos"))
    res = hc.post(f"/tabs/{page}/upload", json={"ref": ref, "paths": ["photo.png"]})
    assert res.status_code == 200, res.text
    assert js(hc, page, "document.getElementById('photos').files[0].name") == "photo.png"


def test_upload_bad_input_leaves_the_page_alone(hc: httpx.Client, page: str, tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("x")
    cases = [
        ({"selector": "#file", "paths": [str(outside)]}, "path_not_allowed"),
        ({"selector": "#file", "paths": ["missing.txt"]}, "file_not_found"),
        ({"selector": "#plain", "files": ["aGk="]}, "not_file_input"),
        ({"selector": "#file"}, "missing_files"),
        ({"selector": "#file", "files": ["aGk="] * 9}, "too_many_files"),
        ({"selector": "#file", "files": ["not base64!"]}, "invalid_file"),
    ]
    for body, code in cases:
        res = hc.post(f"/tabs/{page}/upload", json=body)
        assert res.status_code == 400 and res.json()["code"] == code, (body, res.text)
    assert hc.post(f"/tabs/{page}/upload", json={"selector": "#nope", "files": ["aGk="]}).status_code == 404
    assert js(hc, page, "document.getElementById('file').files.length") == 0


def test_page_download_saved_under_the_state_dir(hc: httpx.Client, page: str, state_dir: Path) -> None:
    act(hc, page, kind="click", selector="#dl")
    import time

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        done = [d for d in hc.get("/downloads").json()["downloads"] if d["state"] == "completed"]
        if done:
            break
        time.sleep(0.1)
    assert done and done[-1]["filename"] == "report.csv"
    path = Path(done[-1]["path"])
    assert path.parent == state_dir / "downloads" and path.read_bytes() == (PAGES / "report.csv").read_bytes()
    one = hc.get("/downloads", params={"id": done[-1]["id"]}).json()
    assert base64.b64decode(one["data"]) == path.read_bytes() and one["contentType"] == "text/csv"
    assert hc.get("/downloads", params={"id": done[-1]["id"], "raw": "true"}).content == path.read_bytes()
    assert hc.get("/downloads", params={"id": "nope"}).status_code == 404


def test_download_url_through_the_browser_session(hc: httpx.Client, page: str, site: str) -> None:
    res = hc.get(f"/tabs/{page}/download", params={"url": f"{site}/report.csv"})
    assert res.status_code == 200, res.text
    body = res.json()
    assert base64.b64decode(body["data"]) == (PAGES / "report.csv").read_bytes() and body["contentType"] == "text/csv"
    raw = hc.get("/download", params={"url": f"{site}/report.csv", "raw": "true", "tabId": page})
    assert raw.content == (PAGES / "report.csv").read_bytes()
    saved = hc.get("/download", params={"url": f"{site}/report.csv", "output": "file", "path": "r.csv"}).json()
    assert Path(saved["path"]).read_bytes() == raw.content
    bad = hc.get("/download", params={"url": "http://elsewhere.test/x"})
    assert bad.status_code == 400 and "not allowed" in bad.json()["error"]
    escape = hc.get("/download", params={"url": f"{site}/report.csv", "output": "file", "path": "../../x"})
    assert escape.status_code == 400


def test_download_refuses_loopback_by_default(iserver: ServerThread, hc: httpx.Client, pages: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # the module's bridge with security.downloadAllowedDomains at its default (read per download),
    # rather than a bridge and a Chromium of its own
    security = iserver.server.config.app.state.service.config.security
    monkeypatch.setattr(security, "download_allowed_domains", [])
    res = hc.get("/download", params={"url": f"{pages}/report.csv"})
    assert res.status_code == 400 and "private/internal" in res.json()["error"]


# -- pointer, keyboard, drag, click modes ------------------------------------------------------------


def test_html5_drag_reorders_a_list(hc: httpx.Client, page: str) -> None:
    out = act(hc, page, kind="drag", selector="#i3", toSelector="#i1")
    assert out["result"]["html5"] is True
    assert js(hc, page, "order()") == "Three,One,Two"


def test_drag_to_nowhere_is_refused(hc: httpx.Client, page: str) -> None:
    res = hc.post(f"/tabs/{page}/action", json={"kind": "drag", "selector": "#i1", "toX": 5000, "toY": 10})
    assert res.status_code == 400 and res.json()["code"] == "target_outside_viewport"
    res = hc.post(f"/tabs/{page}/action", json={"kind": "drag", "selector": "#i1"})
    assert res.status_code == 400 and res.json()["code"] == "missing_target"
    assert js(hc, page, "order()") == "One,Two,Three"


def test_pointer_path_on_a_canvas(hc: httpx.Client, page: str) -> None:
    box = hc.get(f"/tabs/{page}/box", params={"ref": "#pad"}).json()["box"]
    act(hc, page, kind="scrollintoview", selector="#pad")
    box = hc.get(f"/tabs/{page}/box", params={"ref": "#pad"}).json()["box"]
    x0, y0 = box["x"] + 20, box["y"] + 20
    act(hc, page, kind="mouse-move", x=x0, y=y0)
    act(hc, page, kind="mouse-down", button="left")
    for i in range(1, 6):
        act(hc, page, kind="mouse-move", x=x0 + 30 * i, y=y0 + 15 * i)
    act(hc, page, kind="mouse-up")
    stroke = js(hc, page, "window.stroke")
    assert js(hc, page, "window.strokes") == 1 and len(stroke) >= 6
    assert stroke[-1][0] - stroke[0][0] >= 140  # the path went where the pointer went
    res = hc.post(f"/tabs/{page}/action", json={"kind": "mouse-move"})
    assert res.status_code == 400 and res.json()["code"] == "missing_target"


def test_covered_button_clicked_in_dom_and_dispatch_modes(hc: httpx.Client, page: str) -> None:
    ref = ref_of(snap(hc, page, filter="interactive"), "button", "Pay now")
    err = act(hc, page, 500, kind="click", ref=ref)
    assert err["code"] == "element_occluded" and "Cookie banner" in err["error"]
    act(hc, page, kind="click", ref=ref, mode="dom")
    act(hc, page, kind="click", ref=ref, mode="dispatch")
    assert js(hc, page, "window.coveredClicks") == 2


def test_held_shift_and_keyboard_text(hc: httpx.Client, page: str) -> None:
    act(hc, page, kind="focus", selector="#plain")
    act(hc, page, kind="keydown", key="Shift")
    act(hc, page, kind="keyboard-type", text="abc")
    assert act(hc, page, kind="keyup", key="Shift")["result"]["held"] == []
    act(hc, page, kind="keyboard-type", text="de")
    act(hc, page, kind="keyboard-inserttext", text=" fast")
    assert js(hc, page, "document.getElementById('plain').value") == "ABCde fast"


# -- clipboard --------------------------------------------------------------------------------------


def test_clipboard_is_the_browsers(hc: httpx.Client, page: str) -> None:
    tabs = hc.get("/tabs").json()["tabs"]
    assert hc.post("/clipboard/write", json={"text": "line one\nline \"two\" <&>"}).json() == {"success": True}
    assert hc.get("/clipboard/read").json()["text"] == "line one\nline \"two\" <&>"
    act(hc, page, kind="press", selector="#notes", key="Control+v")  # pasted into the page
    assert js(hc, page, "document.getElementById('notes').value") == "line one\nline \"two\" <&>"
    act(hc, page, kind="click", selector="#copy")  # the page copies
    assert hc.get("/clipboard/paste").json()["text"] == "CODE-4321"
    assert hc.get("/clipboard/read", params={"tabId": page}).status_code == 400
    assert hc.post("/clipboard/write", json={"text": "x" * (64 * 1024 + 1)}).status_code == 400
    assert hc.get("/tabs").json()["tabs"] == tabs  # the scratch page was never a tab


# -- gates ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def locked(locked_bridge: str) -> Iterator[httpx.Client]:
    """A client of the session's locked-down bridge (one for the module: a client costs ~0.07 s of CPU to build)."""
    with httpx.Client(base_url=locked_bridge, timeout=30) as client:
        yield client


@pytest.mark.parametrize("method,path,body,key", [
    ("POST", "/upload", {"files": ["aGk="]}, "security.allowUpload"),
    ("GET", "/download?url=http://example.com/", None, "security.allowDownload"),
    ("GET", "/downloads", None, "security.allowDownload"),
    ("GET", "/clipboard/read", None, "security.allowClipboard"),
    ("POST", "/clipboard/write", {"text": "x"}, "security.allowClipboard"),
])
def test_gates_answer_403_when_off(locked: httpx.Client, method: str, path: str, body: Any, key: str) -> None:
    res = locked.request(method, path, json=body)
    assert res.status_code == 403 and key in res.json()["error"]


# -- MCP ----------------------------------------------------------------------------------------------


# The MCP server `pinchtab mcp --server URL` builds, served in this process: a `pinchtab mcp`
# subprocess costs ~2.4 s of CPU (test_mcp runs the real one).


@pytest.fixture(scope="module")
def mcp(ibridge: str) -> Iterator[Any]:
    from tests.e2e.test_mcp import McpSession

    with McpSession.in_process(ibridge) as session:
        yield session


def test_mcp_dialogs(mcp: Any, hc: httpx.Client, page: str) -> None:
    refs = {n["name"]: n["ref"] for n in snap(hc, page, filter="interactive")["nodes"]}
    err = mcp.error("pinchtab_click", {"ref": refs["Delete draft"], "tabId": page})
    assert err.startswith("HTTP 409: a confirm dialog \"Delete the draft?\" is open") and "pinchtab_dialog" in err
    assert mcp.json("pinchtab_dialog", {"action": "dismiss", "tabId": page})["type"] == "confirm"
    assert text(hc, page, "confirm") == "no"
    mcp.json("pinchtab_click", {"ref": refs["Delete draft"], "tabId": page, "dialogAction": "accept"})
    assert text(hc, page, "confirm") == "yes"
    mcp.json("pinchtab_click", {"ref": refs["Set name"], "tabId": page, "dialogAction": "accept", "dialogText": "Lin"})
    assert text(hc, page, "prompt") == "Lin"
    assert "HTTP 400" in mcp.error("pinchtab_dialog", {"action": "accept", "tabId": page})


def test_mcp_files(mcp: Any, hc: httpx.Client, page: str, site: str) -> None:
    data = "data:text/plain;base64," + base64.b64encode(b"from mcp").decode()
    assert mcp.json("pinchtab_upload", {"selector": "#file", "files": [data], "tabId": page})["files"] == 1
    assert js(hc, page, "document.getElementById('file').files[0].size") == 8
    got = mcp.json("pinchtab_download", {"url": f"{site}/report.csv", "tabId": page})
    assert base64.b64decode(got["data"]) == (PAGES / "report.csv").read_bytes()


def test_mcp_input_tools(mcp: Any, hc: httpx.Client, page: str) -> None:
    assert mcp.json("pinchtab_drag", {"ref": "#i3", "toSelector": "#i1", "tabId": page})["result"]["html5"]
    assert js(hc, page, "order()") == "Three,One,Two"
    mcp.json("pinchtab_scroll_into_view", {"selector": "#pad", "tabId": page})
    box = hc.get(f"/tabs/{page}/box", params={"ref": "#pad"}).json()["box"]
    x, y = box["x"] + 10, box["y"] + 10
    mcp.json("pinchtab_mouse", {"action": "move", "x": x, "y": y, "tabId": page})
    mcp.json("pinchtab_mouse", {"action": "down", "tabId": page})
    for i in range(1, 4):
        mcp.json("pinchtab_mouse", {"action": "move", "x": x + 40 * i, "y": y + 10 * i, "tabId": page})
    mcp.json("pinchtab_mouse", {"action": "up", "tabId": page})
    assert js(hc, page, "window.strokes") == 1 and len(js(hc, page, "window.stroke")) >= 4
    covered = ref_of(snap(hc, page, filter="interactive"), "button", "Pay now")
    assert "occluded" in mcp.error("pinchtab_click", {"ref": covered, "tabId": page})
    mcp.json("pinchtab_click", {"ref": covered, "mode": "dom", "tabId": page})
    assert js(hc, page, "window.coveredClicks") == 1
    act(hc, page, kind="focus", selector="#plain")
    mcp.json("pinchtab_keydown", {"key": "Shift", "tabId": page})
    mcp.json("pinchtab_keyboard_type", {"text": "hi", "tabId": page})
    mcp.json("pinchtab_keyup", {"key": "Shift", "tabId": page})
    mcp.json("pinchtab_keyboard_inserttext", {"text": " there", "tabId": page})
    assert js(hc, page, "document.getElementById('plain').value") == "HI there"


def test_mcp_gates(locked_bridge: str) -> None:
    from tests.e2e.test_mcp import McpSession

    with McpSession.in_process(locked_bridge) as session:
        assert "HTTP 403" in session.error("pinchtab_upload", {"files": ["aGk="]})
        assert "security.allowDownload" in session.error("pinchtab_download", {"url": "https://example.com/"})


# -- CLI ----------------------------------------------------------------------------------------------


def test_cli_commands(ibridge: str, hc: httpx.Client, page: str) -> None:
    from click.testing import CliRunner

    from pinchtab.cli import main

    def cli(*args: str) -> str:
        res = CliRunner().invoke(main, [*args, "--tab", page] if args[0] not in ("clipboard",) else list(args),
                                 env={"PINCHTAB_SERVER": ibridge}, catch_exceptions=False)
        assert res.exit_code == 0, f"{args}: {res.output}"
        return res.output

    cli("drag", "#i2", "#i1")
    assert js(hc, page, "order()") == "Two,One,Three"
    assert hc.post(f"/tabs/{page}/action", json={"kind": "click", "selector": "#name"}).status_code == 409
    cli("dialog", "accept", "--text", "Kim")
    assert text(hc, page, "prompt") == "Kim"
    act(hc, page, kind="focus", selector="#plain")
    cli("keydown", "Shift")
    cli("keyboard", "type", "ok")
    cli("keyup", "Shift")
    assert js(hc, page, "document.getElementById('plain').value") == "OK"
    assert json_box(cli("box", "#pad", "--json"))["width"] == 302  # 300 + its 1px border
    cli("clipboard", "write", "via cli")
    assert "via cli" in cli("clipboard", "read")


def json_box(out: str) -> dict[str, Any]:
    import json

    return json.loads(out)["box"]
