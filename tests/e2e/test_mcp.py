"""`pinchtab mcp` through the SDK's own client, against a live bridge with a real Chromium.

``McpSession`` spawns ``python -m pinchtab mcp`` and talks to it over stdio; the auto-start test
below is such a session (the process and what it starts are what it checks; so are the
sessions of tests/unit/mcp/test_early.py and test_frameworks.py). Where the process itself is not
what a test checks, ``McpSession.in_process`` serves the same tools from this process, over memory
streams (no interpreter start, no imports: about 2.5 s of CPU less a session). A session runs in a
thread with its own event loop, so plain test functions can call tools; one is shared by the tests
of this module.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from pinchtab import autostart
from pinchtab.config import load_config
from tests.conftest import free_port, open_tab
from tests.fixtures.harness import process_alive

if TYPE_CHECKING:
    # The SDK is imported where a session starts, not when the module is collected (every xdist
    # worker collects every module: `import mcp` is 1-1.4 s of CPU).
    from mcp.client.session import ClientSession
    from mcp_types import CallToolResult

# The spec's tools (mcp-tools.md): name -> (required params, optional params).
SPEC: dict[str, tuple[set[str], set[str]]] = {
    "pinchtab_navigate": ({"url"}, {"tabId"}),
    "pinchtab_snapshot": (set(), {"tabId", "interactive", "compact", "diff", "selector"}),
    "pinchtab_screenshot": (set(), {"tabId", "quality"}),
    "pinchtab_get_text": (set(), {"tabId", "raw"}),
    "pinchtab_click": ({"ref"}, {"tabId"}),
    "pinchtab_type": ({"ref", "text"}, {"tabId"}),
    "pinchtab_press": ({"key"}, {"tabId"}),
    "pinchtab_hover": ({"ref"}, {"tabId"}),
    "pinchtab_focus": ({"ref"}, {"tabId"}),
    "pinchtab_select": ({"ref", "value"}, {"tabId"}),
    "pinchtab_scroll": (set(), {"ref", "pixels", "tabId"}),
    "pinchtab_fill": ({"ref", "value"}, {"tabId"}),
    "pinchtab_eval": ({"expression"}, {"tabId"}),
    "pinchtab_pdf": (set(), {"tabId", "landscape", "scale", "pageRanges"}),
    "pinchtab_find": ({"query"}, {"tabId"}),
    "pinchtab_list_tabs": (set(), set()),
    "pinchtab_close_tab": (set(), {"tabId"}),
    "pinchtab_health": (set(), set()),
    "pinchtab_cookies": (set(), {"tabId"}),
    "pinchtab_wait": ({"ms"}, set()),
    "pinchtab_wait_for_selector": ({"selector"}, {"timeout", "tabId"}),
}
SPEC_TYPES = {"url": "string", "tabId": "string", "interactive": "boolean", "compact": "boolean", "diff": "boolean",
              "quality": "number", "raw": "boolean", "pixels": "number", "landscape": "boolean", "scale": "number",
              "ms": "number", "timeout": "number", "snap": "boolean", "snapDiff": "boolean", "annotate": "boolean"}


class McpSession:
    """A `pinchtab mcp` subprocess and an initialized ClientSession, driven from a background loop."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None, errlog: Any = None, tools: str = "all") -> None:
        from mcp.client.stdio import StdioServerParameters, stdio_client

        params = StdioServerParameters(command=sys.executable, args=["-m", "pinchtab", "mcp", "--tools", tools, *args], env=env)
        self.transport: Callable[[], Any] = lambda: stdio_client(params, errlog=errlog or sys.stderr)
        self.loop = asyncio.new_event_loop()
        self.ready: Future[ClientSession] = Future()
        self.stop = asyncio.Event()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._main(),), daemon=True)

    @classmethod
    def in_process(cls, server_url: str) -> McpSession:
        """The server `pinchtab mcp --tools all --server URL` builds, served in this process."""
        from mcp.client._memory import InMemoryTransport

        from pinchtab.client import AsyncClient
        from pinchtab.mcp.server import build_server
        from pinchtab.mcp.tools import select_tools

        session = cls([])
        session.transport = lambda: InMemoryTransport(build_server(AsyncClient(server_url, None, agent_id=""),
                                                                   tools=select_tools("all")))
        return session

    async def _main(self) -> None:
        from mcp.client.session import ClientSession

        try:
            async with self.transport() as (read, write, *_):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    self.ready.set_result(session)
                    await self.stop.wait()
        except BaseException as exc:
            if not self.ready.done():
                self.ready.set_exception(exc)
            raise

    def __enter__(self) -> McpSession:
        self.thread.start()
        self.session = self.ready.result(timeout=60)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(timeout=30)

    def run(self, coro: Any, timeout: float = 90) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def send(self, name: str, args: dict[str, Any] | None = None) -> Future[CallToolResult]:
        """Call a tool and go on: its answer is the future's (``call`` waits for it)."""
        return asyncio.run_coroutine_threadsafe(self.session.call_tool(name, args or {}), self.loop)

    def call(self, name: str, args: dict[str, Any] | None = None) -> CallToolResult:
        return self.run(self.session.call_tool(name, args or {}))

    def text(self, name: str, args: dict[str, Any] | None = None) -> str:
        """The text of a successful call."""
        return text_of(self.call(name, args))

    def json(self, name: str, args: dict[str, Any] | None = None) -> Any:
        return json.loads(self.text(name, args))

    def error(self, name: str, args: dict[str, Any] | None = None) -> str:
        """The text of a call that must fail as a tool error (isError, not a protocol error)."""
        res = self.call(name, args)
        assert res.is_error, res.content
        return res.content[0].text


