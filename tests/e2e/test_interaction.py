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

from tests.conftest import js, open_tab, ref_of, snap
from tests.e2e.test_actions import give_up_soon, page_as_loaded
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


@pytest.fixture(autouse=True)
def settings(bridge_config: Any, state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The session bridge with uploads, downloads (127.0.0.1 allowed) and the clipboard on, its
    files under this module's state dir, for each test (every one read per request), rather than a
    bridge and a Chromium of the module's own. Its dialogs stay open (browser.dialogs manual, the
    default). Page downloads are not among these: Chromium is told where they go once, when it
    starts, so that test runs on test_errors' own bridge."""
    for name in ("allow_upload", "allow_download", "allow_clipboard"):
        monkeypatch.setattr(bridge_config.security, name, True)
    monkeypatch.setattr(bridge_config.security, "download_allowed_domains", ["127.0.0.1"])
    monkeypatch.setattr(bridge_config.server, "state_dir", str(state_dir))


shared_tab = pytest.fixture(scope="module", name="shared_tab")(open_tab)


@pytest.fixture()
def page(http: httpx.Client, site: str, shared_tab: str) -> str:
    """The module's tab on interaction.html as loaded (each test answers the dialogs it opens and
    releases the keys and buttons it holds): put back by script, its listeners bound again, when
    the tab is still on it (test_actions.page_as_loaded), loaded again after a test that left it.
    Cases on different elements of the page share a test: a navigation costs Chromium ~0.16 s of
    CPU, more than the rest of such a case."""
    page_as_loaded(http, shared_tab, f"{site}/interaction.html",
                   reset="delete window.strokes; delete window.coveredClicks", rerun_scripts=True)
    return shared_tab


def act(http: httpx.Client, tab: str, status: int = 200, **body: Any) -> dict[str, Any]:
    res = http.post(f"/tabs/{tab}/action", json=body)
    assert res.status_code == status, res.text
    return res.json()


def text(http: httpx.Client, tab: str, id_: str) -> str:
    return js(http, tab, f"document.getElementById({id_!r}).textContent")


# -- dialogs --------------------------------------------------------------------------------------


def test_confirm_dismissed_then_accepted(http: httpx.Client, page: str) -> None:
    # manual policy: the click answers at once that a dialog blocks the page, and says which
    err = act(http, page, 409, kind="click", selector="#ask")
    assert err["code"] == "dialog_blocking" and err["dialog"] == {"type": "confirm", "message": "Delete the draft?",
                                                                   "url": err["dialog"]["url"]}
    state = http.get(f"/tabs/{page}/dialog").json()
    assert state["dialogPresent"] and state["dialog"]["type"] == "confirm"
    assert http.get(f"/tabs/{page}/snapshot").status_code == 409  # the tab waits for an answer
    tab_state = http.get(f"/tabs/{page}/state").json()  # observation's probe reads the same dialog
    assert tab_state["dialogPresent"] and tab_state["dialog"]["message"] == "Delete the draft?"
    res = http.post(f"/tabs/{page}/dialog", json={"action": "dismiss"})
    assert res.status_code == 200 and res.json()["handled"] and res.json()["type"] == "confirm"
    assert text(http, page, "confirm") == "no"
    out = act(http, page, kind="click", selector="#ask", dialogAction="accept")
    assert out["dialog"]["action"] == "accept" and out["dialog"]["message"] == "Delete the draft?"
    assert text(http, page, "confirm") == "yes"
    assert not http.get(f"/tabs/{page}/dialog").json()["dialogPresent"]


def test_prompt_answered_with_text(http: httpx.Client, page: str) -> None:
    act(http, page, kind="click", selector="#name", dialogAction="accept", dialogText="Ada")
    assert text(http, page, "prompt") == "Ada"
    act(http, page, 409, kind="click", selector="#name")
    assert http.post(f"/tabs/{page}/dialog", json={"action": "accept", "text": "Grace"}).status_code == 200
    assert text(http, page, "prompt") == "Grace"
    act(http, page, kind="click", selector="#name", dialogAction="dismiss")
    assert text(http, page, "prompt") == "null"


