"""The hostile bridge of a module, and one tab of it for the module's tests.

A module whose tests need nothing set when Chromium starts (page downloads are: Chromium is told
where they go at its start) and never kill or restart it runs on the session bridge with the
security flags it needs turned on for the module (``on_session_bridge``): a hostile bridge of its
own is one more Chromium start on the test process. One tab for the module (a new tab, with its
renderer, costs more than most of the tests): a module whose tests load their own pages and leave
nothing behind that the next one checks overrides the conftest's per-test ``new_tab`` with it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import ServerThread
from tests.hostile.conftest import HostileBridge

# What the hostile tests that run on the session bridge reach for (the hostile bridge's other
# flags, page downloads and their cap, are set when Chromium starts).
SECURITY = ("allow_evaluate", "allow_network_intercept", "allow_upload")


def on_session_bridge(bridge_server: ServerThread) -> Iterator[HostileBridge]:
    """The session bridge as a module's hostile bridge, evaluate, network interception and uploads
    allowed for the module. A module takes it as its ``hostile_bridge``:
    ``hostile_bridge = pytest.fixture(scope="module", name="hostile_bridge")(on_session_bridge)``."""
    browser = bridge_server.server.config.app.state.browser
    with pytest.MonkeyPatch.context() as patch, httpx.Client(base_url=bridge_server.url, timeout=60) as client:
        for name in SECURITY:
            patch.setattr(browser.config.security, name, True)
        yield HostileBridge(client, browser, Path(browser.config.server.state_dir))


def module_tab(hostile_bridge: HostileBridge) -> Iterator[str]:
    """One tab for the module: ``new_tab = pytest.fixture(scope="module", name="new_tab")(module_tab)``."""
    res = hostile_bridge.client.post("/tab", json={"action": "new"})
    assert res.status_code == 200, res.text
    tab_id = res.json()["tabId"]
    yield tab_id
    hostile_bridge.client.post("/close", json={"tabId": tab_id})
