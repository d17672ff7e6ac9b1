"""The automatic start of a new Chromium after a crash is tried again when it fails (a Chromium
that exits during start-up on a loaded machine): the bridge had stayed without a browser until a
request came, and a server watching its /health reported the instance down for good."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pinchtab.browser.core import browser as browser_module
from pinchtab.browser.core.browser import Browser
from pinchtab.config import Config
from pinchtab.errors import BrowserError


def browser_whose_starts(monkeypatch: pytest.MonkeyPatch, fail: int) -> tuple[Browser, list[str]]:
    """A Browser whose first ``fail`` starts raise; the starts it made, in ``calls``."""
    monkeypatch.setattr(browser_module, "RESTART_RETRY_DELAYS", (0.0, 0.0, 0.0))
    b, calls = Browser(Config()), []

    async def teardown() -> None:
        b.connection = None

    async def start() -> None:
        calls.append("start")
        if len(calls) <= fail:
            raise BrowserError("Chromium did not start: it exited during start-up", "chrome_start_failed")
        b.connection = SimpleNamespace(is_closed=False)  # type: ignore[assignment]

    monkeypatch.setattr(b, "_teardown", teardown)
    monkeypatch.setattr(b, "_start", start)
    return b, calls


async def test_a_failed_restart_is_tried_again_and_counted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    b, calls = browser_whose_starts(monkeypatch, fail=2)
    await b._auto_restart()
    assert calls == ["start"] * 3 and b.alive and b.restarts == 1


async def test_restarts_give_up_after_the_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    b, calls = browser_whose_starts(monkeypatch, fail=99)
    await b._auto_restart()
    assert calls == ["start"] * 4 and not b.alive and b.restarts == 1


async def test_a_stopped_browser_is_not_restarted(monkeypatch: pytest.MonkeyPatch) -> None:
    b, calls = browser_whose_starts(monkeypatch, fail=99)
    b._stopping = True
    await b._auto_restart()
    assert calls == [] and b.restarts == 0