def test_beforeunload_answered_by_the_action(http: httpx.Client, page: str) -> None:
    js(http, page, "window.addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = 'stay'; }), 1")
    act(http, page, kind="click", selector="#plain")  # a user gesture arms beforeunload
    out = act(http, page, kind="click", selector="#away", dialogAction="dismiss")
    assert out["dialog"]["type"] == "beforeunload"
    assert js(http, page, "location.pathname") == "/interaction.html"  # dismissed: the page stays
    act(http, page, kind="click", selector="#away", dialogAction="accept", waitNav=True)
    assert js(http, page, "location.pathname") == "/index.html"


def test_refused_requests_and_a_download_leave_the_page_alone(http: httpx.Client, page: str, tmp_path: Path,
                                                              site: str) -> None:
    """Bad dialog answers, drags and uploads, and a download through the tab, on one load of the page."""
    # dialog errors
    res = http.post(f"/tabs/{page}/dialog", json={"action": "accept"})
    assert res.status_code == 400 and res.json()["code"] == "no_dialog"
    assert http.post(f"/tabs/{page}/dialog", json={"action": "maybe"}).status_code == 400
    assert http.post(f"/tabs/{page}/dialog", json={}).status_code == 400
    # drag to nowhere is refused
    res = http.post(f"/tabs/{page}/action", json={"kind": "drag", "selector": "#i1", "toX": 5000, "toY": 10})
    assert res.status_code == 400 and res.json()["code"] == "target_outside_viewport"
    res = http.post(f"/tabs/{page}/action", json={"kind": "drag", "selector": "#i1"})
    assert res.status_code == 400 and res.json()["code"] == "missing_target"
    assert js(http, page, "order()") == "One,Two,Three"
    # upload bad input leaves the page alone
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
        res = http.post(f"/tabs/{page}/upload", json=body)
        assert res.status_code == 400 and res.json()["code"] == code, (body, res.text)
    assert http.post(f"/tabs/{page}/upload", json={"selector": "#nope", "files": ["aGk="]}).status_code == 404
    assert js(http, page, "document.getElementById('file').files.length") == 0
    # download url through the browser session
    res = http.get(f"/tabs/{page}/download", params={"url": f"{site}/report.csv"})
    assert res.status_code == 200, res.text
    body = res.json()
    assert base64.b64decode(body["data"]) == (PAGES / "report.csv").read_bytes() and body["contentType"] == "text/csv"
    raw = http.get("/download", params={"url": f"{site}/report.csv", "raw": "true", "tabId": page})
    assert raw.content == (PAGES / "report.csv").read_bytes()
    saved = http.get("/download", params={"url": f"{site}/report.csv", "output": "file", "path": "r.csv"}).json()
    assert Path(saved["path"]).read_bytes() == raw.content
    bad = http.get("/download", params={"url": "http://elsewhere.test/x"})
    assert bad.status_code == 400 and "not allowed" in bad.json()["error"]
    escape = http.get("/download", params={"url": f"{site}/report.csv", "output": "file", "path": "../../x"})
    assert escape.status_code == 400


def test_default_policy_leaves_the_dialog_to_the_agent(http: httpx.Client, page: str) -> None:
    tab = page  # the session bridge keeps browser.dialogs at its default
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "selector": "#ask"})
    assert res.status_code == 409 and res.json()["dialog"]["message"] == "Delete the draft?"
    assert http.post(f"/tabs/{tab}/dialog", json={"action": "accept"}).json()["action"] == "accept"
    assert js(http, tab, "document.getElementById('confirm').textContent") == "yes"
    out = http.post(f"/tabs/{tab}/action", json={"kind": "click", "selector": "#ask", "dialogAction": "dismiss"}).json()
    assert out["dialog"]["action"] == "dismiss" and js(http, tab, "document.getElementById('confirm').textContent") == "no"


# -- files ------------------------------------------------------------------------------------------


