"""Shared test fixtures: fixture pages served from 127.0.0.1 and a live bridge with a real Chromium.

The bridge runs in a background thread with its own event loop (real uvicorn, real HTTP), once per
test session; each test that needs a clean page opens its own tab.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.fixtures.harness import PAGES, free_port, serve


def _end_worker_process() -> None:
    """A pytest-xdist worker's last exit handler: the process ends without tearing down its
    interpreter. Its tests, fixtures and the other exit handlers (temp dirs, ...) are done by then,
    and freeing a worker's heap object by object held the end of the run: the controller waits for
    every worker to exit (7.2 s from the last test to the workers' exit at load 22, 1.7 s with this)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


# Registered when the workers import this file, before any fixture registers its own handler:
# exit handlers run last-registered first, so this one runs after them (only logging's flush and
# execnet's, registered earlier, are skipped: logging flushes every record as it writes it).
if os.environ.get("PYTEST_XDIST_WORKER"):
    atexit.register(_end_worker_process)


# The files that take longest, longest first (each file's wall time in a full 3-worker run, 26 Nov
# 2026 11:57 UTC, after the second day's cuts): under pytest-xdist (scripts/test.sh: --dist loadfile, a
# file on one worker, in collection order) none of them may start last and leave the other workers
# idle. Then the other end-to-end files, then the unit tests; a file keeps its own order.
SLOW_FIRST = ("e2e/test_fuzz_server.py", "e2e/test_server.py", "hostile/test_bridges.py", "e2e/test_frameworks.py",
              "e2e/test_errors.py", "e2e/test_fuzz.py", "e2e/test_server_in_process.py", "e2e/test_mcp.py",
              "e2e/test_attach.py", "e2e/test_frames.py", "e2e/test_snapshot.py", "e2e/test_wheel.py",
              "e2e/test_actions.py", "e2e/test_interaction.py", "e2e/test_client.py", "e2e/test_lifecycle.py",
              "e2e/test_hardening_browser.py", "e2e/test_audit.py", "e2e/test_content.py",
              "hostile/test_huge_pages.py", "e2e/test_parity.py", "e2e/test_media.py", "e2e/test_page_model.py",
              "e2e/test_inspect.py", "e2e/test_observe_mcp.py", "hostile/test_requests.py", "e2e/test_dashboard.py",
              "e2e/test_navigation.py", "hostile/test_dialog_loops.py", "unit/mcp/test_early.py",
              "e2e/test_actionability.py")


def pytest_collection_finish(session: pytest.Session) -> None:
    """What is loaded by now (pinchtab, its dependencies, the collected tests) lives for the whole
    run: the collector leaves it alone, and runs less often over what comes after. In a run of the
    fuzz, snapshot and three unit folders the collector's CPU fell from 1.12 s (909 collections) to
    0.59 s (304)."""
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> tuple[int, bool]:
        path = item.path.as_posix()
        slow = next((i for i, name in enumerate(SLOW_FIRST) if path.endswith(f"tests/{name}")), len(SLOW_FIRST))
        return slow, "/tests/e2e/" not in path

    items.sort(key=rank)


@pytest.fixture(scope="session")
def pages() -> Iterator[str]:
    """Base URL of the fixture pages (tests/fixtures/pages) on 127.0.0.1."""
    url, server = serve(PAGES)
    yield url
    server.shutdown()


class ServerThread:
    """An ASGI app served by uvicorn in a thread, for tests that talk real HTTP to it."""

    def __init__(self, app: Any, port: int) -> None:
        import uvicorn

        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        # A request still open when the test is done (a stream, a long wait a client gave up on)
        # is cancelled after 3 s: uvicorn would wait for it, and __exit__'s join gave up after 20 s
        # with the app's shutdown (its Chromium's stop) not yet run (seen once in a full run).
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on",
                                                    timeout_graceful_shutdown=3))
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)

    def __enter__(self) -> "ServerThread":
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


def start_bridge(state_dir: Path, **security: Any) -> ServerThread:
    from pinchtab.bridge.app import create_app
    from pinchtab.config import load_config

    config = load_config({"security": security, "server": {"stateDir": str(state_dir)}}, environ={})
    return ServerThread(create_app(config), free_port())