def text_of(res: CallToolResult) -> str:
    """The text of a successful call's result."""
    assert not res.is_error, res.content[0].text
    assert len(res.content) == 1 and res.content[0].type == "text"
    return res.content[0].text


@pytest.fixture(scope="module")
def mcp(bridge: str) -> Iterator[McpSession]:
    with McpSession.in_process(bridge) as session:
        yield session


# A new tab (made over HTTP, on the session's client: httpx.post makes a client, and its TLS
# context, per call), so the tools under test are not used to set up.
fresh_tab = pytest.fixture(name="fresh_tab")(open_tab)

# A tab shared by the tests that load their page in it first (made over HTTP too): a new tab, with
# its renderer, costs more than most of these tests.
tab = pytest.fixture(scope="module", name="tab")(open_tab)


def compact_refs(snapshot: str) -> dict[tuple[str, str], str]:
    """(role, name) -> ref from a compact snapshot (`e3:textbox "Password"`)."""
    return {(m[2], m[3]): m[1] for m in re.finditer(r'^(e\d+):(\S+) "([^"]*)"', snapshot, re.M)}


# Optional parameters PinchTab's tools have beyond the spec's.
# Beyond the spec: PinchTab's snap (and snapDiff) on navigation and every action tool (issue 24), and
# the screenshot's annotate (issue 25).
_SNAP = {"snap", "snapDiff"}
# And PinchTab's format on the snapshot (outline beyond it, the default: issue 24).
BEYOND_SPEC = {"pinchtab_click": {"mode", "dialogAction", "dialogText"} | _SNAP, "pinchtab_snapshot": {"format"}, "pinchtab_screenshot": {"annotate"},
               **{name: _SNAP for name in ("pinchtab_navigate", "pinchtab_type", "pinchtab_press", "pinchtab_hover",
                                           "pinchtab_focus", "pinchtab_select", "pinchtab_scroll", "pinchtab_fill")}}