def test_uploads_by_path_and_ref_then_received_by_the_server(http: httpx.Client, page: str, state_dir: Path,
                                                             site: str) -> None:
    """An upload from an allowed path by ref, then one sent with the form, on one load of the page."""
    # upload from an allowed path and by ref
    (state_dir / "uploads").mkdir(exist_ok=True)
    (state_dir / "uploads" / "photo.png").write_bytes(b"\x89PNG fake")
    s = snap(http, page, filter="interactive")
    ref = next(n["ref"] for n in s["nodes"] if n["name"].startswith("Photos"))
    res = http.post(f"/tabs/{page}/upload", json={"ref": ref, "paths": ["photo.png"]})
    assert res.status_code == 200, res.text
    assert js(http, page, "document.getElementById('photos').files[0].name") == "photo.png"
    # upload received by the server
    content = b"quarterly numbers\n"
    data = "data:text/plain;base64," + base64.b64encode(content).decode()
    res = http.post(f"/tabs/{page}/upload", json={"selector": "#file", "files": [data]})
    assert res.status_code == 200 and res.json()["files"] == 1, res.text
    assert js(http, page, "document.getElementById('file').files[0].size") == len(content)
    _Pages.received.clear()
    act(http, page, kind="click", selector="button[type=submit]", waitNav=True)
    assert len(_Pages.received) == 1 and content in _Pages.received[0]


def test_download_refuses_loopback_by_default(bridge_config: Any, http: httpx.Client, pages: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # security.downloadAllowedDomains at its default (read per download)
    monkeypatch.setattr(bridge_config.security, "download_allowed_domains", [])
    res = http.get("/download", params={"url": f"{pages}/report.csv"})
    assert res.status_code == 400 and "private/internal" in res.json()["error"]


# -- pointer, keyboard, drag, click modes ------------------------------------------------------------


def test_drag_pointer_path_and_held_keys(http: httpx.Client, page: str) -> None:
    """A drag, a pointer path on the canvas and a held Shift, each on its own element of one load of the page."""
    # html5 drag reorders a list
    out = act(http, page, kind="drag", selector="#i3", toSelector="#i1")
    assert out["result"]["html5"] is True
    assert js(http, page, "order()") == "Three,One,Two"
    # pointer path on a canvas
    box = http.get(f"/tabs/{page}/box", params={"ref": "#pad"}).json()["box"]
    act(http, page, kind="scrollintoview", selector="#pad")
    box = http.get(f"/tabs/{page}/box", params={"ref": "#pad"}).json()["box"]
    x0, y0 = box["x"] + 20, box["y"] + 20
    act(http, page, kind="mouse-move", x=x0, y=y0)
    act(http, page, kind="mouse-down", button="left")
    for i in range(1, 6):
        act(http, page, kind="mouse-move", x=x0 + 30 * i, y=y0 + 15 * i)
    act(http, page, kind="mouse-up")
    stroke = js(http, page, "window.stroke")
    assert js(http, page, "window.strokes") == 1 and len(stroke) >= 6
    assert stroke[-1][0] - stroke[0][0] >= 140  # the path went where the pointer went
    res = http.post(f"/tabs/{page}/action", json={"kind": "mouse-move"})
    assert res.status_code == 400 and res.json()["code"] == "missing_target"
    # held shift and keyboard text
    act(http, page, kind="focus", selector="#plain")
    act(http, page, kind="keydown", key="Shift")
    act(http, page, kind="keyboard-type", text="abc")
    assert act(http, page, kind="keyup", key="Shift")["result"]["held"] == []
    act(http, page, kind="keyboard-type", text="de")
    act(http, page, kind="keyboard-inserttext", text=" fast")
    assert js(http, page, "document.getElementById('plain').value") == "ABCde fast"


def test_covered_button_clicked_in_dom_and_dispatch_modes(http: httpx.Client, page: str, bridge_server: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    give_up_soon(bridge_server, page, monkeypatch)  # on the covered button
    ref = ref_of(snap(http, page, filter="interactive"), "button", "Pay now")
    err = act(http, page, 500, kind="click", ref=ref)
    assert err["code"] == "element_occluded" and "Cookie banner" in err["error"]
    act(http, page, kind="click", ref=ref, mode="dom")
    act(http, page, kind="click", ref=ref, mode="dispatch")
    assert js(http, page, "window.coveredClicks") == 2


# -- clipboard --------------------------------------------------------------------------------------


def test_clipboard_is_the_browsers(http: httpx.Client, page: str) -> None:
    tabs = http.get("/tabs").json()["tabs"]
    assert http.post("/clipboard/write", json={"text": "line one\nline \"two\" <&>"}).json() == {"success": True}
    assert http.get("/clipboard/read").json()["text"] == "line one\nline \"two\" <&>"
    act(http, page, kind="press", selector="#notes", key="Control+v")  # pasted into the page
    assert js(http, page, "document.getElementById('notes').value") == "line one\nline \"two\" <&>"
    act(http, page, kind="click", selector="#copy")  # the page copies
    assert http.get("/clipboard/paste").json()["text"] == "CODE-4321"
    assert http.get("/clipboard/read", params={"tabId": page}).status_code == 400
    assert http.post("/clipboard/write", json={"text": "x" * (64 * 1024 + 1)}).status_code == 400
    assert http.get("/tabs").json()["tabs"] == tabs  # the scratch page was never a tab


# -- gates ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method,path,body,key", [
    ("POST", "/upload", {"files": ["aGk="]}, "security.allowUpload"),
    ("GET", "/download?url=http://example.com/", None, "security.allowDownload"),
    ("GET", "/downloads", None, "security.allowDownload"),
    ("GET", "/clipboard/read", None, "security.allowClipboard"),
    ("POST", "/clipboard/write", {"text": "x"}, "security.allowClipboard"),
])
def test_gates_answer_403_when_off(http: httpx.Client, locked_bridge: str, method: str, path: str, body: Any,
                                   key: str) -> None:
    # the session's client, with an absolute URL: a client of its own costs ~0.05 s of CPU to build
    res = http.request(method, f"{locked_bridge}{path}", json=body)
    assert res.status_code == 403 and key in res.json()["error"]