# Each bridge keeps its files (snapshots, captures, sessions) in a state dir of its own test run, not
# in ~/.pinchtab: under pytest-xdist every worker has its own bridges, and they must not share one.
@pytest.fixture(scope="session")
def bridge_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """The session bridge: evaluate, cookies and screencast allowed (tests read page state through it;
    the dashboard's live view watches it). A test that needs another setting for itself sets it on
    the live config (``bridge_config``) with monkeypatch instead of starting a bridge of its own."""
    with start_bridge(tmp_path_factory.mktemp("bridge-state"), allowEvaluate=True, allowCookies=True,
                      allowScreencast=True) as server:
        yield server


@pytest.fixture(scope="session")
def bridge(bridge_server: ServerThread) -> str:
    """URL of the session bridge."""
    return bridge_server.url


@pytest.fixture(scope="session")
def bridge_config(bridge_server: ServerThread) -> Any:
    """The session bridge's live config (pinchtab.config's model): what a request reads at the time."""
    return bridge_server.server.config.app.state.browser.config


@pytest.fixture
def locked_bridge(bridge: str, bridge_config: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """URL of a bridge with the default, locked-down security config: the session bridge with its
    security section set to the defaults for this test (a bridge of its own started a Chromium on
    each worker for a few requests)."""
    from pinchtab.config import load_config

    defaults = load_config(environ={}).security
    for name in type(defaults).model_fields:
        monkeypatch.setattr(bridge_config.security, name, getattr(defaults, name))
    return bridge


@pytest.fixture(scope="session")
def http(bridge: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=bridge, timeout=60) as client:
        yield client


def open_tab(http: httpx.Client, url: str | None = None) -> Iterator[str]:
    """A new tab on the session bridge (on ``url`` when given), closed afterwards. ``tab`` gives one
    per test; a module whose tests each open their own page first shares one (a new tab, with its
    renderer, costs more than most tests): ``tab = pytest.fixture(scope="module", name="tab")(open_tab)``."""
    res = http.post("/tab", json={"action": "new", **({"url": url} if url else {})})
    assert res.status_code == 200, res.text
    tab_id = res.json()["tabId"]
    yield tab_id
    http.post(f"/tabs/{tab_id}/close")


tab = pytest.fixture(name="tab")(open_tab)


def js(http: httpx.Client, tab_id: str, expression: str) -> Any:
    """Evaluate in the page (test helper: checks an action's effect on the page)."""
    res = http.post(f"/tabs/{tab_id}/evaluate", json={"expression": expression})
    assert res.status_code == 200, res.text
    return res.json()["result"]


def open_page(http: httpx.Client, tab_id: str, url: str) -> dict[str, Any]:
    res = http.post(f"/tabs/{tab_id}/navigate", json={"url": url})
    assert res.status_code == 200, res.text
    return res.json()


def snap(http: httpx.Client, tab_id: str, **params: Any) -> dict[str, Any]:
    res = http.get(f"/tabs/{tab_id}/snapshot", params=params)
    assert res.status_code == 200, res.text
    return res.json()


def ref_of(snapshot: dict[str, Any], role: str, name: str) -> str:
    for node in snapshot["nodes"]:
        if node["role"] == role and node["name"] == name:
            return node["ref"]
    raise AssertionError(f"no {role} {name!r} in snapshot: {[(n['role'], n['name']) for n in snapshot['nodes']]}")


# Figures a test wants shown after the run (fuzz and load figures), printed in the summary. A test
# records one with record_property("figure", line): it travels in the test's report, so under
# pytest-xdist a worker's figure reaches the process that prints the summary (which loads this
# conftest, not the ones of tests/e2e/: it collects nothing itself).
FIGURES: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "teardown":  # the last report of a test: it carries every property recorded
        FIGURES.extend(value for name, value in report.user_properties if name == "figure")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if FIGURES:
        terminalreporter.section("figures")
        for line in FIGURES:
            terminalreporter.write_line(line)
