"""A navigation leaving a page dismisses the page's open dialog and every further one until the
new document commits (issue 27, row 16: an alert loop could only be left with /close)."""

from __future__ import annotations

import asyncio
from typing import Any

from pinchtab.browser.core.dialogs import DialogTracker


class FakeTab:
    id = "T1"

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any] | None]] = []

    async def send(self, method: str, params: dict[str, Any] | None = None, *,
                   timeout: float | None = None) -> dict[str, Any]:
        self.sent.append((method, params))
        return {}


async def test_leaving_dismisses_the_open_dialog_and_the_next_ones_until_the_new_page() -> None:
    tab = FakeTab()
    dialogs = DialogTracker(tab)
    dialogs.on_opening({"type": "alert", "message": "again"})
    assert dialogs.pending is not None and dialogs.opened == 1
    dialogs.leave()
    opening = dialogs.next_opening()
    dialogs.on_opening({"type": "alert", "message": "again"})
    dialogs.on_opening({"type": "beforeunload", "message": ""})
    await asyncio.sleep(0)  # the answers are sent by tasks
    assert opening.done() and dialogs.pending is None and dialogs.opened == 3
    assert [p for _, p in tab.sent] == [{"accept": False}, {"accept": False}, {"accept": True, "promptText": ""}]
    dialogs.left()  # the new document committed: its dialogs are the agent's again (manual policy)
    dialogs.on_opening({"type": "confirm", "message": "new page"})
    assert dialogs.pending is not None and dialogs.pending["message"] == "new page"