def test_tools_list_matches_the_spec(mcp: McpSession) -> None:
    from pinchtab.mcp.tools import TOOLS

    tools = {t.name: t for t in mcp.run(mcp.session.list_tools()).tools}
    assert set(tools) == {t.name for t in TOOLS} and set(SPEC) <= set(tools)  # the spec's and the table's
    for name, (required, optional) in SPEC.items():
        schema = tools[name].input_schema
        assert set(schema.get("required", [])) == required, name
        assert set(schema["properties"]) == required | optional | BEYOND_SPEC.get(name, set()), name
        for param, prop in schema["properties"].items():
            assert prop["type"] == SPEC_TYPES.get(param, "string"), (name, param)
            assert prop["description"], (name, param)
        assert tools[name].description


def test_login_session(mcp: McpSession, fresh_tab: str, pages: str) -> None:
    tab = fresh_tab
    nav = mcp.json("pinchtab_navigate", {"url": f"{pages}/login.html", "tabId": tab})
    assert nav == {"tabId": tab, "url": f"{pages}/login.html", "title": "Login"}

    snapshot = mcp.text("pinchtab_snapshot", {"tabId": tab, "interactive": True, "compact": True})
    refs = compact_refs(snapshot)
    assert ("button", "Log in") in refs and ("link", "Home") in refs
    full = mcp.text("pinchtab_snapshot", {"tabId": tab})  # the outline format
    assert full.startswith("# Login") and 'textbox "Password"' in full
    refs = compact_refs(mcp.text("pinchtab_snapshot", {"tabId": tab, "interactive": True, "compact": True}))

    found = mcp.json("pinchtab_find", {"query": "password field", "tabId": tab})
    assert found["best_ref"] == refs[("textbox", "Password")]
    assert found["matches"][0]["name"] == "Password"

    assert mcp.json("pinchtab_fill", {"ref": refs[("textbox", "Email address")], "value": "ada@example.com",
                                       "tabId": tab})["success"] is True
    typed = mcp.json("pinchtab_type", {"ref": found["best_ref"], "text": "hunter2", "tabId": tab})
    assert typed["success"] is True and typed["kind"] == "type"
    mcp.json("pinchtab_click", {"ref": refs[("button", "Log in")], "tabId": tab})

    assert mcp.json("pinchtab_wait_for_selector", {"selector": "#welcome", "timeout": 5000, "tabId": tab}) == {"present": True}
    assert "Signed in as ada@example.com" in mcp.text("pinchtab_get_text", {"tabId": tab})

    shot = mcp.call("pinchtab_screenshot", {"tabId": tab})
    assert not shot.is_error and shot.content[0].type == "image" and shot.content[0].mime_type == "image/png"
    assert base64.b64decode(shot.content[0].data).startswith(b"\x89PNG\r\n\x1a\n")
    jpeg = mcp.call("pinchtab_screenshot", {"tabId": tab, "quality": 50})
    assert jpeg.content[0].mime_type == "image/jpeg"
    assert base64.b64decode(jpeg.content[0].data).startswith(b"\xff\xd8\xff")
    assert base64.b64decode(mcp.text("pinchtab_pdf", {"tabId": tab, "landscape": True})).startswith(b"%PDF")

    tabs = mcp.json("pinchtab_list_tabs")
    assert {"tabId": tab, "url": f"{pages}/login.html", "title": "Dashboard"} in tabs
    assert mcp.json("pinchtab_close_tab", {"tabId": tab}) == {"closed": True, "tabId": tab}
    assert tab not in {t["tabId"] for t in mcp.json("pinchtab_list_tabs")}


