"""Hostile requests and pages (issue 27): each against a real bridge, bounded in time."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import start_bridge


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/hostile/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="module")
def open_bridge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """A bridge with the risky capabilities a hostile request would reach for turned on."""
    state = str(tmp_path_factory.mktemp("hostile-state"))
    with start_bridge(state, allowEvaluate=True, allowNetworkIntercept=True, allowUpload=True) as server:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            yield client


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
