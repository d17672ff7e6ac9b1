"""One frame source per tab: one Page.startScreencast for every consumer, each frame acked at once,
each consumer at its own rate with a bounded queue, stopped with the last consumer."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Callable
from typing import Any

from pinchtab.browser.media import frames
from pinchtab.browser.media.frames import FrameSettings, frame_source


class FakeSession:
    def __init__(self) -> None:
        self.handlers: dict[str, list[Callable[[dict[str, Any]], None]]] = {}

    def on(self, method: str, handler: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        self.handlers.setdefault(method, []).append(handler)
        return lambda: self.handlers[method].remove(handler)

    def emit(self, method: str, params: dict[str, Any]) -> None:
        for handler in list(self.handlers.get(method, [])):
            handler(params)


class FakeTab:
    id = "T1"
    closed = False

    def __init__(self) -> None:
        self.session = FakeSession()
        self.sent: list[tuple[str, dict[str, Any] | None]] = []

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.sent.append((method, params))
        return {}

    def methods(self, name: str) -> list[dict[str, Any] | None]:
        return [p for m, p in self.sent if m == name]


def frame(tab: FakeTab, n: int) -> None:
    tab.session.emit("Page.screencastFrame", {"sessionId": n, "data": base64.b64encode(b"jpeg%d" % n).decode(),
                                              "metadata": {"deviceWidth": 800, "deviceHeight": 600}})


async def test_consumers_share_one_screencast_and_it_stops_with_the_last(monkeypatch: Any) -> None:
    monkeypatch.setattr(frames, "FIRST_FRAME_WAIT_S", 60)  # no stand-in screenshot in this test
    clock = iter(range(1, 1000))
    monkeypatch.setattr(frames.time, "monotonic", lambda: next(clock) / 10)  # frames 0.1 s apart
    tab = FakeTab()
    source = frame_source(tab)  # type: ignore[arg-type]
    assert frame_source(tab) is source  # type: ignore[arg-type]
    fast = await source.join(30, FrameSettings(quality=40, max_width=800, max_height=600))
    slow = await source.join(1, FrameSettings(quality=80, max_width=400, max_height=300))
    starts = tab.methods("Page.startScreencast")
    assert starts[-1] == {"format": "jpeg", "quality": 80, "maxWidth": 800, "maxHeight": 600, "everyNthFrame": 1}
    for n in range(1, 5):
        frame(tab, n)
    await asyncio.sleep(0)
    assert [p["sessionId"] for p in tab.methods("Page.screencastFrameAck")] == [1, 2, 3, 4]  # type: ignore[index]
    assert [f.data for f in fast.queue] == [b"jpeg3", b"jpeg4"], "the two newest frames"
    assert [f.data for f in slow.queue] == [b"jpeg1"], "at most its fps"
    assert (await fast.next(1)).data == b"jpeg3" and fast.latest is not None and fast.latest.width == 800  # type: ignore[union-attr]
    await fast.close()
    assert tab.methods("Page.startScreencast")[-1]["maxWidth"] == 400, "restarted for the one left"  # type: ignore[index]
    starts = len(tab.methods("Page.startScreencast"))
    await slow.close()
    assert len(tab.methods("Page.startScreencast")) == starts
    assert source.consumers == set() and tab.session.handlers["Page.screencastFrame"] == []
    assert tab.methods("Page.stopScreencast"), "stopped with the last consumer"
    latecomer = await source.join(5, FrameSettings())
    assert [f.data for f in latecomer.queue] == [b"jpeg4"], "a new consumer sees the latest frame at once"
    await latecomer.close()