def test_find_first_then_snapshot_then_act_on_finds_refs(mcp: McpSession, tab: str, pages: str) -> None:
    """The natural agent flow: find, look at the page, act with find's refs (they still name the
    same elements after any snapshot)."""
    mcp.json("pinchtab_navigate", {"url": f"{pages}/login.html", "tabId": tab})
    email = mcp.json("pinchtab_find", {"query": "email address field", "tabId": tab})["best_ref"]
    password = mcp.json("pinchtab_find", {"query": "password field", "tabId": tab})["best_ref"]
    refs = compact_refs(mcp.text("pinchtab_snapshot", {"tabId": tab, "interactive": True, "compact": True}))
    assert refs[("textbox", "Password")] == password and refs[("textbox", "Email address")] == email
    mcp.text("pinchtab_snapshot", {"tabId": tab})
    mcp.json("pinchtab_fill", {"ref": email, "value": "ada@example.com", "tabId": tab})
    mcp.json("pinchtab_fill", {"ref": password, "value": "hunter2", "tabId": tab})
    mcp.json("pinchtab_click", {"ref": refs[("button", "Log in")], "tabId": tab})
    assert mcp.json("pinchtab_wait_for_selector", {"selector": "#welcome", "timeout": 5000, "tabId": tab}) == {"present": True}
    assert "Signed in as ada@example.com" in mcp.text("pinchtab_get_text", {"tabId": tab})


def test_an_unsure_find_names_the_words_that_tell_its_candidates_apart(mcp: McpSession, http: httpx.Client, tab: str,
                                                                        pages: str) -> None:
    """Three Edit buttons, one per table row: find cannot choose, so both HTTP /find and
    pinchtab_find answer, beside the top candidates, each one's row words (issue 28)."""
    mcp.json("pinchtab_navigate", {"url": f"{pages}/table.html", "tabId": tab})
    over_http = http.post(f"/tabs/{tab}/find", json={"query": "edit"}).json()
    found = mcp.json("pinchtab_find", {"query": "edit", "tabId": tab})
    assert found["best_ref"] == over_http["best_ref"] and found["distinguish"] == over_http["distinguish"]
    assert [m["name"] for m in found["matches"]] == ["Edit", "Edit", "Edit"]
    said = [found["distinguish"][m["ref"]] for m in found["matches"]]
    assert [w.split()[:2] for w in said] == [["Ada", "Lovelace"], ["Grace", "Hopper"], ["Alan", "Turing"]]


def test_navigate_without_a_tab_reuses_the_sessions_tab(bridge: str, http: httpx.Client, pages: str) -> None:
    # A session of its own: the shared one's tab (the last it navigated) is the shared tab.
    with McpSession.in_process(bridge) as mcp:
        first = mcp.json("pinchtab_navigate", {"url": f"{pages}/login.html"})["tabId"]
        again = mcp.json("pinchtab_navigate", {"url": f"{pages}/buttons.html"})["tabId"]
        assert again == first
        http.post(f"/tabs/{first}/close")
        fresh = mcp.json("pinchtab_navigate", {"url": f"{pages}/login.html"})["tabId"]
        assert fresh != first  # its tab was closed: a new one
        http.post(f"/tabs/{fresh}/close")


def test_keyboard_and_form_tools(mcp: McpSession, tab: str, pages: str) -> None:
    mcp.json("pinchtab_navigate", {"url": f"{pages}/login.html", "tabId": tab})
    refs = compact_refs(mcp.text("pinchtab_snapshot", {"tabId": tab, "compact": True}))
    mcp.json("pinchtab_fill", {"ref": "#email", "value": "kim@example.com", "tabId": tab})  # a CSS selector
    mcp.json("pinchtab_fill", {"ref": refs[("textbox", "Password")], "value": "hunter2", "tabId": tab})
    mcp.json("pinchtab_focus", {"ref": refs[("textbox", "Password")], "tabId": tab})
    mcp.json("pinchtab_press", {"key": "Enter", "tabId": tab})
    assert mcp.json("pinchtab_wait_for_selector", {"selector": "#welcome", "tabId": tab}) == {"present": True}
    assert "Signed in as kim@example.com" in mcp.text("pinchtab_get_text", {"tabId": tab, "raw": True})

    mcp.json("pinchtab_navigate", {"url": f"{pages}/form.html", "tabId": tab})
    refs = compact_refs(mcp.text("pinchtab_snapshot", {"tabId": tab, "compact": True, "interactive": True}))
    mcp.json("pinchtab_select", {"ref": refs[("combobox", "Country")], "value": "de", "tabId": tab})
    mcp.json("pinchtab_hover", {"ref": refs[("button", "Save")], "tabId": tab})
    mcp.json("pinchtab_scroll", {"pixels": 120, "tabId": tab})
    assert mcp.json("pinchtab_eval", {"expression": "document.getElementById('country-out').textContent",
                                      "tabId": tab}) == "de"
    assert mcp.json("pinchtab_eval", {"expression": "({n: 1 + 2, s: document.title})", "tabId": tab}) == \
        {"n": 3, "s": "Form controls"}
    mcp.json("pinchtab_eval", {"expression": "document.cookie = 'seen=yes'", "tabId": tab})
    assert {"seen": "yes"}.items() <= {c["name"]: c["value"] for c in mcp.json("pinchtab_cookies", {"tabId": tab})}.items()