# -- MCP ----------------------------------------------------------------------------------------------


# The MCP server `pinchtab mcp --server URL` builds, served in this process: a `pinchtab mcp`
# subprocess costs ~2.4 s of CPU (test_mcp runs the real one).


@pytest.fixture(scope="module")
def mcp(bridge: str) -> Iterator[Any]:
    from tests.e2e.test_mcp import McpSession

    with McpSession.in_process(bridge) as session:
        yield session


def test_mcp_dialogs_and_files(mcp: Any, http: httpx.Client, page: str, site: str) -> None:
    """The MCP dialog, upload and download tools on one load of the page."""
    # mcp dialogs
    refs = {n["name"]: n["ref"] for n in snap(http, page, filter="interactive")["nodes"]}
    err = mcp.error("pinchtab_click", {"ref": refs["Delete draft"], "tabId": page})
    assert err.startswith("HTTP 409: a confirm dialog \"Delete the draft?\" is open") and "pinchtab_dialog" in err
    assert mcp.json("pinchtab_dialog", {"action": "dismiss", "tabId": page})["type"] == "confirm"
    assert text(http, page, "confirm") == "no"
    mcp.json("pinchtab_click", {"ref": refs["Delete draft"], "tabId": page, "dialogAction": "accept"})
    assert text(http, page, "confirm") == "yes"
    mcp.json("pinchtab_click", {"ref": refs["Set name"], "tabId": page, "dialogAction": "accept", "dialogText": "Lin"})
    assert text(http, page, "prompt") == "Lin"
    assert "HTTP 400" in mcp.error("pinchtab_dialog", {"action": "accept", "tabId": page})
    # mcp files
    data = "data:text/plain;base64," + base64.b64encode(b"from mcp").decode()
    assert mcp.json("pinchtab_upload", {"selector": "#file", "files": [data], "tabId": page})["files"] == 1
    assert js(http, page, "document.getElementById('file').files[0].size") == 8
    got = mcp.json("pinchtab_download", {"url": f"{site}/report.csv", "tabId": page})
    assert base64.b64decode(got["data"]) == (PAGES / "report.csv").read_bytes()


