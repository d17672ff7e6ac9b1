"""One tab of the hostile bridge for a module's tests (a new tab, with its renderer, costs more
than most of them): a module whose tests load their own pages and leave nothing behind that the
next one checks overrides the conftest's per-test ``new_tab`` with it."""

from __future__ import annotations

from collections.abc import Iterator

from tests.hostile.conftest import HostileBridge


def module_tab(bridge: HostileBridge) -> Iterator[str]:
    res = bridge.client.post("/tab", json={"action": "new"})
    assert res.status_code == 200, res.text
    tab_id = res.json()["tabId"]
    yield tab_id
    bridge.client.post("/close", json={"tabId": tab_id})