def test_errors_are_tool_errors_and_the_session_goes_on(mcp: McpSession, fresh_tab: str, pages: str) -> None:
    tab = fresh_tab
    for url in ("file:///etc/passwd", "javascript:alert(1)", "data:text/html,hi", "example.com", "about:blank"):
        assert mcp.error("pinchtab_navigate", {"url": url, "tabId": tab}) == \
            "invalid URL: must start with http:// or https://"
    # refused before any HTTP call: the tab never moved
    assert {"tabId": tab, "url": "about:blank", "title": ""} in mcp.json("pinchtab_list_tabs")

    mcp.json("pinchtab_navigate", {"url": f"{pages}/login.html", "tabId": tab})
    mcp.text("pinchtab_snapshot", {"tabId": tab})
    unknown = mcp.error("pinchtab_click", {"ref": "e999", "tabId": tab})
    assert unknown.startswith("HTTP 404: ref not found (") and "e999" in unknown  # the real status (issue 24)
    fields = mcp.call("pinchtab_click", {"ref": "e999", "tabId": tab}).structured_content
    assert fields is not None and (fields["status"], fields["code"]) == (404, "ref_not_found")

    missing = mcp.error("pinchtab_click", {"tabId": tab})
    assert "ref" in missing and "Field required" in missing
    mistyped = mcp.error("pinchtab_wait", {"ms": "soon"})
    assert "ms" in mistyped and "valid number" in mistyped

    other = mcp.error("pinchtab_snapshot", {"tabId": "NO-SUCH-TAB"})
    assert other.startswith("HTTP 404: tab NO-SUCH-TAB not found")

    # and the session still works
    assert mcp.json("pinchtab_health")["status"] == "ok"
    assert mcp.json("pinchtab_wait_for_selector", {"selector": "#never", "timeout": 200, "tabId": tab}) == {"present": False}
    started = time.monotonic()
    assert mcp.json("pinchtab_wait", {"ms": 150}) == {"waitedMs": 150}
    assert time.monotonic() - started >= 0.15


def test_eval_allowed_when_configured(mcp: McpSession, tab: str) -> None:
    assert mcp.json("pinchtab_eval", {"expression": "6 * 7", "tabId": tab}) == 42


