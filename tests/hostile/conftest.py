"""Hostile requests and pages (issue 27): each against a real bridge, bounded in time."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import ServerThread
from tests.fixtures.harness import free_port

SNAPSHOT_CAP = 1_000  # browser.maxSnapshotNodes: small, so the huge-page test takes seconds
DOWNLOAD_CAP = 200_000  # security.downloadMaxBytes


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/hostile/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def hostile_bridge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, Path]]:
    """One bridge for the hostile tests of a worker, and its state dir: the risky capabilities a
    hostile request would reach for turned on (downloads too, capped at DOWNLOAD_CAP), snapshots
    capped at SNAPSHOT_CAP nodes. Its own: the tests' pages stay far below that cap."""
    from pinchtab.bridge.app import create_app
    from pinchtab.config import load_config

    state = tmp_path_factory.mktemp("hostile-state")
    config = load_config({
        "browser": {"maxSnapshotNodes": SNAPSHOT_CAP},
        "security": {"allowEvaluate": True, "allowNetworkIntercept": True, "allowUpload": True,
                     "allowDownload": True, "downloadMaxBytes": DOWNLOAD_CAP},
        "server": {"stateDir": str(state)},
    }, environ={})
    with ServerThread(create_app(config), free_port()) as server:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            yield client, state


@pytest.fixture()
def open_bridge(hostile_bridge: tuple[httpx.Client, Path]) -> httpx.Client:
    return hostile_bridge[0]


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
