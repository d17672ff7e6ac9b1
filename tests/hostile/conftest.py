"""Hostile requests and pages (issue 27): each against a real bridge, bounded in time."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import start_bridge

DOWNLOAD_CAP = 200_000  # security.downloadMaxBytes (tests/hostile/test_dedicated_bridge.py)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/hostile/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@dataclass
class HostileBridge:
    client: httpx.Client
    browser: Any  # the bridge's pinchtab.browser Browser (its Chromium process, its live config)
    state: Path  # its state dir (downloads land in state/downloads)


# A page's oversized download and Chromium killed under a never-loading tab run against one bridge
# per test process (page downloads are set up when its Chromium starts; the kill must not hit the
# session's): its tests close the tabs they open, and the test that kills its Chromium checks the
# restore that every later test then uses. The other hostile files (requests, popups, dialogs, mocked
# and huge pages) override this fixture with the session bridge (tests/hostile/tabs.py on_session_bridge).
@pytest.fixture(scope="session")
def hostile_bridge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostileBridge]:
    """A bridge with the risky capabilities a hostile request would reach for turned on, downloads
    allowed up to ``DOWNLOAD_CAP`` bytes."""
    state = tmp_path_factory.mktemp("hostile-state")
    with start_bridge(state, allowEvaluate=True, allowNetworkIntercept=True, allowUpload=True, allowDownload=True,
                      downloadMaxBytes=DOWNLOAD_CAP) as server:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            yield HostileBridge(client, server.server.config.app.state.browser, state)


@pytest.fixture()
def open_bridge(hostile_bridge: HostileBridge) -> httpx.Client:
    return hostile_bridge.client


@pytest.fixture()
def new_tab(open_bridge: httpx.Client) -> Iterator[str]:
    res = open_bridge.post("/tab", json={"action": "new"})
    assert res.status_code == 200, res.text
    tab_id = res.json()["tabId"]
    yield tab_id
    open_bridge.post("/close", json={"tabId": tab_id})


def healthy_during(client: httpx.Client, hostile: Callable[[], Any]) -> Any:
    """Run ``hostile`` in a thread; while it runs, the bridge must answer /health within 2 s."""
    outcome: list[Any] = []
    worker = threading.Thread(target=lambda: outcome.append(hostile()), daemon=True)
    worker.start()
    checks = 0
    while worker.is_alive() or checks == 0:
        res = client.get("/health", timeout=2)
        assert res.status_code == 200, res.text
        checks += 1
        worker.join(0.2)
    worker.join(60)
    assert outcome, "the hostile request did not come back"
    return outcome[0]