def test_mcp_input_tools(mcp: Any, http: httpx.Client, page: str, bridge_server: Any,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    give_up_soon(bridge_server, page, monkeypatch)  # on the covered button
    assert mcp.json("pinchtab_drag", {"ref": "#i3", "toSelector": "#i1", "tabId": page})["result"]["html5"]
    assert js(http, page, "order()") == "Three,One,Two"
    mcp.json("pinchtab_scroll_into_view", {"selector": "#pad", "tabId": page})
    box = http.get(f"/tabs/{page}/box", params={"ref": "#pad"}).json()["box"]
    x, y = box["x"] + 10, box["y"] + 10
    mcp.json("pinchtab_mouse", {"action": "move", "x": x, "y": y, "tabId": page})
    mcp.json("pinchtab_mouse", {"action": "down", "tabId": page})
    for i in range(1, 4):
        mcp.json("pinchtab_mouse", {"action": "move", "x": x + 40 * i, "y": y + 10 * i, "tabId": page})
    mcp.json("pinchtab_mouse", {"action": "up", "tabId": page})
    assert js(http, page, "window.strokes") == 1 and len(js(http, page, "window.stroke")) >= 4
    covered = ref_of(snap(http, page, filter="interactive"), "button", "Pay now")
    assert "occluded" in mcp.error("pinchtab_click", {"ref": covered, "tabId": page})
    mcp.json("pinchtab_click", {"ref": covered, "mode": "dom", "tabId": page})
    assert js(http, page, "window.coveredClicks") == 1
    act(http, page, kind="focus", selector="#plain")
    mcp.json("pinchtab_keydown", {"key": "Shift", "tabId": page})
    mcp.json("pinchtab_keyboard_type", {"text": "hi", "tabId": page})
    mcp.json("pinchtab_keyup", {"key": "Shift", "tabId": page})
    mcp.json("pinchtab_keyboard_inserttext", {"text": " there", "tabId": page})
    assert js(http, page, "document.getElementById('plain').value") == "HI there"


def test_mcp_gates(locked_bridge: str) -> None:
    from tests.e2e.test_mcp import McpSession

    with McpSession.in_process(locked_bridge) as session:
        assert "HTTP 403" in session.error("pinchtab_upload", {"files": ["aGk="]})
        assert "security.allowDownload" in session.error("pinchtab_download", {"url": "https://example.com/"})


# -- CLI ----------------------------------------------------------------------------------------------


def test_cli_commands(bridge: str, http: httpx.Client, page: str) -> None:
    from click.testing import CliRunner

    from pinchtab.cli import main

    def cli(*args: str) -> str:
        res = CliRunner().invoke(main, [*args, "--tab", page] if args[0] not in ("clipboard",) else list(args),
                                 env={"PINCHTAB_SERVER": bridge}, catch_exceptions=False)
        assert res.exit_code == 0, f"{args}: {res.output}"
        return res.output

    cli("drag", "#i2", "#i1")
    assert js(http, page, "order()") == "Two,One,Three"
    assert http.post(f"/tabs/{page}/action", json={"kind": "click", "selector": "#name"}).status_code == 409
    cli("dialog", "accept", "--text", "Kim")
    assert text(http, page, "prompt") == "Kim"
    act(http, page, kind="focus", selector="#plain")
    cli("keydown", "Shift")
    cli("keyboard", "type", "ok")
    cli("keyup", "Shift")
    assert js(http, page, "document.getElementById('plain').value") == "OK"
    assert json_box(cli("box", "#pad", "--json"))["width"] == 302  # 300 + its 1px border
    cli("clipboard", "write", "via cli")
    assert "via cli" in cli("clipboard", "read")


def json_box(out: str) -> dict[str, Any]:
    import json

    return json.loads(out)["box"]