def test_eval_forbidden_by_default(bridge: str, bridge_config: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # The default setting, on the session bridge's live config (not a bridge and browser of its own).
    monkeypatch.setattr(bridge_config.security, "allow_evaluate", load_config(environ={}).security.allow_evaluate)
    with McpSession.in_process(bridge) as locked:
        text = locked.error("pinchtab_eval", {"expression": "document.title"})
        assert text.startswith("HTTP 403: evaluate not allowed (")
        assert "allowEvaluate" in text
        assert locked.json("pinchtab_health")["status"] == "ok"


# -- auto-start -----------------------------------------------------------------------------------

def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(int(entry.name))
    return tree


def descendants(pid: int) -> set[int]:
    tree, out, todo = _children(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def stop_and_check_gone(pid: int) -> None:
    """SIGTERM the server by PID, then every process it started (its Chromium) must be gone."""
    family = descendants(pid)
    assert any("chrom" in _cmdline(p) for p in family), "the server has no Chromium under it"
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(process_alive(p) for p in family | {pid}):
        time.sleep(0.05)
    survivors = {p: _cmdline(p)[:100] for p in family | {pid} if process_alive(p)}
    assert not survivors, f"still running after SIGTERM: {survivors}"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _reap(proc: Any) -> None:
    try:
        proc.wait(timeout=10)
    except Exception:
        pass


# The two servers these tests start (with their Chromium) take seconds to come up, most of it
# waiting on the interpreter, the imports and the browser: both are started as the module starts,
# and come up while its other tests run (one after the other, the two tests below waited for them
# for most of the module's wall time).

@dataclass
class Ensuring:
    url: str  # where nothing answered
    state_dir: Path
    result: Future[bool]  # autostart.ensure_server(url), running in a thread


@pytest.fixture(scope="module", autouse=True)
def ensuring(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ensuring]:
    """``autostart.ensure_server`` on a free loopback port, called in a thread as the module starts."""
    state_dir = tmp_path_factory.mktemp("ensure-state")
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PINCHTAB_STATE_DIR", str(state_dir))
        # Its bridge's port away from 9868 and up, where every other server on this machine starts its own.
        patch.setenv("PINCHTAB_SERVER_INSTANCE_PORT_START", str(free_port()))
        with ThreadPoolExecutor(1) as thread:  # leaving it waits for ensure_server
            yield Ensuring(url, state_dir, thread.submit(autostart.ensure_server, url, timeout=60))
    proc = autostart.started.get(url)
    if proc is not None and proc.poll() is None:  # its test did not run, or failed before it stopped it
        proc.terminate()
        _reap(proc)


def test_ensure_server_starts_one_on_a_free_loopback_port(ensuring: Ensuring, bridge: str) -> None:
    assert autostart.ensure_server(bridge) is False  # something answers already
    assert autostart.ensure_server("http://203.0.113.9:9") is False  # never starts a remote one

    url = ensuring.url
    assert ensuring.result.result(timeout=90) is True
    proc = autostart.started[url]
    try:
        health = httpx.get(f"{url}/health", timeout=10)
        assert health.status_code == 200 and health.json()["status"] == "ok"
        assert autostart.ensure_server(url) is False  # now it answers
        assert (ensuring.state_dir / "logs").is_dir()  # its output goes to a log, not to our stdout
    finally:
        stop_and_check_gone(proc.pid)
        _reap(proc)


@dataclass
class AutoStarting:
    session: McpSession
    port: int  # the "default address" of its environment: PINCHTAB_PORT
    errlog: Any  # its stderr
    health: Future[CallToolResult]  # its first tool call, which waits for the server it starts


@pytest.fixture(scope="module", autouse=True)
def auto_starting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AutoStarting]:
    """A spawned `pinchtab mcp` with no server at its address, its pinchtab_health sent as the module starts."""
    tmp_path = tmp_path_factory.mktemp("autostart-mcp")
    port = free_port()
    env = {"PINCHTAB_PORT": str(port), "PINCHTAB_STATE_DIR": str(tmp_path), "PINCHTAB_CONFIG": str(tmp_path / "none.json"),
           "PINCHTAB_SERVER_INSTANCE_PORT_START": str(free_port())}  # not 9868, where other servers start bridges
    with open(tmp_path / "mcp-stderr.txt", "w+") as errlog:
        # The tools it calls (health is in tabs): fewer schemas to build than with all.
        with McpSession([], env=env, errlog=errlog, tools="core,tabs") as session:
            health = session.send("pinchtab_health")
            yield AutoStarting(session, port, errlog, health)
            with contextlib.suppress(Exception):  # the server is up (and its pid said) once this answered
                health.result(timeout=90)
        errlog.seek(0)
        said = re.search(r"pid (\d+)", errlog.read())
    # The server it started, when its test did not run or failed before it stopped it.
    if said and process_alive(int(said[1])) and "pinchtab server" in _cmdline(int(said[1])):
        os.kill(int(said[1]), signal.SIGTERM)


def test_mcp_auto_starts_a_server_at_the_default_address(auto_starting: AutoStarting, pages: str) -> None:
    session, port, errlog = auto_starting.session, auto_starting.port, auto_starting.errlog
    pid = None
    try:
        health = json.loads(text_of(auto_starting.health.result(timeout=90)))  # waits for the server being started
        assert health["status"] == "ok"
        errlog.seek(0)
        said = errlog.read()
        assert f"127.0.0.1:{port}" in said and "started in the background" in said
        pid = int(re.search(r"pid (\d+)", said)[1])
        # and the tools drive the browser of the server it started
        assert session.json("pinchtab_navigate", {"url": f"{pages}/login.html"})["title"] == "Login"
        assert 'button "Log in"' in session.text("pinchtab_snapshot", {"compact": True})
    finally:
        if pid is not None:
            stop_and_check_gone(pid)


def test_snap_answers_with_the_outline_and_a_batch_acts_in_one_call(mcp: McpSession, tab: str, pages: str) -> None:
    """MCP's snap is the outline (the page's text too: what a step did shows in its answer), snapDiff
    what changed, and pinchtab_actions fills and submits a form in one call (issue 24)."""
    page = mcp.text("pinchtab_navigate", {"url": f"{pages}/login.html", "tabId": tab, "snap": True})
    # the tab it named is not repeated, nor the URL it asked for
    assert page.startswith("# Login\n") and 'heading "Welcome back"' in page, page
    refs = {m.group(2): m.group(1) for m in re.finditer(r'(e\d+) (?:textbox|button|checkbox \[ \]) "([^"]+)"', page)}
    diff = mcp.text("pinchtab_click", {"ref": refs["Remember me"], "tabId": tab, "snapDiff": True})
    assert "# diff: 0 added, 1 changed, 0 removed" in diff and f"~ {refs['Remember me']}:checkbox" in diff, diff
    done = mcp.text("pinchtab_actions", {"tabId": tab, "snap": True, "actions": [
        {"kind": "fill", "ref": refs["Email address"], "value": "ada@example.com"},
        {"kind": "fill", "ref": refs["Password"], "value": "hunter2"},
        {"kind": "click", "ref": refs["Log in"]}]})
    # no echo of the steps before the page (each succeeded, or the call is an error)
    assert not done.startswith("{") and "Signed in as ada@example.com" in done, done


def test_snap_on_a_page_seen_answers_what_changed_since(mcp: McpSession, tab: str, pages: str) -> None:
    """After a session has seen a page, snap answers only the lines that changed since its last
    view (the whole outline again after a new document), and a dialog still says so (issue 24)."""
    page = mcp.text("pinchtab_navigate", {"url": f"{pages}/login.html", "tabId": tab, "snap": True})
    refs = {m.group(2): m.group(1) for m in re.finditer(r'(e\d+) (?:textbox|button|checkbox \[ \]) "([^"]+)"', page)}
    box = refs["Remember me"]
    diff = mcp.text("pinchtab_click", {"ref": box, "tabId": tab, "snap": True})
    assert diff.startswith("# diff\n") and re.search(rf'^\+ *{box} checkbox \[x\] "Remember me"', diff, re.M), diff
    assert 'heading "Welcome back"' not in diff and len(diff) < len(page) / 3
    again = mcp.text("pinchtab_snapshot", {"tabId": tab})  # a full view: the next diff is against it
    assert f'{box} checkbox [x] "Remember me"' in again
    assert mcp.text("pinchtab_click", {"ref": box, "tabId": tab, "snap": True}).startswith("# diff\n+")
    fresh = mcp.text("pinchtab_navigate", {"url": f"{pages}/login.html", "tabId": tab, "snap": True})
    assert fresh.startswith("# Login\n") and 'heading "Welcome back"' in fresh, fresh
